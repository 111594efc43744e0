/**
 * Policies: create_policy (V3), create_policies, update_policy (V2), delete_policy,
 * delete_policies. `condition` and `consensus` are parsed when the policy is written — a parse
 * error is a 400 "invalid policy condition" / "invalid policy consensus" naming the position, so a
 * stored policy never fails to parse at evaluation. Names are unique per organization ("policy
 * label must be unique").
 */
import { AppError, ZUpdatePolicyIntentSchema, type TUpdatePolicyIntent, UPDATE_POLICY_ACTIVITY } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertPolicyExpression, nameTaken } from './policies-shared.js';

export const updatePolicy: TActivityDefinition<TUpdatePolicyIntent, { policyId: string }> = {
  ...UPDATE_POLICY_ACTIVITY,
  onFailure: 'reject',
  params: ZUpdatePolicyIntentSchema,
  validate(p) {
    assertPolicyExpression('condition', p.policyCondition, 'policyCondition');
    assertPolicyExpression('consensus', p.policyConsensus, 'policyConsensus');
  },
  async handle(ctx, p) {
    const changes = {
      ...(p.policyName !== undefined ? { name: p.policyName } : {}),
      ...(p.policyEffect !== undefined ? { effect: p.policyEffect } : {}),
      ...(p.policyCondition !== undefined ? { condition: p.policyCondition } : {}),
      ...(p.policyConsensus !== undefined ? { consensus: p.policyConsensus } : {}),
      ...(p.policyNotes !== undefined ? { notes: p.policyNotes } : {}),
    };
    let found: boolean;
    try {
      found = await ctx.tx.policies.update(ctx.organizationId, p.policyId, changes, ctx.now);
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(p.policyName ?? '');
      throw e;
    }
    if (!found) throw new AppError('NOT_FOUND', `policy not found: ${p.policyId}`, { policyId: p.policyId });
    return { policyId: p.policyId };
  },
};
