/** Tests for the X-Stamp scheme dispatcher. */
import { describe, expect, it } from 'vitest';
import { StampError } from '../errors.js';
import { P256_VECTOR, encodeStampHeader, stampReasonOf, vectorBodyBytes } from '../test-vectors.js';
import { API_KEY_STAMP_SCHEMES } from './api-key-stamp.types.js';
import { verifyApiKeyStamp } from './verify-api-key-stamp.js';


describe('verifyApiKeyStamp', () => {
  it('lists the three schemes Turnkey clients emit', () => {
    expect(API_KEY_STAMP_SCHEMES).toEqual([
      'SIGNATURE_SCHEME_TK_API_P256',
      'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
      'SIGNATURE_SCHEME_TK_API_ED25519',
    ]);
  });

  it('refuses unknown schemes with SCHEME_UNSUPPORTED, including the hash-unspecified SECP256K1', () => {
    for (const scheme of ['SIGNATURE_SCHEME_TK_API_SECP256K1', 'signature_scheme_tk_api_p256', 'RSA']) {
      const header = encodeStampHeader({ publicKey: P256_VECTOR.publicKey, scheme, signature: P256_VECTOR.signature });
      expect(stampReasonOf(() => verifyApiKeyStamp(header, vectorBodyBytes()))).toBe('SCHEME_UNSUPPORTED');
    }
  });

  it('reports a malformed header before looking at the scheme', () => {
    expect(stampReasonOf(() => verifyApiKeyStamp('%%%', vectorBodyBytes()))).toBe('STAMP_MALFORMED');
  });

  it('does not let a signature for one scheme pass as another', () => {
    const header = encodeStampHeader({
      publicKey: P256_VECTOR.publicKey,
      scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
      signature: P256_VECTOR.signature,
    });
    expect(stampReasonOf(() => verifyApiKeyStamp(header, vectorBodyBytes()))).toBe('SIGNATURE_INVALID');
  });
});
