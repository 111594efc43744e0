/**
 * Policies: create_policy (V3), create_policies, update_policy (V2), delete_policy,
 * delete_policies. `condition` and `consensus` are parsed when the policy is written — a parse
 * error is a 400 "invalid policy condition" / "invalid policy consensus" naming the position, so
 * a stored policy never fails to parse at evaluation. Names are unique per organization ("policy
 * label must be unique"). Policy: POLICY / CREATE, UPDATE, DELETE.
 */
import { ZCreatePolicyIntentSchema, type TCreatePolicyIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { storePolicy, validatePolicy } from './policies-shared.js';

export const createPolicy: TActivityDefinition<TCreatePolicyIntent, { policyId: string }> = {
  path: 'create_policy',
  versions: [{ type: 'ACTIVITY_TYPE_CREATE_POLICY_V3', intentKey: 'createPolicyIntentV3', resultKey: 'createPolicyResult' }],
  resource: 'POLICY',
  action: 'CREATE',
  onFailure: 'reject',
  params: ZCreatePolicyIntentSchema,
  validate: (p) => validatePolicy(p),
  async handle(ctx, p) {
    return { policyId: await storePolicy(ctx, p) };
  },
};
