/** Tests for the P-256 key helpers. */
import { describe, expect, it } from 'vitest';
import { p256 } from '@noble/curves/nist.js';
import { P256_VECTOR } from '../test-vectors.js';
import {
  compressP256PublicKey,
  decompressP256PublicKey,
  generateP256KeyPair,
  isCompressedP256PublicKey,
  signP256,
} from './p256.js';

describe('P-256 keys', () => {
  it('generates consistent key pairs', () => {
    const pair = generateP256KeyPair();
    expect(pair.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(pair.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(pair.publicKeyUncompressed).toMatch(/^04[0-9a-f]{128}$/);
    expect(compressP256PublicKey(pair.publicKeyUncompressed)).toBe(pair.publicKey);
    expect(decompressP256PublicKey(pair.publicKey)).toBe(pair.publicKeyUncompressed);
    expect(Buffer.from(p256.getPublicKey(Buffer.from(pair.privateKey, 'hex'))).toString('hex')).toBe(pair.publicKey);
    expect(generateP256KeyPair().privateKey).not.toBe(pair.privateKey);
  });

  it('computes the same public points as noble (OpenSSL does the multiplication), seeded or not', () => {
    for (let i = 0; i < 25; i++) {
      const pair = i % 2 ? generateP256KeyPair() : generateP256KeyPair(new Uint8Array(48).fill(i + 1));
      const secret = Buffer.from(pair.privateKey, 'hex');
      expect(pair.publicKey).toBe(Buffer.from(p256.getPublicKey(secret, true)).toString('hex'));
      expect(pair.publicKeyUncompressed).toBe(Buffer.from(p256.getPublicKey(secret, false)).toString('hex'));
    }
  });

  it('derives the protocol-notes public key from 32 bytes of 0x01', () => {
    const uncompressed = Buffer.from(p256.getPublicKey(Buffer.from(P256_VECTOR.privateKey, 'hex'), false)).toString('hex');
    expect(compressP256PublicKey(uncompressed)).toBe(P256_VECTOR.publicKey);
    expect(compressP256PublicKey(P256_VECTOR.publicKey.toUpperCase())).toBe(P256_VECTOR.publicKey);
  });

  it('recognises compressed points only', () => {
    const pair = generateP256KeyPair();
    expect(isCompressedP256PublicKey(pair.publicKey)).toBe(true);
    expect(isCompressedP256PublicKey(pair.publicKeyUncompressed)).toBe(false);
    expect(isCompressedP256PublicKey(`02${'ff'.repeat(32)}`)).toBe(false);
    expect(isCompressedP256PublicKey('zz')).toBe(false);
    expect(isCompressedP256PublicKey(42 as unknown as string)).toBe(false);
  });

  it('rejects bad inputs with TypeError', () => {
    expect(() => decompressP256PublicKey('02')).toThrow(TypeError);
    expect(() => compressP256PublicKey(`02${'ff'.repeat(32)}`)).toThrow(/not a point/);
    expect(() => signP256('00'.repeat(32), new Uint8Array(1))).toThrow(TypeError);
    expect(() => signP256('01'.repeat(31), new Uint8Array(1))).toThrow(TypeError);
    expect(() => signP256(P256_VECTOR.privateKey, 'text' as unknown as Uint8Array)).toThrow(TypeError);
  });
});
