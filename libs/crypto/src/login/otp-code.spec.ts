/** Tests for OTP codes: shape and uniformity of generation, and the keyed hash comparison. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CROCKFORD_BASE32_ALPHABET,
  MAX_OTP_LENGTH,
  MIN_OTP_LENGTH,
  drawCode,
  generateOtpCode,
  generateOtpSalt,
  hashOtpCode,
  normalizeOtpCode,
  otpCodeMatches,
} from './otp-code.js';

const SALT = 'c0ffee00c0ffee00c0ffee00c0ffee00';

describe('generateOtpCode', () => {
  it('has 32 distinct Crockford characters, none of I L O U', () => {
    expect(new Set(CROCKFORD_BASE32_ALPHABET).size).toBe(32);
    expect(CROCKFORD_BASE32_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it('property: a code has the asked length and only characters of its alphabet', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_OTP_LENGTH, max: MAX_OTP_LENGTH }), fc.boolean(), (length, alphanumeric) => {
        const code = generateOtpCode(length, alphanumeric);
        expect(code).toHaveLength(length);
        expect(code).toMatch(alphanumeric ? /^[0-9A-HJKMNP-TV-Z]+$/ : /^[0-9]+$/);
      }),
      { numRuns: 200 },
    );
  });

  it.each([5, 21, 0, -6, 6.5, Number.NaN])('refuses length %s', (length) => {
    expect(() => generateOtpCode(length, true)).toThrow(RangeError);
  });

  it('refuses a non-boolean alphanumeric flag', () => {
    expect(() => generateOtpCode(6, 'yes' as unknown as boolean)).toThrow(TypeError);
  });

  it('rejects the bytes that would bias the draw (250-255 for digits) and uses every other byte', () => {
    // First call: only biased bytes, then 0..9 and 249 (= 9 mod 10); 256 % 32 = 0, so nothing is rejected for base32.
    const batches = [[250, 251, 252, 253, 254, 255], [0, 1, 2, 3, 4, 5, 6, 7, 8, 249, 9, 9]];
    let call = 0;
    const source = (size: number): Uint8Array => new Uint8Array(batches[call++] ?? new Array<number>(size).fill(0));
    expect(drawCode('0123456789', 10, source)).toBe('0123456789');
    expect(call).toBe(2);
    expect(drawCode(CROCKFORD_BASE32_ALPHABET, 6, () => new Uint8Array([255, 224, 31, 32, 0, 10]))).toBe('Z0Z00A');
  });

  // Loose bounds (about 7 standard deviations) so the test is not flaky; it catches a stuck,
  // missing or grossly over-drawn character. The fine-grained bias is covered by the test above.
  it.each([
    [false, 10],
    [true, 32],
  ])('draws characters uniformly (alphanumeric=%s)', (alphanumeric, size) => {
    const counts = new Map<string, number>();
    const draws = 32000;
    for (let i = 0; i < draws / 20; i++) {
      for (const ch of generateOtpCode(20, alphanumeric)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(counts.size).toBe(size);
    const expected = draws / size;
    const sigma = Math.sqrt(draws * (1 / size) * (1 - 1 / size));
    for (const count of counts.values()) {
      expect(Math.abs(count - expected)).toBeLessThan(7 * sigma);
    }
  });

  it('does not repeat (256 fresh 9-character codes are distinct)', () => {
    const codes = new Set(Array.from({ length: 256 }, () => generateOtpCode(9, true)));
    expect(codes.size).toBe(256);
  });
});

describe('hashOtpCode / otpCodeMatches', () => {
  it('is HMAC-SHA256 hex, keyed by the salt', () => {
    const hash = hashOtpCode('123456', SALT);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOtpCode('123456', SALT)).toBe(hash);
    expect(hashOtpCode('123456', generateOtpSalt())).not.toBe(hash);
  });

  it('property: a generated code matches its own hash, case-insensitively', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_OTP_LENGTH, max: MAX_OTP_LENGTH }), fc.boolean(), (length, alphanumeric) => {
        const code = generateOtpCode(length, alphanumeric);
        const salt = generateOtpSalt();
        const stored = hashOtpCode(code, salt);
        expect(otpCodeMatches(code, salt, stored)).toBe(true);
        expect(otpCodeMatches(code.toLowerCase(), salt, stored)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('property: codes that differ after normalisation never match', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), fc.string({ maxLength: 24 }), (a, b) => {
        fc.pre(normalizeOtpCode(a) !== normalizeOtpCode(b));
        expect(otpCodeMatches(b, SALT, hashOtpCode(a, SALT))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('folds Crockford read-alikes (O→0, I/L→1), which are not in the alphabet', () => {
    const stored = hashOtpCode('10X0Y1', SALT);
    expect(otpCodeMatches('lOxoyI', SALT, stored)).toBe(true);
    expect(otpCodeMatches('10X0Y2', SALT, stored)).toBe(false);
    expect(normalizeOtpCode('abc-o-i-l')).toBe('ABC-0-1-1');
  });

  it('does not match under another salt', () => {
    expect(otpCodeMatches('123456', generateOtpSalt(), hashOtpCode('123456', SALT))).toBe(false);
  });

  it('refuses a short salt, a non-string code and a malformed stored hash', () => {
    expect(() => hashOtpCode('123456', 'short')).toThrow(/salt/);
    expect(() => hashOtpCode(123456 as unknown as string, SALT)).toThrow(/code/);
    expect(() => otpCodeMatches('123456', SALT, 'ab')).toThrow(/storedHash/);
    expect(() => otpCodeMatches('123456', SALT, hashOtpCode('123456', SALT).toUpperCase())).toThrow(/storedHash/);
  });

  it('makes 32-character hex salts', () => {
    const salt = generateOtpSalt();
    expect(salt).toMatch(/^[0-9a-f]{32}$/);
    expect(generateOtpSalt()).not.toBe(salt);
  });
});
