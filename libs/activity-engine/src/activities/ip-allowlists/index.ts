/** IP allowlists (enforced by `engine/ip-allowlist.ts`). One file per kind; this list is the folder's whole registration. */
import { setIpAllowlist } from './set-ip-allowlist.js';
import { removeIpAllowlist } from './remove-ip-allowlist.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const IP_ALLOWLISTS_ACTIVITIES: readonly TAnyActivityDefinition[] = [setIpAllowlist, removeIpAllowlist];
