/**
 * Spark addresses. There is no independent Spark implementation among our test dependencies, so
 * these tests pin the convention instead: decoding with @scure/base's bech32m must give back the
 * hrp and exactly `0x0a 0x21 ‖ compressed pubkey`, and plain bech32 must refuse the checksum.
 */
import { bech32, bech32m } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeedDeriver } from '../derivation/derive-key.js';
import { SPARK_ADDRESS_FORMATS, sparkAddress, type TSparkNetwork } from './spark.js';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const ABANDON_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const PATHS = ["m/8797555'/0'/0'", "m/44'/0'/0'/0/0", "m/84'/0'/0'/0/1", "m/0/7"];
const FORMATS: Record<string, { hrp: string; network: TSparkNetwork }> = {
  ADDRESS_FORMAT_SPARK_MAINNET: { hrp: 'spark', network: 'mainnet' },
  ADDRESS_FORMAT_SPARK_REGTEST: { hrp: 'sparkrt', network: 'regtest' },
};

const derivers = new Map<string, SeedDeriver>();
const key = (mnemonic: string, path: string): Uint8Array => {
  let d = derivers.get(mnemonic);
  if (!d) derivers.set(mnemonic, (d = SeedDeriver.fromMnemonic(mnemonic)));
  return d.derive('CURVE_SECP256K1', path).publicKey;
};

/** Decodes with the default 90-character limit: a standard decoder must accept our addresses. */
function decode(address: string): { prefix: string; bytes: Uint8Array } {
  const { prefix, bytes } = bech32m.decodeToBytes(address);
  return { prefix, bytes };
}

describe('spark addresses', () => {
  it('declares exactly the mainnet and regtest formats, secp256k1 only', () => {
    expect(Object.keys(SPARK_ADDRESS_FORMATS).sort()).toEqual(Object.keys(FORMATS).sort());
    for (const spec of Object.values(SPARK_ADDRESS_FORMATS)) expect(spec.curves).toEqual(['CURVE_SECP256K1']);
  });

  for (const mnemonic of [DEV_MNEMONIC, ABANDON_MNEMONIC]) {
    for (const [format, { hrp }] of Object.entries(FORMATS)) {
      it(`${format} decodes to ${hrp} and 0x0a 0x21 ‖ pubkey (${mnemonic.split(' ').at(-1)} mnemonic)`, () => {
        for (const path of PATHS) {
          const pk = key(mnemonic, path);
          const address = SPARK_ADDRESS_FORMATS[format]!.encode('CURVE_SECP256K1', pk);
          expect(address, path).toMatch(new RegExp(`^${hrp}1[02-9ac-hj-np-z]{62}$`));
          const decoded = decode(address);
          expect(decoded.prefix).toBe(hrp);
          expect(decoded.bytes).toEqual(Uint8Array.from([0x0a, 0x21, ...pk]));
        }
      });
    }
  }

  it('uses the bech32m checksum, which plain bech32 refuses', () => {
    const address = sparkAddress(key(DEV_MNEMONIC, "m/44'/0'/0'/0/0"), 'mainnet');
    expect(() => bech32.decode(address as `spark1${string}`)).toThrow();
  });

  it('refuses uncompressed keys, bad networks and other curves', () => {
    const pk = key(DEV_MNEMONIC, "m/44'/0'/0'/0/0");
    expect(() => sparkAddress(new Uint8Array(65), 'mainnet')).toThrow(/33 bytes/);
    expect(() => sparkAddress(pk, 'testnet' as TSparkNetwork)).toThrow(/network must be/);
    expect(() => SPARK_ADDRESS_FORMATS.ADDRESS_FORMAT_SPARK_MAINNET!.encode('CURVE_P256', pk)).toThrow(/curve must be CURVE_SECP256K1/);
  });

  it('never throws on valid compressed keys and round-trips (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom(...Object.values(FORMATS)), (seed, { hrp, network }) => {
        const pk = SeedDeriver.fromSeed(seed).derive('CURVE_SECP256K1', 'm/0').publicKey;
        const decoded = decode(sparkAddress(pk, network));
        expect(decoded.prefix).toBe(hrp);
        expect(decoded.bytes).toEqual(Uint8Array.from([0x0a, 0x21, ...pk]));
      }),
      { numRuns: 200 },
    );
  });
});
