/**
 * The older OTP flow: init_otp_auth (V3) sends a code to an existing user's e-mail or phone;
 * otp_auth checks the plain code and returns a credential bundle (a fresh P-256 API key of type
 * OTP_AUTH, 15 minutes by default, encrypted to `targetPublicKey`). Policy: AUTH / CREATE.
 */
import { AppError, ZInitOtpIntentSchema, ZOtpAuthIntentSchema, type TInitOtpIntent, type TOtpAuthIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { issueCredentialBundle } from '../sessions/issue-session.js';
import { assertLoginFeature, resolveUserByContact } from '../sessions/resolve-login-user.js';
import { otpFeature, sendOtp, useOtpCode } from './otp-flow.js';

export const initOtpAuth: TActivityDefinition<TInitOtpIntent, { otpId: string }> = {
  path: 'init_otp_auth',
  versions: [{ type: 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3', intentKey: 'initOtpAuthIntentV3', resultKey: 'initOtpAuthResultV2' }],
  resource: 'AUTH',
  action: 'CREATE',
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZInitOtpIntentSchema,
  async handle(ctx, p) {
    const who = await resolveUserByContact(ctx.tx, ctx.organizationId, p.otpType, p.contact);
    if (who.organizationId !== ctx.organizationId) {
      throw new AppError('BAD_REQUEST', `init_otp_auth must target the user's own organization (${who.organizationId})`, { organizationId: who.organizationId });
    }
    await assertLoginFeature(ctx.tx, ctx.organizationId, otpFeature(p.otpType));
    return { otpId: await sendOtp(ctx, p, { kind: 'OTP_AUTH', userId: who.userId }) };
  },
};

export const otpAuth: TActivityDefinition<TOtpAuthIntent, { userId: string; apiKeyId: string; credentialBundle: string }> = {
  path: 'otp_auth',
  versions: [{ type: 'ACTIVITY_TYPE_OTP_AUTH', intentKey: 'otpAuthIntent', resultKey: 'otpAuthResult' }],
  resource: 'AUTH',
  action: 'CREATE',
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
