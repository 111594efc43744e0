/** Policies. One file per kind; this list is the folder's whole registration. */
import { createPolicy } from './create-policy.js';
import { createPolicies } from './create-policies.js';
import { updatePolicy } from './update-policy.js';
import { deletePolicy } from './delete-policy.js';
import { deletePolicies } from './delete-policies.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const POLICIES_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  createPolicy,
  createPolicies,
  updatePolicy,
  deletePolicy,
  deletePolicies,
];
