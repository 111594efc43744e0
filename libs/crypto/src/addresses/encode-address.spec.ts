/** The one entry point covers every format of the specification, on the right curves only. */
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeedDeriver } from '../derivation/derive-key.js';
import { curvesForAddressFormat, encodeAddress, SUPPORTED_ADDRESS_FORMATS } from './encode-address.js';

const NETWORKS = ['MAINNET', 'TESTNET', 'SIGNET', 'REGTEST'];
const SCRIPTS = ['P2PKH', 'P2SH', 'P2WPKH', 'P2WSH', 'P2TR'];
const SPEC_FORMATS = [
  'ADDRESS_FORMAT_UNCOMPRESSED', 'ADDRESS_FORMAT_COMPRESSED', 'ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_SOLANA', 'ADDRESS_FORMAT_COSMOS',
  'ADDRESS_FORMAT_TRON', 'ADDRESS_FORMAT_SUI', 'ADDRESS_FORMAT_APTOS', 'ADDRESS_FORMAT_SEI', 'ADDRESS_FORMAT_XLM', 'ADDRESS_FORMAT_XRP',
  'ADDRESS_FORMAT_DOGE_MAINNET', 'ADDRESS_FORMAT_DOGE_TESTNET', 'ADDRESS_FORMAT_TON_V3R2', 'ADDRESS_FORMAT_TON_V4R2', 'ADDRESS_FORMAT_TON_V5R1',
  'ADDRESS_FORMAT_SPARK_MAINNET', 'ADDRESS_FORMAT_SPARK_REGTEST',
  ...NETWORKS.flatMap((n) => SCRIPTS.map((s) => `ADDRESS_FORMAT_BITCOIN_${n}_${s}`)),
];

describe('encodeAddress', () => {
  it('supports exactly the 38 formats of the specification', () => {
    expect(SPEC_FORMATS).toHaveLength(38);
    expect([...SUPPORTED_ADDRESS_FORMATS].sort()).toEqual([...SPEC_FORMATS].sort());
  });

  it('encodes every format from a derived key on each curve it accepts, and refuses the others', () => {
    const d = SeedDeriver.fromMnemonic('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about');
    const keys = {
      CURVE_SECP256K1: d.derive('CURVE_SECP256K1', "m/44'/0'/0'/0/0").publicKey,
      CURVE_P256: d.derive('CURVE_P256', "m/44'/0'/0'/0/0").publicKey,
      CURVE_ED25519: d.derive('CURVE_ED25519', "m/44'/501'/0'/0'").publicKey,
    } as const;
    for (const format of SPEC_FORMATS) {
      const curves = curvesForAddressFormat(format);
      expect(curves.length, format).toBeGreaterThan(0);
      for (const curve of ['CURVE_SECP256K1', 'CURVE_P256', 'CURVE_ED25519'] as const) {
        if (curves.includes(curve)) expect(encodeAddress(curve, format, keys[curve]).length, `${format} on ${curve}`).toBeGreaterThan(20);
        else expect(() => encodeAddress(curve, format, keys[curve]), `${format} on ${curve}`).toThrow(/needs curve/);
      }
    }
  });

  it('gives ed25519 its raw key as the compressed form and no uncompressed form', () => {
    const pk = new Uint8Array(32).fill(9);
    expect(encodeAddress('CURVE_ED25519', 'ADDRESS_FORMAT_COMPRESSED', pk)).toBe('09'.repeat(32));
    expect(() => encodeAddress('CURVE_ED25519', 'ADDRESS_FORMAT_UNCOMPRESSED', pk)).toThrow(/needs curve/);
  });

  describe('with the uncompressed key handed on (derivation already has it)', () => {
    const secretKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((b) => secp256k1.utils.isValidSecretKey(b));
    const SECP256K1_FORMATS = SUPPORTED_ADDRESS_FORMATS.filter((f) => curvesForAddressFormat(f).includes('CURVE_SECP256K1'));

    it('gives every secp256k1 format the same address as the compressed key alone (property)', () => {
      fc.assert(
        fc.property(secretKey, (sk) => {
          const compressed = secp256k1.getPublicKey(sk, true);
          const uncompressed = secp256k1.getPublicKey(sk, false);
          for (const format of SECP256K1_FORMATS) {
            expect(encodeAddress('CURVE_SECP256K1', format, compressed, uncompressed), format).toBe(encodeAddress('CURVE_SECP256K1', format, compressed));
          }
        }),
        { numRuns: 25 },
      );
    });

    it('does the same for P-256', () => {
      const sk = p256.utils.randomSecretKey();
      const [compressed, uncompressed] = [p256.getPublicKey(sk, true), p256.getPublicKey(sk, false)];
      for (const format of SUPPORTED_ADDRESS_FORMATS.filter((f) => curvesForAddressFormat(f).includes('CURVE_P256'))) {
        expect(encodeAddress('CURVE_P256', format, compressed, uncompressed), format).toBe(encodeAddress('CURVE_P256', format, compressed));
      }
    });

    it('refuses an uncompressed key that is not the same point, or malformed, or on ed25519', () => {
      const sk = secp256k1.utils.randomSecretKey();
      const compressed = secp256k1.getPublicKey(sk, true);
      const other = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false);
      const eth = (u: Uint8Array, c: Uint8Array = compressed) => () => encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', c, u);
      expect(eth(other)).toThrow(/not the same point/);
      // The same x with the other y (the point's negation).
      const negated = secp256k1.Point.fromBytes(compressed).negate().toBytes(false);
      expect(eth(negated)).toThrow(/not the same point/);
      expect(eth(compressed)).toThrow(/65 bytes/);
      expect(eth(secp256k1.getPublicKey(sk, false), secp256k1.getPublicKey(sk, false))).toThrow(/33-byte compressed/);
      // Right x and parity but a y off the curve: the encoder's own check refuses it.
      const offCurve = secp256k1.getPublicKey(sk, false);
      offCurve[63] = offCurve[63]! ^ 0x02;
      expect(eth(offCurve)).toThrow();
      expect(() => encodeAddress('CURVE_ED25519', 'ADDRESS_FORMAT_SOLANA', new Uint8Array(32).fill(9), new Uint8Array(65))).toThrow(/no uncompressed form/);
    });
  });
});
