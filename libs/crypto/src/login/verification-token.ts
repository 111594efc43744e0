/**
 * The OTP verification token returned by `verify_otp` / the proxy's `otp_verify` (protocol notes
 * §8), later presented to `otp_login`, `stamp_login` (as an `X-Stamp-Attested` attestation) and
 * signup.
 *
 * Unlike the session JWT this is a **standard** ES256 JWT (one SHA-256 of `header.payload`, raw
 * r‖s signature), header `{"typ":"JWT","alg":"ES256"}`. All six claims are **strings**, `exp`
 * included, in **milliseconds**: `@turnkey/crypto` `verifyOtpVerificationToken` rejects a claim
 * that is missing, empty or not a string, then compares `Number(exp)` with `Date.now()`. A stock
 * JWT library would read `exp` as seconds, so both directions are done by hand here.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeBase64Url } from '../encoding.js';
import { LoginTokenError } from './login-errors.js';
import {
  assertEs256JwtHeader,
  decodeCompactJws,
  encodeJwsPart,
  p256PublicKeyFromHex,
  p256SecretKeyFromHex,
  signDigestCompact,
  verifyDigestCompact,
} from './jws.js';

/** The contact channels an OTP can be verified over (`v1OtpType`). */
export const VERIFICATION_TYPES = ['OTP_TYPE_EMAIL', 'OTP_TYPE_SMS'] as const;
export type TVerificationType = (typeof VERIFICATION_TYPES)[number];

/** A verification token's content, camelCase; `expiresAtMs` is the `exp` claim. */
export type TVerificationTokenClaims = {
  /** Token id (a uuid): what client signatures name as `tokenId`, and the key for single use. */
  id: string;
  verificationType: TVerificationType;
  /** The verified email address or phone number. */
  contact: string;
  /** The organization the OTP was initiated in (typically the parent). */
  organizationId: string;
  /** The client key bound at verification (compressed P-256 hex): it must sign the later usage. */
  publicKey: string;
  /** Expiry, epoch milliseconds. */
  expiresAtMs: number;
};

const TOKEN = 'verification token';

function isVerificationType(value: unknown): value is TVerificationType {
  return typeof value === 'string' && (VERIFICATION_TYPES as readonly string[]).includes(value);
}

function assertClaimsToSign(claims: TVerificationTokenClaims): void {
  if (typeof claims !== 'object' || claims === null) {
    throw new TypeError('claims must be an object');
  }
  for (const name of ['id', 'contact', 'organizationId'] as const) {
    if (typeof claims[name] !== 'string' || claims[name].length === 0) {
      throw new TypeError(`claims.${name} must be a non-empty string`);
    }
  }
  if (!isVerificationType(claims.verificationType)) {
    throw new TypeError(`claims.verificationType must be one of ${VERIFICATION_TYPES.join(', ')}`);
  }
  p256PublicKeyFromHex(claims.publicKey, 'claims.publicKey');
  if (!Number.isSafeInteger(claims.expiresAtMs) || claims.expiresAtMs <= 0) {
    throw new TypeError('claims.expiresAtMs must be a positive integer (epoch milliseconds)');
  }
}

/**
 * Signs a verification token.
 * @throws {TypeError} if a claim is missing or mistyped, `publicKey` is not a P-256 point, or the
 *   private key is not 32-byte P-256 hex.
 */
export function signVerificationToken(claims: TVerificationTokenClaims, privateKeyHex: string): string {
  assertClaimsToSign(claims);
  const secretKey = p256SecretKeyFromHex(privateKeyHex, 'privateKeyHex');
  // Claim order: the order @turnkey/crypto lists them in (REQUIRED_VERIFICATION_TOKEN_CLAIMS).
  const payload = {
    id: claims.id,
    verification_type: claims.verificationType,
    contact: claims.contact,
    organization_id: claims.organizationId,
    public_key: claims.publicKey,
    exp: String(claims.expiresAtMs),
  };
  const signingInput = `${encodeJwsPart({ typ: 'JWT', alg: 'ES256' })}.${encodeJwsPart(payload)}`;
  try {
    const digest = sha256(new TextEncoder().encode(signingInput));
    return `${signingInput}.${encodeBase64Url(signDigestCompact(digest, secretKey))}`;
  } finally {
    secretKey.fill(0);
  }
}

function requiredString(payload: Record<string, unknown>, name: string): string {
  const value = payload[name];
  if (typeof value !== 'string' || value.length === 0) {
    throw new LoginTokenError('MISSING_CLAIM', `${TOKEN} claim "${name}" must be a non-empty string`);
  }
  return value;
}

/**
 * Verifies a verification token: header, signature (with `publicKeyHex`, either SEC1 form), the six
 * string claims, and expiry against `nowMs` (expired when `exp < nowMs`, as in `@turnkey/crypto`).
 * Single use is the caller's business (record `id`).
 * @throws {LoginTokenError} MALFORMED, UNSUPPORTED_HEADER, BAD_SIGNATURE, MISSING_CLAIM (also for an
 *   unknown verification_type or a non-numeric exp), EXPIRED.
 * @throws {TypeError} if `publicKeyHex` is not a P-256 public key or `nowMs` is not a number.
 */
export function verifyVerificationToken(jwt: string, publicKeyHex: string, nowMs: number): TVerificationTokenClaims {
  const publicKey = p256PublicKeyFromHex(publicKeyHex, 'publicKeyHex');
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) {
    throw new TypeError('nowMs must be a finite number (epoch milliseconds)');
  }
  const { header, payload, signature, signingInput } = decodeCompactJws(jwt, TOKEN);
  assertEs256JwtHeader(header, TOKEN);
  if (!verifyDigestCompact(signature, sha256(new TextEncoder().encode(signingInput)), publicKey)) {
    throw new LoginTokenError('BAD_SIGNATURE', `${TOKEN} signature does not verify`);
  }
  const id = requiredString(payload, 'id');
  const verificationType = requiredString(payload, 'verification_type');
  const contact = requiredString(payload, 'contact');
  const organizationId = requiredString(payload, 'organization_id');
  const publicKeyClaim = requiredString(payload, 'public_key');
  const exp = requiredString(payload, 'exp');
  if (!isVerificationType(verificationType)) {
    throw new LoginTokenError('MISSING_CLAIM', `${TOKEN} claim "verification_type" is not one of ${VERIFICATION_TYPES.join(', ')}`);
  }
  // Digits only: Number() would also take " 1e3", "0x10" or "Infinity".
  const expiresAtMs = /^\d{1,16}$/.test(exp) ? Number(exp) : Number.NaN;
  if (!Number.isSafeInteger(expiresAtMs)) {
    throw new LoginTokenError('MISSING_CLAIM', `${TOKEN} claim "exp" must be a string of epoch milliseconds`);
  }
  if (expiresAtMs < nowMs) {
    throw new LoginTokenError('EXPIRED', `${TOKEN} ${id} expired at ${new Date(expiresAtMs).toISOString()}`);
  }
  return { id, verificationType, contact, organizationId, publicKey: publicKeyClaim, expiresAtMs };
}
