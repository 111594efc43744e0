import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { generateCurveKeyPair, publicKeyForCurve } from './curve-keys.js';

describe('curve key pairs', () => {
  it('makes distinct, valid key pairs on each curve', () => {
    for (const curve of ['CURVE_SECP256K1', 'CURVE_P256', 'CURVE_ED25519'] as const) {
      const a = generateCurveKeyPair(curve);
      const b = generateCurveKeyPair(curve);
      expect(Buffer.from(a.privateKey).equals(Buffer.from(b.privateKey))).toBe(false);
      expect(a.publicKey.length).toBe(curve === 'CURVE_ED25519' ? 32 : 33);
      expect(publicKeyForCurve(curve, a.privateKey)).toEqual(a.publicKey);
    }
  });

  it('matches the curves’ own public-key computation for a fixed key', () => {
    const k = new Uint8Array(32).fill(7);
    expect(publicKeyForCurve('CURVE_SECP256K1', k)).toEqual(secp256k1.getPublicKey(k, true));
    expect(publicKeyForCurve('CURVE_P256', k)).toEqual(p256.getPublicKey(k, true));
    expect(publicKeyForCurve('CURVE_ED25519', k)).toEqual(ed25519.getPublicKey(k));
  });

  it('refuses a private key of the wrong size', () => {
    expect(() => publicKeyForCurve('CURVE_P256', new Uint8Array(31))).toThrow(/32 bytes/);
  });
});
