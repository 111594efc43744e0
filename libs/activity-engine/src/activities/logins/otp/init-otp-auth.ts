/**
 * The older OTP flow: init_otp_auth (V3) sends a code to an existing user's e-mail or phone;
 * otp_auth checks the plain code and returns a credential bundle (a fresh P-256 API key of type
 * OTP_AUTH, 15 minutes by default, encrypted to `targetPublicKey`).
 */
import { AppError, ZInitOtpIntentSchema, type TInitOtpIntent, INIT_OTP_AUTH_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { assertLoginFeature, resolveUserByContact } from '../../../engine/resolve-login-user.js';
import { otpFeature } from '../../../engine/resolve-login-user.js';
import { sendOtp } from '../../../identity/otp-flow.js';
import { exposeParams } from '@latchkey/policy';

export const initOtpAuth: TActivityDefinition<TInitOtpIntent, { otpId: string }> = {
  ...INIT_OTP_AUTH_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZInitOtpIntentSchema,
  policyParams: exposeParams({ otpLength: 'otp_length' }),
  async handle(ctx, p) {
    const who = await resolveUserByContact(ctx.tx, ctx.organizationId, p.otpType, p.contact);
    if (who.organizationId !== ctx.organizationId) {
      throw new AppError('BAD_REQUEST', `init_otp_auth must target the user's own organization (${who.organizationId})`, { organizationId: who.organizationId });
    }
    await assertLoginFeature(ctx.tx, ctx.organizationId, otpFeature(p.otpType));
    return { otpId: await sendOtp(ctx, p, { kind: 'OTP_AUTH', userId: who.userId }) };
  },
};
