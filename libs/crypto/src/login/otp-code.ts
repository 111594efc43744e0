/**
 * One-time codes for email/SMS login (`init_otp`, protocol notes §8): generation, and storage as a
 * keyed hash compared in constant time.
 *
 * Codes are either digits or Crockford base32 (`0-9 A-Z` without `I L O U`, Turnkey's
 * `alphanumeric: true` default), drawn uniformly: each character comes from one CSPRNG byte,
 * rejected when it falls in the short last partial block (so 256 mod alphabet size never biases
 * low characters). Only an HMAC of the code is stored, keyed by a per-OTP salt, so a database
 * read does not reveal live codes, and equal codes never hash equal across OTPs. Before hashing, a
 * code is upper-cased and Crockford's read-alikes are folded (`O`→`0`, `I`/`L`→`1`): those letters
 * are not in the alphabet, so this only forgives a user's misreading and never merges two codes.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Crockford base32: no I, L, O, U (too easily misread, or spelling words). */
export const CROCKFORD_BASE32_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const DIGITS = '0123456789';

export const MIN_OTP_LENGTH = 6;
export const MAX_OTP_LENGTH = 20;

/**
 * A random code of `length` characters, digits or Crockford base32.
 * @throws {RangeError} if `length` is not an integer in [6, 20].
 */
export function generateOtpCode(length: number, alphanumeric: boolean): string {
  if (!Number.isInteger(length) || length < MIN_OTP_LENGTH || length > MAX_OTP_LENGTH) {
    throw new RangeError(`length must be an integer from ${MIN_OTP_LENGTH} to ${MAX_OTP_LENGTH}, got ${length}`);
  }
  if (typeof alphanumeric !== 'boolean') {
    throw new TypeError('alphanumeric must be a boolean');
  }
  return drawCode(alphanumeric ? CROCKFORD_BASE32_ALPHABET : DIGITS, length, randomBytes);
}

/**
 * Rejection sampling of `length` characters of `alphabet` from `randomSource(n)` (n random bytes).
 * Exported for tests, which feed it chosen bytes; production passes `crypto.randomBytes`.
 */
export function drawCode(alphabet: string, length: number, randomSource: (size: number) => Uint8Array): string {
  // Bytes at or above `limit` would favour the first (256 mod n) characters: draw again.
  const limit = 256 - (256 % alphabet.length);
  let code = '';
  while (code.length < length) {
    for (const byte of randomSource(length * 2)) {
      if (byte >= limit) continue;
      code += alphabet[byte % alphabet.length];
      if (code.length === length) break;
    }
  }
  return code;
}

/** A fresh per-OTP salt (16 random bytes, hex) for {@link hashOtpCode}. */
export function generateOtpSalt(): string {
  return randomBytes(16).toString('hex');
}

/** Upper-cases and folds Crockford read-alikes; digits are unchanged. */
export function normalizeOtpCode(code: string): string {
  return code.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
}

function assertHashInputs(code: unknown, salt: unknown): asserts code is string {
  if (typeof code !== 'string') {
    throw new TypeError('code must be a string');
  }
  if (typeof salt !== 'string' || salt.length < 16) {
    throw new TypeError('salt must be a string of at least 16 characters');
  }
}

/**
 * HMAC-SHA256 of the normalised code keyed by `salt`, lowercase hex (64 characters).
 * @throws {TypeError} if `code` is not a string or `salt` is shorter than 16 characters.
 */
export function hashOtpCode(code: string, salt: string): string {
  assertHashInputs(code, salt);
  return createHmac('sha256', salt).update(normalizeOtpCode(code), 'utf8').digest('hex');
}

const STORED_HASH_RE = /^[0-9a-f]{64}$/;

/**
 * Whether `code` matches `storedHash` (from {@link hashOtpCode} with the same salt). The digests are
 * compared with `crypto.timingSafeEqual`, so timing reveals nothing about how much matched.
 * @throws {TypeError} on bad inputs, including a stored hash that is not 64 lowercase hex characters
 *   (a storage bug, not a wrong code).
 */
export function otpCodeMatches(code: string, salt: string, storedHash: string): boolean {
  assertHashInputs(code, salt);
  if (typeof storedHash !== 'string' || !STORED_HASH_RE.test(storedHash)) {
    throw new TypeError('storedHash must be 64 lowercase hex characters');
  }
  return timingSafeEqual(Buffer.from(hashOtpCode(code, salt), 'hex'), Buffer.from(storedHash, 'hex'));
}
