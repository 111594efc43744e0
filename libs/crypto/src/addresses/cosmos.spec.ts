/**
 * Cosmos SDK addresses: the widely published Cosmos Hub address of the abandon … about mnemonic,
 * then `cosmos` and `sei` against @cosmjs/amino (an independent implementation), then properties.
 */
import { encodeSecp256k1Pubkey, pubkeyToAddress } from '@cosmjs/amino';
import { bech32 } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeedDeriver } from '../derivation/derive-key.js';
import { hash160 } from './bitcoin.js';
import { COSMOS_ADDRESS_FORMATS, cosmosAddress } from './cosmos.js';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const ABANDON_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const PATHS = ["m/44'/118'/0'/0/0", "m/44'/118'/0'/0/1", "m/44'/118'/1'/0/0", "m/44'/60'/0'/0/0", "m/0/7"];
const HRP: Record<string, string> = { ADDRESS_FORMAT_COSMOS: 'cosmos', ADDRESS_FORMAT_SEI: 'sei' };

const derivers = new Map<string, SeedDeriver>();
const key = (mnemonic: string, path: string): Uint8Array => {
  let d = derivers.get(mnemonic);
  if (!d) derivers.set(mnemonic, (d = SeedDeriver.fromMnemonic(mnemonic)));
  return d.derive('CURVE_SECP256K1', path).publicKey;
};

const cosmjsAddress = (pk: Uint8Array, hrp: string): string => pubkeyToAddress(encodeSecp256k1Pubkey(pk), hrp);

describe('cosmos addresses', () => {
  it('matches the published Cosmos Hub address of abandon … about', () => {
    // m/44'/118'/0'/0/0; quoted by cosmjs users, Keplr-compatible tools and Ian Coleman's tool.
    const pk = key(ABANDON_MNEMONIC, "m/44'/118'/0'/0/0");
    expect(COSMOS_ADDRESS_FORMATS.ADDRESS_FORMAT_COSMOS!.encode('CURVE_SECP256K1', pk)).toBe('cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4');
  });

  it('declares exactly ADDRESS_FORMAT_COSMOS and ADDRESS_FORMAT_SEI, secp256k1 only', () => {
    expect(Object.keys(COSMOS_ADDRESS_FORMATS).sort()).toEqual(['ADDRESS_FORMAT_COSMOS', 'ADDRESS_FORMAT_SEI']);
    for (const spec of Object.values(COSMOS_ADDRESS_FORMATS)) expect(spec.curves).toEqual(['CURVE_SECP256K1']);
  });

  for (const mnemonic of [DEV_MNEMONIC, ABANDON_MNEMONIC]) {
    for (const [format, hrp] of Object.entries(HRP)) {
      it(`${format} agrees with @cosmjs/amino (${mnemonic.split(' ').at(-1)} mnemonic)`, () => {
        for (const path of PATHS) {
          const pk = key(mnemonic, path);
          expect(COSMOS_ADDRESS_FORMATS[format]!.encode('CURVE_SECP256K1', pk), path).toBe(cosmjsAddress(pk, hrp));
        }
      });
    }
  }

  it('gives cosmos and sei the same 20-byte account under their own hrp', () => {
    const pk = key(DEV_MNEMONIC, "m/44'/118'/0'/0/0");
    const cosmos = bech32.decodeToBytes(cosmosAddress(pk, 'cosmos'));
    const sei = bech32.decodeToBytes(cosmosAddress(pk, 'sei'));
    expect([cosmos.prefix, sei.prefix]).toEqual(['cosmos', 'sei']);
    expect(sei.bytes).toEqual(cosmos.bytes);
    expect(cosmos.bytes).toEqual(hash160(pk));
  });

  it('refuses uncompressed keys, an empty hrp and other curves', () => {
    const pk = key(DEV_MNEMONIC, "m/44'/118'/0'/0/0");
    expect(() => cosmosAddress(new Uint8Array(65), 'cosmos')).toThrow(/33 bytes/);
    expect(() => cosmosAddress(pk, '')).toThrow(/hrp/);
    expect(() => COSMOS_ADDRESS_FORMATS.ADDRESS_FORMAT_SEI!.encode('CURVE_ED25519', pk)).toThrow(/curve must be CURVE_SECP256K1/);
  });

  it('never throws on valid compressed keys and always agrees with @cosmjs/amino (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom('cosmos', 'sei'), (seed, hrp) => {
        const pk = SeedDeriver.fromSeed(seed).derive('CURVE_SECP256K1', 'm/0').publicKey;
        expect(cosmosAddress(pk, hrp)).toBe(cosmjsAddress(pk, hrp));
      }),
      { numRuns: 200 },
    );
  });
});
