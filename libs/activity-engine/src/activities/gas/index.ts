/** Gas sponsorship's configuration (issue 15 §2). One file per kind; this list is the folder's whole registration. */
import { upsertGasUsageConfig } from './upsert-gas-usage-config.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const GAS_ACTIVITIES: readonly TAnyActivityDefinition[] = [upsertGasUsageConfig];
