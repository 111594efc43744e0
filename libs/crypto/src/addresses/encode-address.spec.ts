/** The one entry point covers every format of the specification, on the right curves only. */
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
});
