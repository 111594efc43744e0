import { describe, expect, it } from 'vitest';
import { StampError } from '../errors.js';
import { generateP256KeyPair, signP256 } from '../keys/p256.js';
import { verifyAttestedStamp } from './verify-attested-stamp.js';

const body = Buffer.from('{"organizationId":"o","type":"ACTIVITY_TYPE_STAMP_LOGIN"}');
const header = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify(fields)).toString('base64url');

function attested(scheme = 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN') {
  const kp = generateP256KeyPair();
  return { kp, value: header({ publicKeyAttestation: 'token', scheme, publicKey: kp.publicKey, signature: signP256(kp.privateKey, body) }) };
}

const reasonOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(StampError);
    return (e as StampError).reason;
  }
  throw new Error('expected a StampError');
};

describe('verifyAttestedStamp', () => {
  it('returns the key and its attestation when the signature covers the body', () => {
    const { kp, value } = attested();
    expect(verifyAttestedStamp(value, body)).toEqual({
      scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN',
      publicKey: kp.publicKey,
      publicKeyAttestation: 'token',
      signature: expect.stringMatching(/^30[0-9a-f]+$/),
    });
  });

  it('refuses another body, an unknown scheme and malformed headers', () => {
    const { value } = attested();
    expect(reasonOf(() => verifyAttestedStamp(value, Buffer.from('{}')))).toBe('SIGNATURE_INVALID');
    expect(reasonOf(() => verifyAttestedStamp(attested('STAMP_ATTESTED_SCHEME_OTHER').value, body))).toBe('SCHEME_UNSUPPORTED');
    expect(reasonOf(() => verifyAttestedStamp('not base64url!', body))).toBe('STAMP_MALFORMED');
    expect(reasonOf(() => verifyAttestedStamp(header({ scheme: 'STAMP_ATTESTED_SCHEME_P256_OIDC' }), body))).toBe('STAMP_MALFORMED');
  });
});
