/**
 * create_mfa_policy — a user's MFA policy (issue 16 §3): activities of the user matching the
 * condition wait in ACTIVITY_STATUS_AUTHENTICATORS_NEEDED until the user approves them with each
 * required method in order (rules in `engine/mfa.ts`). The condition is parsed before anything is
 * written (a 400 naming `condition`); the organization's cached list is dropped on commit.
 */
import { newId } from '@latchkey/crypto';
import { CREATE_MFA_POLICY_ACTIVITY, ZCreateMfaPolicyIntentSchema, type TCreateMfaPolicyIntent, type TMfaPolicyResult } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { parseMfaCondition } from '../../engine/mfa.js';
import { assertMfaUser } from './mfa-policies-shared.js';

export const createMfaPolicy: TActivityDefinition<TCreateMfaPolicyIntent, TMfaPolicyResult> = {
  ...CREATE_MFA_POLICY_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateMfaPolicyIntentSchema,
  policyParams: exposeParams({ userId: 'user_id', mfaPolicyName: 'mfa_policy_name' }),
  validate(p) {
    parseMfaCondition(p.condition);
  },
  async handle(ctx, p) {
    await assertMfaUser(ctx, p.userId);
    const id = newId();
    await ctx.tx.mfaPolicies.create(
      { organizationId: ctx.organizationId, id, userId: p.userId, name: p.mfaPolicyName, condition: p.condition, requiredMethods: p.requiredAuthenticationMethods, order: p.order, notes: p.notes ?? '' },
      ctx.now,
    );
    await ctx.tx.notifyChange('mfa-policy', ctx.organizationId);
    return { mfaPolicyId: id };
  },
};
