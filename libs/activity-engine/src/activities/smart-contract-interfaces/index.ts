/** Smart contract interfaces (decoded for policies by `engine/policy-context.ts`). One file per kind; this list is the folder's whole registration. */
import { createSmartContractInterface } from './create-smart-contract-interface.js';
import { deleteSmartContractInterface } from './delete-smart-contract-interface.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const SMART_CONTRACT_INTERFACES_ACTIVITIES: readonly TAnyActivityDefinition[] = [createSmartContractInterface, deleteSmartContractInterface];
