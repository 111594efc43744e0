/** Tests for the secp256k1 EIP-191 X-Stamp verifier, driven by fixed noble vectors. */
import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { toDerSignature } from '@turnkey/crypto';
import { StampError } from '../errors.js';
import { VECTOR_BODY, encodeStampHeader, stampReasonOf, vectorBodyBytes } from '../test-vectors.js';
import { verifyApiKeyStamp } from './verify-api-key-stamp.js';
import { eip191Digest, verifySecp256k1Eip191Stamp } from './verify-secp256k1-eip191.js';

const SCHEME = 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191';
const PRIVATE_KEY = new Uint8Array(32).fill(2);
// Fixed vector: noble secp256k1 (RFC 6979) over the EIP-191 digest of VECTOR_BODY.
const PUBLIC_KEY = '024d4b6cd1361032ca9bd2aeb9d900aa4d45d9ead80ac9423374c451a7254d0766';
const R = '2b5cb999acaa2d83c4754fae7d3b2e0970188b759018aa8119df6e9ddcdae39d';
const S = '38f68bdbfc313c21bce4b88db66647493db36d0157a7e75491b4a6c5f0f490da';
const DER = `3044 0220 ${R} 0220 ${S}`.replace(/ /g, '');
const RECOVERY = 1;
const RSV = `${R}${S}${(27 + RECOVERY).toString(16)}`; // personal_sign output

const utf8 = (text: string) => new TextEncoder().encode(text);
const stampOf = (signature: string, publicKey = PUBLIC_KEY) => ({ publicKey, scheme: SCHEME, signature });


describe('eip191Digest', () => {
  it('hashes the personal_sign prefix with the decimal byte length', () => {
    // Well-known: personal_sign("hello") digest.
    expect(Buffer.from(eip191Digest(utf8('hello'))).toString('hex')).toBe(
      '50b2c43fd39106bafbba0da34fc430e1f91e3c96ea2acee2bc34119f92b37750',
    );
  });

  it('uses the UTF-8 byte length, not the string length', () => {
    const message = utf8('é'); // one UTF-16 unit, two bytes
    const expected = keccak_256(Buffer.concat([Buffer.from('\x19Ethereum Signed Message:\n2'), message]));
    expect(eip191Digest(message)).toEqual(expected);
  });
});

describe('verifySecp256k1Eip191Stamp', () => {
  it('the fixed vector is what noble produces for the fixed key', () => {
    expect(Buffer.from(secp256k1.getPublicKey(PRIVATE_KEY, true)).toString('hex')).toBe(PUBLIC_KEY);
    const der = secp256k1.sign(eip191Digest(vectorBodyBytes()), PRIVATE_KEY, { prehash: false, format: 'der' });
    expect(Buffer.from(der).toString('hex')).toBe(DER);
  });

  it('verifies a DER signature, through the X-Stamp dispatcher too', () => {
    expect(() => verifySecp256k1Eip191Stamp(stampOf(DER), vectorBodyBytes())).not.toThrow();
    const header = encodeStampHeader(stampOf(DER));
    expect(verifyApiKeyStamp(header, vectorBodyBytes()).scheme).toBe(SCHEME);
  });

  it('verifies the DER form produced by @turnkey/crypto toDerSignature from r||s||v', () => {
    const der = toDerSignature(RSV);
    expect(() => verifySecp256k1Eip191Stamp(stampOf(der), vectorBodyBytes())).not.toThrow();
  });

  it('also accepts raw r||s and r||s||v signatures', () => {
    expect(() => verifySecp256k1Eip191Stamp(stampOf(`${R}${S}`), vectorBodyBytes())).not.toThrow();
    expect(() => verifySecp256k1Eip191Stamp(stampOf(RSV), vectorBodyBytes())).not.toThrow();
  });

  it('fails over a tampered body', () => {
    expect(stampReasonOf(() => verifySecp256k1Eip191Stamp(stampOf(DER), utf8(`${VECTOR_BODY} `)))).toBe(
      'SIGNATURE_INVALID',
    );
  });

  it('fails against another key', () => {
    const other = Buffer.from(secp256k1.getPublicKey(new Uint8Array(32).fill(9), true)).toString('hex');
    expect(stampReasonOf(() => verifySecp256k1Eip191Stamp(stampOf(DER, other), vectorBodyBytes()))).toBe(
      'SIGNATURE_INVALID',
    );
  });

  it('fails for a signature over sha256 instead of the EIP-191 digest', () => {
    const der = Buffer.from(secp256k1.sign(vectorBodyBytes(), PRIVATE_KEY, { format: 'der' })).toString('hex');
    expect(stampReasonOf(() => verifySecp256k1Eip191Stamp(stampOf(der), vectorBodyBytes()))).toBe('SIGNATURE_INVALID');
  });

  it('rejects uncompressed or invalid public keys and malformed signatures', () => {
    const uncompressed = Buffer.from(secp256k1.getPublicKey(PRIVATE_KEY, false)).toString('hex');
    for (const publicKey of [uncompressed, `02${'ff'.repeat(32)}`, '02', '']) {
      expect(stampReasonOf(() => verifySecp256k1Eip191Stamp(stampOf(DER, publicKey), vectorBodyBytes()))).toBe(
        'SIGNATURE_INVALID',
      );
    }
    for (const signature of ['', '30', `${R}`, `${DER}00`, '00'.repeat(64)]) {
      expect(stampReasonOf(() => verifySecp256k1Eip191Stamp(stampOf(signature), vectorBodyBytes()))).toBe(
        'SIGNATURE_INVALID',
      );
    }
  });
});
