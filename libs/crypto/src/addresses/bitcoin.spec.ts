/**
 * Bitcoin addresses: the BIP-44/49/84/86 published vectors, then every one of the 20 formats
 * against bitcoinjs-lib (an independent implementation) for keys of two mnemonics, then
 * fast-check properties over keys from random seeds.
 */
import * as ecc from '@bitcoinerlab/secp256k1';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { bech32m } from '@scure/base';
import { initEccLib, networks, payments, type Network } from 'bitcoinjs-lib';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SeedDeriver } from '../derivation/derive-key.js';
import { BITCOIN_ADDRESS_FORMATS, bitcoinAddress, taprootOutputKey, type TBitcoinAddressType, type TBitcoinNetwork } from './bitcoin.js';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const ABANDON_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const MNEMONICS = [DEV_MNEMONIC, ABANDON_MNEMONIC];
const PATHS = ["m/44'/0'/0'/0/0", "m/44'/0'/0'/0/1", "m/49'/1'/0'/0/0", "m/84'/0'/0'/0/0", "m/84'/0'/0'/1/3", "m/86'/0'/0'/0/0", "m/0/7"];

const NETWORKS: readonly TBitcoinNetwork[] = ['mainnet', 'testnet', 'signet', 'regtest'];
const TYPES: readonly TBitcoinAddressType[] = ['p2pkh', 'p2sh', 'p2wpkh', 'p2wsh', 'p2tr'];

// bitcoinjs has no signet network object; signet's address parameters are testnet's.
const BITCOINJS_NETWORK: Record<TBitcoinNetwork, Network> = {
  mainnet: networks.bitcoin,
  testnet: networks.testnet,
  signet: networks.testnet,
  regtest: networks.regtest,
};

const OP_CHECKSIG = 0xac;

/** The same address as bitcoinjs-lib builds it, under our script convention for each type. */
function bitcoinjsAddress(pubkey: Uint8Array, network: TBitcoinNetwork, type: TBitcoinAddressType): string | undefined {
  const n = BITCOINJS_NETWORK[network];
  switch (type) {
    case 'p2pkh':
      return payments.p2pkh({ pubkey, network: n }).address;
    case 'p2sh':
      return payments.p2sh({ redeem: payments.p2wpkh({ pubkey, network: n }), network: n }).address;
    case 'p2wpkh':
      return payments.p2wpkh({ pubkey, network: n }).address;
    case 'p2wsh': {
      const output = Uint8Array.from([pubkey.length, ...pubkey, OP_CHECKSIG]);
      return payments.p2wsh({ redeem: { output }, network: n }).address;
    }
    case 'p2tr':
      return payments.p2tr({ internalPubkey: pubkey.subarray(1), network: n }).address;
  }
}

// One deriver per mnemonic: the BIP-39 seed stretch (PBKDF2, 2048 rounds) dominates otherwise.
const derivers = new Map<string, SeedDeriver>();
const key = (mnemonic: string, path: string): Uint8Array => {
  let d = derivers.get(mnemonic);
  if (!d) derivers.set(mnemonic, (d = SeedDeriver.fromMnemonic(mnemonic)));
  return d.derive('CURVE_SECP256K1', path).publicKey;
};

beforeAll(() => initEccLib(ecc));

