/**
 * What the OTP activities share: sending a code (generated, stored salted and hashed, never
 * logged, delivered by e-mail or SMS with the caller's customization) and checking one (attempts
 * counted outside the activity's transaction so a wrong guess still counts, expiry, single use,
 * constant-time comparison). Limits: LIMITS below; exceeding one is a 429 naming it.
 */
import { generateOtpCode, generateOtpSalt, hashOtpCode, newId, otpCodeMatches } from '@latchkey/crypto';
import { AppError, OTP_DEFAULTS, type TInitOtpIntent } from '@latchkey/domain';
import type { OtpRecord } from '@latchkey/persistence';
import { senderFields } from './sender-fields.js';
import { sendEmail } from './email-events.js';
import type { TActivityContext } from '../engine/activity-definition.js';
import { otpTargetAad } from '../keys/vault-aad.js';

export const OTP_LIMITS = {
  /** Verification attempts per code. */
  attemptsPerOtp: 5,
  /** Codes sent to one contact per window, across organizations. */
  sendsPerContact: 5,
  contactWindowMs: 10 * 60_000,
} as const;

/**
 * Creates an OTP record and sends its code. @returns the record id
 * @throws AppError 429 when the contact was sent too many codes lately; 503 when delivery fails
 */
export async function sendOtp(
  ctx: TActivityContext,
  p: TInitOtpIntent,
  record: { kind: 'OTP' | 'OTP_AUTH'; userId?: string; target?: { publicKey: string; privateKey: Uint8Array } },
): Promise<string> {
  const contact = p.otpType === 'OTP_TYPE_EMAIL' ? p.contact.toLowerCase() : p.contact;
  const recent = await ctx.tx.logins.countOtpsSince(contact, new Date(ctx.now.getTime() - OTP_LIMITS.contactWindowMs));
  if (recent >= OTP_LIMITS.sendsPerContact) {
    throw new AppError(
      'RATE_LIMITED',
      // `Max number of OTPs have been initiated`: @turnkey/core maps the error by this substring (notes §A1).
      `Max number of OTPs have been initiated: too many codes sent to this contact, at most ${OTP_LIMITS.sendsPerContact} per ${OTP_LIMITS.contactWindowMs / 60_000} minutes`,
      { limit: OTP_LIMITS.sendsPerContact, windowSeconds: OTP_LIMITS.contactWindowMs / 1000 },
    );
  }
  const otpId = newId();
  const code = generateOtpCode(p.otpLength, p.alphanumeric);
  const salt = generateOtpSalt();
  const seconds = p.expirationSeconds ? Number(p.expirationSeconds) : OTP_DEFAULTS.expirationSeconds;
  await ctx.tx.logins.createOtp({
    id: otpId,
    organizationId: ctx.organizationId,
    kind: record.kind,
    otpType: p.otpType,
    contact,
    codeHash: hashOtpCode(code, salt),
    codeSalt: salt,
    userId: record.userId ?? null,
    targetPublicKey: record.target?.publicKey ?? null,
    sealedTargetPrivateKey: record.target ? ctx.vault.seal(record.target.privateKey, otpTargetAad(otpId)) : null,
    expiresAt: new Date(ctx.now.getTime() + seconds * 1000),
  });
  if (p.otpType === 'OTP_TYPE_EMAIL') {
    await sendEmail(ctx, p.contact, () =>
      ctx.services.messages.otpEmail(p.contact, {
        appName: p.appName,
        code,
        expiresInSeconds: seconds,
        ...(p.emailCustomization ? { emailCustomization: p.emailCustomization } : {}),
        ...(p.userIdentifier ? { userIdentifier: p.userIdentifier } : {}),
        ...senderFields(p),
      }),
    );
  } else {
    await ctx.services.messages.otpSms(p.contact, { appName: p.appName, code, expiresInSeconds: seconds, ...(p.smsCustomization ? { smsCustomization: p.smsCustomization } : {}) });
  }
  return otpId;
}

/**
 * Checks a code against its record and uses it up.
 * @throws AppError 404 (unknown), 429 (attempts used up), 400 (wrong, expired or used code)
 */
export async function useOtpCode(ctx: TActivityContext, otpId: string, kind: 'OTP' | 'OTP_AUTH', code: (record: OtpRecord) => Promise<string> | string): Promise<OtpRecord> {
  const record = await ctx.tx.logins.findOtp(ctx.organizationId, otpId);
  if (!record || record.kind !== kind) throw new AppError('NOT_FOUND', `OTP not found: ${otpId}`, { otpId });
  if (record.usedAt) throw new AppError('BAD_REQUEST', 'this code was already used; request a new one', { otpId });
  if (record.expiresAt.getTime() <= ctx.now.getTime()) throw new AppError('BAD_REQUEST', 'this code has expired; request a new one', { otpId });
  // Counted on the pool, not in this transaction: a wrong guess must count even though it fails the activity.
  if (!(await ctx.detached.logins.claimOtpAttempt(ctx.organizationId, otpId, OTP_LIMITS.attemptsPerOtp))) {
    throw new AppError('RATE_LIMITED', `too many attempts for this code: at most ${OTP_LIMITS.attemptsPerOtp}; request a new one`, { limit: OTP_LIMITS.attemptsPerOtp, otpId });
  }
  const given = await code(record);
  // `Invalid OTP code` exactly: @turnkey/core maps the error by this substring (notes §A1).
  if (!otpCodeMatches(given, record.codeSalt, record.codeHash)) throw new AppError('BAD_REQUEST', 'Invalid OTP code', { otpId });
  if (!(await ctx.tx.logins.useOtp(record.id, ctx.now))) throw new AppError('BAD_REQUEST', 'this code was already used; request a new one', { otpId });
  return record;
}
