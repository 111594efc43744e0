/**
 * init_otp (V3) — sends a one-time code to an e-mail address or phone number, for a login or a
 * sign-up (the person need not be a user yet). The answer carries a fresh HPKE target, signed by
 * the server's OTP key, that the client encrypts the code to for verify_otp (V2). A parent's
 * backend may run it for its sub-organizations. The OTP feature (FEATURE_NAME_OTP_EMAIL_AUTH or
 * _SMS_AUTH) must be on in the organization the contact's login would land in.
 */
import { createOtpEncryptionTargetBundle, generateP256KeyPair } from '@latchkey/crypto';
import { ZInitOtpIntentSchema, type TInitOtpIntent, INIT_OTP_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { withServerKey } from '../../../keys/server-keys.js';
import { assertLoginFeature, organizationsHoldingContact } from '../../../engine/resolve-login-user.js';
import { otpFeature } from '../../../engine/resolve-login-user.js';
import { sendOtp } from '../../../identity/otp-flow.js';

export const initOtp: TActivityDefinition<TInitOtpIntent, { otpId: string; otpEncryptionTargetBundle: string }> = {
  ...INIT_OTP_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZInitOtpIntentSchema,
  async handle(ctx, p) {
    // The flags that count are those of the organization the login will land in: aimed at the
    // parent, that is the sub-organization holding the contact (none holds it for a sign-up).
    const holders = await organizationsHoldingContact(ctx.tx, ctx.organizationId, p.otpType, p.contact);
    for (const organizationId of holders.length > 0 ? holders : [ctx.organizationId]) await assertLoginFeature(ctx.tx, organizationId, otpFeature(p.otpType));
    const pair = generateP256KeyPair();
    const targetPrivate = Buffer.from(pair.privateKey, 'hex');
    try {
      const otpId = await sendOtp(ctx, p, { kind: 'OTP', target: { publicKey: pair.publicKeyUncompressed, privateKey: targetPrivate } });
      const otpEncryptionTargetBundle = await withServerKey(ctx.tx, ctx.vault, 'otp_verifier', (signer) =>
        createOtpEncryptionTargetBundle({ targetPublicKeyHex: pair.publicKeyUncompressed, organizationId: ctx.organizationId, signer }),
      );
      return { otpId, otpEncryptionTargetBundle };
    } finally {
      targetPrivate.fill(0);
    }
  },
};