describe('bitcoin addresses: published vectors (abandon … about)', () => {
  // BIP-44/49/84/86 each publish the first addresses of this mnemonic.
  it.each([
    ['BIP-44', "m/44'/0'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH', '1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA'],
    ['BIP-49', "m/49'/1'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH', '2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2'],
    ['BIP-84', "m/84'/0'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['BIP-84', "m/84'/0'/0'/0/1", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH', 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'],
    ['BIP-84', "m/84'/0'/0'/1/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH', 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el'],
    ['BIP-86', "m/86'/0'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR', 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr'],
    ['BIP-86', "m/86'/0'/0'/0/1", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR', 'bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh'],
    ['BIP-86', "m/86'/0'/0'/1/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR', 'bc1p3qkhfews2uk44qtvauqyr2ttdsw7svhkl9nkm9s9c3x4ax5h60wqwruhk7'],
  ])('%s %s %s', (_bip, path, format, expected) => {
    expect(BITCOIN_ADDRESS_FORMATS[format]!.encode('CURVE_SECP256K1', key(ABANDON_MNEMONIC, path))).toBe(expected);
  });

  it('derives the BIP-86 internal and output keys', () => {
    const pk = key(ABANDON_MNEMONIC, "m/86'/0'/0'/0/0");
    expect(bytesToHex(pk.subarray(1))).toBe('cc8a4bc64d897bddc5fbc2f670f7a8ba0b386779106cf1223c6fc5d7cd6fc115');
    expect(bytesToHex(taprootOutputKey(pk))).toBe('a60869f0dbcf1dc659c9cecbaf8050135ea9e8cdc487053f1dc6880949dc684c');
  });
});

describe('bitcoin addresses: against bitcoinjs-lib', () => {
  it('declares exactly the 20 network × type formats, secp256k1 only', () => {
    const expected = NETWORKS.flatMap((n) => TYPES.map((t) => `ADDRESS_FORMAT_BITCOIN_${n.toUpperCase()}_${t.toUpperCase()}`));
    expect(Object.keys(BITCOIN_ADDRESS_FORMATS).sort()).toEqual(expected.sort());
    for (const spec of Object.values(BITCOIN_ADDRESS_FORMATS)) expect(spec.curves).toEqual(['CURVE_SECP256K1']);
  });

  for (const mnemonic of MNEMONICS) {
    for (const network of NETWORKS) {
      for (const type of TYPES) {
        const format = `ADDRESS_FORMAT_BITCOIN_${network.toUpperCase()}_${type.toUpperCase()}`;
        it(`${format} (${mnemonic.split(' ').at(-1)} mnemonic)`, () => {
          for (const path of PATHS) {
            const pk = key(mnemonic, path);
            expect(BITCOIN_ADDRESS_FORMATS[format]!.encode('CURVE_SECP256K1', pk), path).toBe(bitcoinjsAddress(pk, network, type));
          }
        });
      }
    }
  }

  it('uses the documented prefixes per network', () => {
    const pk = key(DEV_MNEMONIC, "m/84'/0'/0'/0/0");
    expect(bitcoinAddress(pk, 'mainnet', 'p2wsh')).toMatch(/^bc1q/);
    expect(bitcoinAddress(pk, 'signet', 'p2tr')).toMatch(/^tb1p/);
    expect(bitcoinAddress(pk, 'regtest', 'p2tr')).toMatch(/^bcrt1p/);
    expect(bitcoinAddress(pk, 'regtest', 'p2pkh')).toBe(bitcoinAddress(pk, 'testnet', 'p2pkh'));
    expect(bitcoinAddress(pk, 'signet', 'p2sh')).toBe(bitcoinAddress(pk, 'testnet', 'p2sh'));
  });

  it('tweaks the even-Y internal key whatever the parity prefix', () => {
    // BIP-340 keys are x-only, so 02‖x and 03‖x must give the same taproot output.
    const pk = key(DEV_MNEMONIC, "m/86'/0'/0'/0/0");
    const flipped = Uint8Array.from(pk);
    flipped[0] = pk[0] === 0x02 ? 0x03 : 0x02;
    expect(bitcoinAddress(flipped, 'mainnet', 'p2tr')).toBe(bitcoinAddress(pk, 'mainnet', 'p2tr'));
    const { words } = bech32m.decode(bitcoinAddress(pk, 'mainnet', 'p2tr') as `bc1${string}`);
    expect(words[0]).toBe(1);
    expect(bech32m.fromWords(words.slice(1))).toEqual(taprootOutputKey(pk));
  });
});

describe('bitcoin addresses: refusals', () => {
  const pk = key(DEV_MNEMONIC, "m/44'/0'/0'/0/0");
  const spec = BITCOIN_ADDRESS_FORMATS.ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH!;

  it('refuses an uncompressed key rather than hash a different serialisation', () => {
    expect(() => spec.encode('CURVE_SECP256K1', secp256k1.Point.fromBytes(pk).toBytes(false))).toThrow(/publicKey must be 33 bytes/);
  });

  it('refuses bad lengths, prefixes and points off the curve', () => {
    expect(() => spec.encode('CURVE_SECP256K1', pk.subarray(1))).toThrow(/33 bytes/);
    expect(() => spec.encode('CURVE_SECP256K1', Uint8Array.from([0x04, ...pk.subarray(1)]))).toThrow(/prefix 02 or 03/);
    // x = 5 has no y on secp256k1 (5³ + 7 = 132 is not a square mod p).
    expect(() => spec.encode('CURVE_SECP256K1', hexToBytes(`02${'00'.repeat(31)}05`))).toThrow(/not a point of secp256k1/);
    expect(() => spec.encode('CURVE_SECP256K1', 'not bytes' as unknown as Uint8Array)).toThrow(TypeError);
  });

  it('refuses other curves even when called directly', () => {
    expect(() => spec.encode('CURVE_P256', pk)).toThrow(/curve must be CURVE_SECP256K1/);
    expect(() => spec.encode('CURVE_ED25519', pk)).toThrow(/curve must be CURVE_SECP256K1/);
  });
});

describe('bitcoin addresses: properties', () => {
  const seeds = fc.uint8Array({ minLength: 32, maxLength: 32 });
  const keyOf = (seed: Uint8Array): Uint8Array => SeedDeriver.fromSeed(seed).derive('CURVE_SECP256K1', 'm/0').publicKey;

  it('never throws on valid compressed keys and always agrees with bitcoinjs-lib', () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom(...NETWORKS), fc.constantFrom(...TYPES), (seed, network, type) => {
        const pk = keyOf(seed);
        expect(bitcoinAddress(pk, network, type)).toBe(bitcoinjsAddress(pk, network, type));
      }),
      { numRuns: 300 },
    );
  });

  it('encodes every format of one key to distinct addresses', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const pk = keyOf(seed);
        const all = Object.values(BITCOIN_ADDRESS_FORMATS).map((s) => s.encode('CURVE_SECP256K1', pk));
        // Signet repeats testnet's 5 addresses and regtest its 2 base58 ones: 13 distinct of 20.
        expect(new Set(all).size).toBe(13);
      }),
      { numRuns: 50 },
    );
  });
});
