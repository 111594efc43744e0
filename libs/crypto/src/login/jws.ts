/**
 * Compact ES256 JWS helpers shared by the session JWT and the OTP verification token (internal to
 * `login/`, not re-exported).
 *
 * Two Turnkey quirks shape the encoder:
 * - `@turnkey/core` reads token payloads with a bare `atob(payload)` (`parseSession`,
 *   `decodeVerificationToken`), which throws on the base64url characters `-` and `_`. For ASCII
 *   text those appear only where a byte at offset 2 mod 3 is `>`, `?`, `~` or DEL (its low six bits
 *   are 62/63); non-ASCII bytes can produce them anywhere. So the JSON is written with those
 *   characters and everything non-ASCII as `\uXXXX` escapes: the same JSON value, and a base64url
 *   string that is also valid standard base64 without padding, which `atob` accepts.
 * - The signature is raw r‖s (64 bytes), as JWS ES256 requires, and low-S: Turnkey's verifier
 *   (noble with `lowS: false`) accepts both halves, a stricter one might not.
 */
import { p256 } from '@noble/curves/nist.js';
import { decodeBase64Any, decodeHex, decodeUtf8, encodeBase64Url } from '../encoding.js';
import { LoginTokenError } from './login-errors.js';

/** Bound on a token's length; real ones are well under 1 KiB. */
export const MAX_JWT_LENGTH = 8192;

const BASE64URL_RE = /^[A-Za-z0-9_-]+$/;
// Characters that could make the payload's base64url contain '-' or '_' (see the header).
const ATOB_UNSAFE_RE = /[\u007f-\uffff<>&?~]/g;

/** `JSON.stringify(value)`, with `>`, `?`, `~` (atob), `<`, `&` (HTML-safe, as Turnkey writes them), DEL and every non-ASCII code unit escaped. */
export function atobSafeJson(value: object): string {
  return JSON.stringify(value).replace(ATOB_UNSAFE_RE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** base64url (no padding) of the atob-safe JSON of `value`: one JWS header or payload part. */
export function encodeJwsPart(value: object): string {
  return encodeBase64Url(new TextEncoder().encode(atobSafeJson(value)));
}

export type TDecodedJws = {
  /** `header.payload`, the exact text that was signed. */
  signingInput: string;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** The third part, decoded (not yet checked for length). */
  signature: Uint8Array;
};

function malformed(tokenName: string, detail: string): LoginTokenError {
  return new LoginTokenError('MALFORMED', `${tokenName} is malformed: ${detail}`);
}

function decodeJsonPart(part: string, tokenName: string, partName: string): Record<string, unknown> {
  const bytes = BASE64URL_RE.test(part) ? decodeBase64Any(part) : undefined;
  const text = bytes ? decodeUtf8(bytes) : undefined;
  let value: unknown;
  try {
    value = text === undefined ? undefined : JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw malformed(tokenName, `the ${partName} is not base64url of a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Splits and decodes a compact JWS without verifying it.
 * @throws {LoginTokenError} MALFORMED if it is not a string of three base64url parts whose first two
 *   are JSON objects.
 */
export function decodeCompactJws(jwt: unknown, tokenName: string): TDecodedJws {
  if (typeof jwt !== 'string' || jwt.length === 0) {
    throw malformed(tokenName, 'expected a non-empty string');
  }
  if (jwt.length > MAX_JWT_LENGTH) {
    throw malformed(tokenName, `longer than ${MAX_JWT_LENGTH} characters`);
  }
  const parts = jwt.split('.');
  if (parts.length !== 3) {
    throw malformed(tokenName, `expected 3 dot-separated parts, got ${parts.length}`);
  }
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJsonPart(headerPart, tokenName, 'header');
  const payload = decodeJsonPart(payloadPart, tokenName, 'payload');
  const signature = BASE64URL_RE.test(signaturePart) ? decodeBase64Any(signaturePart) : undefined;
  if (!signature) {
    throw malformed(tokenName, 'the signature is not base64url');
  }
  return { signingInput: `${headerPart}.${payloadPart}`, header, payload, signature };
}

/**
 * Checks the JOSE header pins ES256 / JWT, as `@turnkey/crypto` does before trusting a token.
 * @throws {LoginTokenError} UNSUPPORTED_HEADER
 */
export function assertEs256JwtHeader(header: Record<string, unknown>, tokenName: string): void {
  if (header['alg'] !== 'ES256') {
    throw new LoginTokenError('UNSUPPORTED_HEADER', `${tokenName} has alg ${JSON.stringify(header['alg'])}, expected "ES256"`);
  }
  if (header['typ'] !== 'JWT') {
    throw new LoginTokenError('UNSUPPORTED_HEADER', `${tokenName} has typ ${JSON.stringify(header['typ'])}, expected "JWT"`);
  }
}

/**
 * Decodes a 32-byte P-256 private key from hex (the server's signing keys are configured so).
 * @throws {TypeError} naming `field`, without echoing the value.
 */
export function p256SecretKeyFromHex(value: unknown, field: string): Uint8Array {
  const bytes = typeof value === 'string' ? decodeHex(value) : undefined;
  if (!bytes || bytes.length !== 32 || !p256.utils.isValidSecretKey(bytes)) {
    throw new TypeError(`${field} must be a 32-byte P-256 private key in hex`);
  }
  return bytes;
}

/**
 * Decodes hex of a SEC1 P-256 public key, compressed or uncompressed, and checks the point.
 * @throws {TypeError} naming `field`.
 */
export function p256PublicKeyFromHex(value: unknown, field: string): Uint8Array {
  const bytes = typeof value === 'string' ? decodeHex(value) : undefined;
  if (!bytes || (bytes.length !== 33 && bytes.length !== 65)) {
    throw new TypeError(`${field} must be a 33- or 65-byte SEC1 P-256 public key in hex`);
  }
  try {
    p256.Point.fromBytes(bytes);
  } catch {
    throw new TypeError(`${field} is not a point on P-256`);
  }
  return bytes;
}

/** ECDSA P-256 over an already-computed 32-byte digest: raw r‖s, low-S, RFC 6979. */
export function signDigestCompact(digest: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return p256.sign(digest, secretKey, { prehash: false, lowS: true, format: 'compact' });
}

/** Verifies a raw r‖s signature over a 32-byte digest; either S half is accepted, as Turnkey does. */
export function verifyDigestCompact(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return p256.verify(signature, digest, publicKey, { prehash: false, lowS: false, format: 'compact' });
  } catch {
    return false;
  }
}
