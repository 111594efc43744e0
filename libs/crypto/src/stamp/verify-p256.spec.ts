/** Tests for the P-256 X-Stamp verifier: the protocol-notes vector, high-S, and real api-key-stamper output. */
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { verifyStampSignature } from '@turnkey/crypto';
import { StampError } from '../errors.js';
import { generateP256KeyPair, signP256 } from '../keys/p256.js';
import { P256_VECTOR, VECTOR_BODY, vectorBodyBytes } from '../test-vectors.js';
import { parseStampHeader } from './parse-stamp-header.js';
import { verifyApiKeyStamp } from './verify-api-key-stamp.js';
import { verifyP256Stamp } from './verify-p256.js';

const SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';
const utf8 = (text: string) => new TextEncoder().encode(text);

function expectStampError(fn: () => unknown, reason: StampError['reason']): StampError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StampError);
    expect((error as StampError).reason).toBe(reason);
    return error as StampError;
  }
  throw new Error('expected a StampError');
}

/** The same signature with S replaced by n - S: still valid ECDSA, opposite S half. */
function flipS(derHex: string): { der: string; s: bigint } {
  const sig = p256.Signature.fromBytes(Buffer.from(derHex, 'hex'), 'der');
  const flipped = new p256.Signature(sig.r, p256.Point.Fn.ORDER - sig.s);
  return { der: Buffer.from(flipped.toBytes('der')).toString('hex'), s: flipped.s };
}

describe('verifyP256Stamp', () => {
  it('verifies the protocol-notes vector header', () => {
    const stamp = verifyApiKeyStamp(P256_VECTOR.header, vectorBodyBytes());
    expect(stamp).toEqual({
      publicKey: P256_VECTOR.publicKey,
      scheme: SCHEME,
      signature: P256_VECTOR.signature,
    });
  });

  it('reproduces the vector signature (RFC 6979, purejs runtime)', () => {
    expect(signP256(P256_VECTOR.privateKey, vectorBodyBytes())).toBe(P256_VECTOR.signature);
  });

  it('rejects the vector header over a tampered body', () => {
    const tampered = utf8(VECTOR_BODY.replace('"w"', '"x"'));
    const error = expectStampError(() => verifyApiKeyStamp(P256_VECTOR.header, tampered), 'SIGNATURE_INVALID');
    expect(error.message).toContain(P256_VECTOR.publicKey);
    expect(error.message).not.toContain(P256_VECTOR.signature);
  });

  it('rejects a body with one extra trailing byte (no re-serialisation tolerance)', () => {
    expectStampError(() => verifyApiKeyStamp(P256_VECTOR.header, utf8(`${VECTOR_BODY} `)), 'SIGNATURE_INVALID');
  });

  it('accepts a high-S signature', () => {
    const { der, s } = flipS(P256_VECTOR.signature);
    expect(s > p256.Point.Fn.ORDER / 2n).toBe(true);
    const stamp = { publicKey: P256_VECTOR.publicKey, scheme: SCHEME, signature: der };
    expect(() => verifyP256Stamp(stamp, vectorBodyBytes())).not.toThrow();
  });

  it('accepts signatures from Node’s own signer, whichever S half they have', () => {
    const keys = generateP256KeyPair();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const jwk = privateKey.export({ format: 'jwk' });
    const publicKey = p256.Point.fromAffine({
      x: BigInt(`0x${Buffer.from(jwk.x!, 'base64url').toString('hex')}`),
      y: BigInt(`0x${Buffer.from(jwk.y!, 'base64url').toString('hex')}`),
    }).toHex(true);
    for (let i = 0; i < 20; i += 1) {
      const body = utf8(`{"n":${i}}`);
      const signature = sign('sha256', body, privateKey).toString('hex');
      expect(() => verifyP256Stamp({ publicKey, scheme: SCHEME, signature }, body)).not.toThrow();
    }
    // And our own signer, for a fresh key.
    const body = utf8('{}');
    const signature = signP256(keys.privateKey, body);
    expect(() => verifyP256Stamp({ publicKey: keys.publicKey, scheme: SCHEME, signature }, body)).not.toThrow();
  });

  it('verifies stamps produced by the real @turnkey/api-key-stamper (node and purejs runtimes)', async () => {
    const keys = generateP256KeyPair();
    for (const runtimeOverride of ['node', 'purejs'] as const) {
      const stamper = new ApiKeyStamper({
        apiPublicKey: keys.publicKey,
        apiPrivateKey: keys.privateKey,
        runtimeOverride,
      });
      const body = JSON.stringify({ organizationId: 'org', timestampMs: String(Date.now()), runtimeOverride });
      const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
      expect(stampHeaderName).toBe('X-Stamp');
      const stamp = verifyApiKeyStamp(stampHeaderValue, utf8(body));
      expect(stamp.publicKey).toBe(keys.publicKey);
      // Cross-check the other direction: Turnkey's own verifier accepts it as well.
      expect(await verifyStampSignature(stamp.publicKey, stamp.signature, body)).toBe(true);
    }
  });

  it('rejects a valid signature checked against another key', () => {
    const other = generateP256KeyPair();
    const stamp = { ...parseStampHeader(P256_VECTOR.header), publicKey: other.publicKey };
    expectStampError(() => verifyP256Stamp(stamp, vectorBodyBytes()), 'SIGNATURE_INVALID');
  });

  it('rejects public keys that are not 33-byte compressed points', () => {
    const keys = generateP256KeyPair();
    const signature = signP256(keys.privateKey, vectorBodyBytes());
    const cases = [
      keys.publicKeyUncompressed, // valid point, but uncompressed
      `04${keys.publicKey.slice(2)}`, // wrong prefix length
      `05${keys.publicKey.slice(2)}`, // bad prefix
      `02${'ff'.repeat(32)}`, // x >= p: not on the curve
      keys.publicKey.slice(0, 64),
      '',
    ];
    for (const publicKey of cases) {
      const error = expectStampError(
        () => verifyP256Stamp({ publicKey, scheme: SCHEME, signature }, vectorBodyBytes()),
        'SIGNATURE_INVALID',
      );
      expect(error.message).toMatch(/compressed/);
    }
  });

  it('rejects signatures that are not DER', () => {
    const base = parseStampHeader(P256_VECTOR.header);
    const sig = p256.Signature.fromBytes(Buffer.from(P256_VECTOR.signature, 'hex'), 'der');
    const cases = [
      Buffer.from(sig.toBytes('compact')).toString('hex'), // raw r||s is not accepted for P-256
      '',
      '30',
      `${P256_VECTOR.signature}00`, // trailing garbage
      '00'.repeat(200),
    ];
    for (const signature of cases) {
      expectStampError(() => verifyP256Stamp({ ...base, signature }, vectorBodyBytes()), 'SIGNATURE_INVALID');
    }
  });
});
