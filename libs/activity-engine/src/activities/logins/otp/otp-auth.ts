/**
 * The older OTP flow: init_otp_auth (V3) sends a code to an existing user's e-mail or phone;
 * otp_auth checks the plain code and returns a credential bundle (a fresh P-256 API key of type
 * OTP_AUTH, 15 minutes by default, encrypted to `targetPublicKey`).
 */
import { ZOtpAuthIntentSchema, type TOtpAuthIntent, OTP_AUTH_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { issueCredentialBundle } from '../../../identity/issue-session.js';
import { assertLoginFeature } from '../../../engine/resolve-login-user.js';
import { otpFeature } from '../../../engine/resolve-login-user.js';
import { useOtpCode } from '../../../identity/otp-flow.js';

export const otpAuth: TActivityDefinition<TOtpAuthIntent, { userId: string; apiKeyId: string; credentialBundle: string }> = {
  ...OTP_AUTH_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZOtpAuthIntentSchema,
  async handle(ctx, p) {
    const record = await useOtpCode(ctx, p.otpId, 'OTP_AUTH', () => p.otpCode);
    // Checked again at use: the flag may have been turned off since the code was sent.
    await assertLoginFeature(ctx.tx, ctx.organizationId, otpFeature(record.otpType as 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS'));
    const userId = record.userId!;
    const bundle = await issueCredentialBundle(ctx, {
      userId,
      targetPublicKey: p.targetPublicKey,
      credentialType: 'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256',
      apiKeyName: p.apiKeyName ?? `OTP Auth - ${ctx.now.getTime()}`,
      expirationSeconds: p.expirationSeconds,
      invalidateExisting: p.invalidateExisting,
    });
    return { userId, ...bundle };
  },
};
