/**
 * Policies: create_policy (V3), create_policies, update_policy (V2), delete_policy,
 * delete_policies. `condition` and `consensus` are parsed when the policy is written — a parse
 * error is a 400 "invalid policy condition" / "invalid policy consensus" naming the position, so a
 * stored policy never fails to parse at evaluation. Names are unique per organization ("policy
 * label must be unique").
 */
import { ZCreatePolicyIntentSchema, type TCreatePolicyIntent, CREATE_POLICY_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { storePolicy, validatePolicy } from './policies-shared.js';

export const createPolicy: TActivityDefinition<TCreatePolicyIntent, { policyId: string }> = {
  ...CREATE_POLICY_ACTIVITY,
  onFailure: 'reject',
  params: ZCreatePolicyIntentSchema,
  validate: (p) => validatePolicy(p),
  async handle(ctx, p) {
    return { policyId: await storePolicy(ctx, p) };
  },
};
