/**
 * verify_otp (V2: the code HPKE-encrypted to init_otp's target together with the client's public
 * key; V1: the plain code and an optional public key) — checks the code and returns a verification
 * token (ES256, the server's OTP key) binding the contact to that public key, for otp_login or a
 * sign-up.
 */
import { BundleError, newId, openEncryptedOtpBundle } from '@latchkey/crypto';
import { AppError, VERIFICATION_TOKEN_DEFAULTS, ZVerifyOtpIntentSchema, type TVerifyOtpIntent, VERIFY_OTP_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { otpTargetAad } from '../../../keys/vault-aad.js';
import { useOtpCode } from '../../../identity/otp-flow.js';
import { issueVerificationToken } from '../../../identity/verification-tokens.js';

export const verifyOtp: TActivityDefinition<TVerifyOtpIntent, { verificationToken: string }> = {
  ...VERIFY_OTP_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZVerifyOtpIntentSchema,
  async handle(ctx, p) {
    let publicKey = p.publicKey ?? '';
    const record = await useOtpCode(ctx, p.otpId, 'OTP', async (r) => {
      if (p.otpCode !== undefined) return p.otpCode;
      if (!r.sealedTargetPrivateKey) throw new AppError('BAD_REQUEST', 'this OTP has no encryption target; send otpCode instead', { field: 'encryptedOtpBundle' });
      const target = ctx.vault.open(r.sealedTargetPrivateKey, otpTargetAad(r.id));
      try {
        const opened = await openEncryptedOtpBundle(p.encryptedOtpBundle!, target);
        publicKey = opened.publicKey;
        return opened.otpCode;
      } catch (e) {
        if (e instanceof BundleError) throw new AppError('BAD_REQUEST', `encryptedOtpBundle: ${e.message}`, { field: 'encryptedOtpBundle' });
        throw e;
      } finally {
        target.fill(0);
      }
    });
    const seconds = p.expirationSeconds ? Number(p.expirationSeconds) : VERIFICATION_TOKEN_DEFAULTS.expirationSeconds;
    const verificationToken = await issueVerificationToken(ctx, {
      id: newId(),
      verificationType: record.otpType as 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS',
      contact: record.contact,
      organizationId: ctx.organizationId,
      publicKey,
      expiresAtMs: ctx.now.getTime() + seconds * 1000,
    });
    return { verificationToken };
  },
};
