/**
 * update_mfa_policy — replaces the fields given of one of a user's MFA policies (a new condition
 * parsed first: a 400 naming `condition`). Activities already waiting keep the steps they were
 * submitted under.
 */
import { AppError, UPDATE_MFA_POLICY_ACTIVITY, ZUpdateMfaPolicyIntentSchema, type TMfaPolicyResult, type TUpdateMfaPolicyIntent } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { parseMfaCondition } from '../../engine/mfa.js';

export const updateMfaPolicy: TActivityDefinition<TUpdateMfaPolicyIntent, TMfaPolicyResult> = {
  ...UPDATE_MFA_POLICY_ACTIVITY,
  onFailure: 'reject',
  params: ZUpdateMfaPolicyIntentSchema,
  policyParams: exposeParams({ userId: 'user_id', mfaPolicyId: 'mfa_policy_id' }),
  validate(p) {
    if (p.condition !== undefined) parseMfaCondition(p.condition);
  },
  async handle(ctx, p) {
    const updated = await ctx.tx.mfaPolicies.update(
      ctx.organizationId,
      p.userId,
      p.mfaPolicyId,
      {
        ...(p.mfaPolicyName !== undefined ? { name: p.mfaPolicyName } : {}),
        ...(p.condition !== undefined ? { condition: p.condition } : {}),
        ...(p.requiredAuthenticationMethods !== undefined ? { requiredMethods: p.requiredAuthenticationMethods } : {}),
        ...(p.order !== undefined ? { order: p.order } : {}),
        ...(p.notes !== undefined ? { notes: p.notes } : {}),
      },
      ctx.now,
    );
    if (!updated) throw new AppError('NOT_FOUND', `MFA policy ${p.mfaPolicyId} not found for user ${p.userId}`, { field: 'mfaPolicyId' });
    await ctx.tx.notifyChange('mfa-policy', ctx.organizationId);
    return { mfaPolicyId: p.mfaPolicyId };
  },
};
