/**
 * delete_mfa_policy — removes one of a user's MFA policies. Activities already waiting keep the
 * steps they were submitted under (their initiator can still complete or cancel them).
 */
import { AppError, DELETE_MFA_POLICY_ACTIVITY, ZDeleteMfaPolicyIntentSchema, type TDeleteMfaPolicyIntent, type TMfaPolicyResult } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const deleteMfaPolicy: TActivityDefinition<TDeleteMfaPolicyIntent, TMfaPolicyResult> = {
  ...DELETE_MFA_POLICY_ACTIVITY,
  onFailure: 'reject',
  params: ZDeleteMfaPolicyIntentSchema,
  policyParams: exposeParams({ userId: 'user_id', mfaPolicyId: 'mfa_policy_id' }),
  async handle(ctx, p) {
    if (!(await ctx.tx.mfaPolicies.delete(ctx.organizationId, p.userId, p.mfaPolicyId))) {
      throw new AppError('NOT_FOUND', `MFA policy ${p.mfaPolicyId} not found for user ${p.userId}`, { field: 'mfaPolicyId' });
    }
    await ctx.tx.notifyChange('mfa-policy', ctx.organizationId);
    return { mfaPolicyId: p.mfaPolicyId };
  },
};
