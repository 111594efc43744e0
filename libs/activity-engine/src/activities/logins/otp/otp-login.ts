/**
 * otp_login (V2) — exchanges a verification token for a session: the user whose e-mail or phone
 * the token proves (in this organization or, for a backend aimed at the parent, its one sub-
 * organization holding it) gets the client's key as a session key, and the session JWT. The
 * token's key must sign the login (`clientSignature`) and the token works once. The contact is
 * then verified for that user (list_verified_suborgs).
 */
import { ZOtpLoginIntentSchema, type TOtpLoginIntent, type TSessionResult, OTP_LOGIN_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { issueLoginSession } from '../../../identity/issue-session.js';
import { assertLoginFeature, resolveUserByContact } from '../../../engine/resolve-login-user.js';
import { otpFeature } from '../../../engine/resolve-login-user.js';
import { checkLoginClientSignature, checkVerificationToken, spendVerificationToken } from '../../../identity/verification-tokens.js';
import { exposeParams } from '@latchkey/policy';
import { verifiedContactOf } from '../../../engine/principal.js';

export const otpLogin: TActivityDefinition<TOtpLoginIntent, TSessionResult> = {
  ...OTP_LOGIN_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZOtpLoginIntentSchema,
  policyParams: exposeParams({ sessionProfileId: 'session_profile_id' }, { session_profile_id: '' }),
  async handle(ctx, p) {
    const claims = await checkVerificationToken(ctx, p.verificationToken);
    checkLoginClientSignature(claims, p.publicKey, p.clientSignature);
    const who = await resolveUserByContact(ctx.tx, ctx.organizationId, claims.verificationType, claims.contact);
    await assertLoginFeature(ctx.tx, who.organizationId, otpFeature(claims.verificationType));
    await spendVerificationToken(ctx, claims);
    await ctx.tx.logins.markContactVerified({ userId: who.userId, organizationId: who.organizationId, ...verifiedContactOf(claims), at: ctx.now });
    return issueLoginSession({ ...ctx, organizationId: who.organizationId }, {
      userId: who.userId,
      publicKey: p.publicKey,
      expirationSeconds: p.expirationSeconds,
      invalidateExisting: p.invalidateExisting,
      sessionProfileId: p.sessionProfileId,
    });
  },
};
