/** Tests for the hashing helpers, against FIPS and @turnkey/crypto. */
import { describe, expect, it } from 'vitest';
import { computeActivityFingerprint } from '@turnkey/crypto';
import { activityFingerprint, sha256Hex } from './hash.js';
import { VECTOR_BODY, vectorBodyBytes } from './test-vectors.js';

describe('hash', () => {
  it('sha256Hex matches the FIPS 180-2 "abc" vector', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('activityFingerprint matches @turnkey/crypto computeActivityFingerprint', () => {
    expect(activityFingerprint(vectorBodyBytes())).toBe(computeActivityFingerprint(VECTOR_BODY));
    expect(activityFingerprint(vectorBodyBytes())).toBe(
      'sha256:de3b111992564747c9cfc202a2fc76629597cbbd8dea317a213e60a83d08a235',
    );
  });
});
