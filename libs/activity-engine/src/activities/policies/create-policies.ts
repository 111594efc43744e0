/**
 * Policies: create_policy (V3), create_policies, update_policy (V2), delete_policy,
 * delete_policies. `condition` and `consensus` are parsed when the policy is written — a parse
 * error is a 400 "invalid policy condition" / "invalid policy consensus" naming the position, so a
 * stored policy never fails to parse at evaluation. Names are unique per organization ("policy
 * label must be unique").
 */
import { ZCreatePoliciesIntentSchema, type TCreatePoliciesIntent, CREATE_POLICIES_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { nameTaken, storePolicy, validatePolicy } from './policies-shared.js';

export const createPolicies: TActivityDefinition<TCreatePoliciesIntent, { policyIds: string[] }> = {
  ...CREATE_POLICIES_ACTIVITY,
  onFailure: 'reject',
  params: ZCreatePoliciesIntentSchema,
  validate(p) {
    const names = new Set<string>();
    p.policies.forEach((policy, i) => {
      validatePolicy(policy, `policies.${i}.`);
      if (names.has(policy.policyName)) throw nameTaken(policy.policyName);
      names.add(policy.policyName);
    });
  },
  async handle(ctx, p) {
    const policyIds: string[] = [];
    for (const policy of p.policies) policyIds.push(await storePolicy(ctx, policy));
    return { policyIds };
  },
};
