import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { normalizeApiKeyPublicKey } from './api-key-public-key.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('normalizeApiKeyPublicKey', () => {
  it('accepts each curve in its registered form and lowercases it', () => {
    const p = hex(p256.getPublicKey(p256.utils.randomSecretKey(), true));
    const k = hex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true));
    const e = hex(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
    expect(normalizeApiKeyPublicKey('API_KEY_CURVE_P256', p.toUpperCase())).toBe(p);
    expect(normalizeApiKeyPublicKey('API_KEY_CURVE_SECP256K1', k)).toBe(k);
    expect(normalizeApiKeyPublicKey('API_KEY_CURVE_ED25519', e)).toBe(e);
  });

  it('refuses the wrong length or form, naming the expected one', () => {
    const uncompressed = hex(p256.getPublicKey(p256.utils.randomSecretKey(), false));
    expect(() => normalizeApiKeyPublicKey('API_KEY_CURVE_P256', uncompressed)).toThrow(/compressed P-256 public key in hex \(66 characters/);
    expect(() => normalizeApiKeyPublicKey('API_KEY_CURVE_ED25519', 'zz')).toThrow(/32-byte ed25519/);
  });

  it('refuses a point that is not on the curve', () => {
    // The first x (1, 2, …) with no point above it, found by noble, not by the code under test.
    const offCurve = (fromHex: (h: string) => unknown) => {
      for (let x = 1; ; x++) {
        const h = `02${x.toString(16).padStart(64, '0')}`;
        try {
          fromHex(h);
        } catch {
          return h;
        }
      }
    };
    expect(() => normalizeApiKeyPublicKey('API_KEY_CURVE_P256', offCurve((h) => p256.Point.fromHex(h)))).toThrow(/not a point of P256/);
    expect(() => normalizeApiKeyPublicKey('API_KEY_CURVE_SECP256K1', offCurve((h) => secp256k1.Point.fromHex(h)))).toThrow(/not a point of SECP256K1/);
  });
});
