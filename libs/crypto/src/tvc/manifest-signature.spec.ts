/**
 * Manifest approvals: RFC 6979 §A.2.5's P-256/SHA-256 vectors (message "sample" and "test"), DER
 * encoded here, both S halves; signatures made by node:crypto (an independent signer); and every
 * way an approval can be wrong.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUncompressedP256PublicKey, verifyManifestApproval } from './manifest-signature.js';

const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
// RFC 6979 A.2.5: the P-256 key pair.
const RFC_PUBLIC =
  '04' + '60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6' + '7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299';
const VECTORS = [
  { message: 'sample', r: 0xefd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716n, s: 0xf7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8n },
  { message: 'test', r: 0xf1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367n, s: 0x019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083n },
];

/** DER `SEQUENCE { INTEGER r, INTEGER s }` in hex. */
function der(r: bigint, s: bigint): string {
  const int = (x: bigint) => {
    let h = x.toString(16);
    if (h.length % 2) h = `0${h}`;
    if (parseInt(h.slice(0, 2), 16) >= 0x80) h = `00${h}`;
    return `02${(h.length / 2).toString(16).padStart(2, '0')}${h}`;
  };
  const body = int(r) + int(s);
  return `30${(body.length / 2).toString(16).padStart(2, '0')}${body}`;
}

const bytes = (s: string) => new TextEncoder().encode(s);

function nodeOperator() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const hex = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  return { publicKey: hex, sign: (m: Uint8Array) => sign('sha256', m, privateKey).toString('hex') };
}

describe('verifyManifestApproval', () => {
  it('accepts the RFC 6979 vectors, in both S halves', () => {
    for (const v of VECTORS) {
      expect(verifyManifestApproval(RFC_PUBLIC, der(v.r, v.s), bytes(v.message))).toBe(true);
      expect(verifyManifestApproval(RFC_PUBLIC, der(v.r, N - v.s), bytes(v.message))).toBe(true);
      expect(verifyManifestApproval(RFC_PUBLIC.toUpperCase(), der(v.r, v.s), bytes(v.message))).toBe(true);
    }
  });

  it('refuses a vector against the other message, a changed r, or a truncated DER', () => {
    const [sample, test] = VECTORS;
    expect(verifyManifestApproval(RFC_PUBLIC, der(sample!.r, sample!.s), bytes('test'))).toBe(false);
    expect(verifyManifestApproval(RFC_PUBLIC, der(test!.r + 1n, test!.s), bytes('test'))).toBe(false);
    expect(verifyManifestApproval(RFC_PUBLIC, der(test!.r, test!.s).slice(0, -2), bytes('test'))).toBe(false);
  });

  it('verifies node:crypto signatures over the exact bytes, and nothing else', () => {
    const op = nodeOperator();
    const other = nodeOperator();
    const manifest = bytes('{"a":1,"b":"x"}');
    const signature = op.sign(manifest);
    expect(verifyManifestApproval(op.publicKey, signature, manifest)).toBe(true);
    expect(verifyManifestApproval(op.publicKey, signature, bytes('{"a":1,"b":"y"}'))).toBe(false);
    expect(verifyManifestApproval(op.publicKey, signature, bytes('{"b":"x","a":1}'))).toBe(false);
    expect(verifyManifestApproval(other.publicKey, signature, manifest)).toBe(false);
  });

  it('refuses signatures that are not hex DER of a plausible length', () => {
    const op = nodeOperator();
    const m = bytes('m');
    for (const bad of ['', 'zz', 'abc', '30', '00'.repeat(73), op.sign(m).slice(0, 20)]) expect(verifyManifestApproval(op.publicKey, bad, m)).toBe(false);
  });

  it('throws on a key that is not an uncompressed P-256 point', () => {
    expect(() => verifyManifestApproval(`02${RFC_PUBLIC.slice(2, 66)}`, '30', bytes('m'))).toThrow(/uncompressed P-256/);
  });
});

describe('isUncompressedP256PublicKey', () => {
  it('accepts 04… points on the curve only', () => {
    expect(isUncompressedP256PublicKey(RFC_PUBLIC)).toBe(true);
    expect(isUncompressedP256PublicKey(`02${RFC_PUBLIC.slice(2, 66)}`)).toBe(false);
    expect(isUncompressedP256PublicKey(`${RFC_PUBLIC.slice(0, -2)}00`)).toBe(false);
    expect(isUncompressedP256PublicKey(`05${RFC_PUBLIC.slice(2)}`)).toBe(false);
    expect(isUncompressedP256PublicKey(`04${'g'.repeat(128)}`)).toBe(false);
  });
});
