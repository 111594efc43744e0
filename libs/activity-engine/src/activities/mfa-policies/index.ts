/** MFA policies (enforced by `engine/mfa.ts` and `engine/mfa-approval.ts`). One file per kind; this list is the folder's whole registration. */
import { createMfaPolicy } from './create-mfa-policy.js';
import { updateMfaPolicy } from './update-mfa-policy.js';
import { deleteMfaPolicy } from './delete-mfa-policy.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const MFA_POLICIES_ACTIVITIES: readonly TAnyActivityDefinition[] = [createMfaPolicy, updateMfaPolicy, deleteMfaPolicy];
