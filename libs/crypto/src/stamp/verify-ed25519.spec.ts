/** Tests for the Ed25519 X-Stamp verifier: RFC 8032 and fixed noble vectors. */
import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { StampError } from '../errors.js';
import { VECTOR_BODY, encodeStampHeader, stampReasonOf, vectorBodyBytes } from '../test-vectors.js';
import { verifyApiKeyStamp } from './verify-api-key-stamp.js';
import { verifyEd25519Stamp } from './verify-ed25519.js';

const SCHEME = 'SIGNATURE_SCHEME_TK_API_ED25519';
const PRIVATE_KEY = new Uint8Array(32).fill(3);
// Fixed vector: Ed25519 (deterministic) over VECTOR_BODY with the seed above.
const PUBLIC_KEY = 'ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1';
const SIGNATURE =
  '11faa8f7ce729d73e6a8dd3119c8da27f96d49896877975f4eb1fa33bda759057a50e87125c8ed46eaafb27f54e33c19087a124a81e834b81a1db267d089c000';

// RFC 8032 §7.1, TEST 2 (one-byte message 0x72).
const RFC8032_TEST2 = {
  secretKey: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
  publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
  message: new Uint8Array([0x72]),
  signature:
    '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
};

const utf8 = (text: string) => new TextEncoder().encode(text);
const stampOf = (signature: string, publicKey = PUBLIC_KEY) => ({ publicKey, scheme: SCHEME, signature });


describe('verifyEd25519Stamp', () => {
  it('the fixed vector is what noble produces for the fixed key', () => {
    expect(Buffer.from(ed25519.getPublicKey(PRIVATE_KEY)).toString('hex')).toBe(PUBLIC_KEY);
    expect(Buffer.from(ed25519.sign(vectorBodyBytes(), PRIVATE_KEY)).toString('hex')).toBe(SIGNATURE);
  });

  it('verifies the RFC 8032 test vector', () => {
    const secretKey = Buffer.from(RFC8032_TEST2.secretKey, 'hex');
    expect(Buffer.from(ed25519.getPublicKey(secretKey)).toString('hex')).toBe(RFC8032_TEST2.publicKey);
    expect(Buffer.from(ed25519.sign(RFC8032_TEST2.message, secretKey)).toString('hex')).toBe(RFC8032_TEST2.signature);
    expect(() =>
      verifyEd25519Stamp(stampOf(RFC8032_TEST2.signature, RFC8032_TEST2.publicKey), RFC8032_TEST2.message),
    ).not.toThrow();
  });

  it('verifies the fixed vector, through the X-Stamp dispatcher too', () => {
    expect(() => verifyEd25519Stamp(stampOf(SIGNATURE), vectorBodyBytes())).not.toThrow();
    expect(verifyApiKeyStamp(encodeStampHeader(stampOf(SIGNATURE)), vectorBodyBytes()).publicKey).toBe(PUBLIC_KEY);
  });

  it('accepts uppercase hex', () => {
    const header = encodeStampHeader(stampOf(SIGNATURE.toUpperCase(), PUBLIC_KEY.toUpperCase()));
    expect(verifyApiKeyStamp(header, vectorBodyBytes()).publicKey).toBe(PUBLIC_KEY);
  });

  it('fails over a tampered body', () => {
    expect(stampReasonOf(() => verifyEd25519Stamp(stampOf(SIGNATURE), utf8(VECTOR_BODY.replace('org-123', 'org-124'))))).toBe(
      'SIGNATURE_INVALID',
    );
  });

  it('fails against another key', () => {
    const other = Buffer.from(ed25519.getPublicKey(new Uint8Array(32).fill(4))).toString('hex');
    expect(stampReasonOf(() => verifyEd25519Stamp(stampOf(SIGNATURE, other), vectorBodyBytes()))).toBe('SIGNATURE_INVALID');
  });

  it('rejects wrong sizes and a non-canonical S', () => {
    expect(stampReasonOf(() => verifyEd25519Stamp(stampOf(SIGNATURE, `${PUBLIC_KEY}00`), vectorBodyBytes()))).toBe(
      'SIGNATURE_INVALID',
    );
    expect(stampReasonOf(() => verifyEd25519Stamp(stampOf(SIGNATURE.slice(0, 126)), vectorBodyBytes()))).toBe(
      'SIGNATURE_INVALID',
    );
    // S + L (the group order) is the same scalar mod L; RFC 8032 requires S < L.
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    const sLe = Buffer.from(SIGNATURE.slice(64), 'hex').reverse();
    const sPlusL = BigInt(`0x${sLe.toString('hex')}`) + L;
    if (sPlusL < 2n ** 256n) {
      const bumped = Buffer.from(sPlusL.toString(16).padStart(64, '0'), 'hex').reverse().toString('hex');
      expect(stampReasonOf(() => verifyEd25519Stamp(stampOf(`${SIGNATURE.slice(0, 64)}${bumped}`), vectorBodyBytes()))).toBe(
        'SIGNATURE_INVALID',
      );
    }
  });
});
