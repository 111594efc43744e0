/**
 * Dogecoin P2PKH addresses: the widely published first address of the abandon … about mnemonic,
 * then both formats against bitcoinjs-lib with Dogecoin network objects, then properties.
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { payments, type Network } from 'bitcoinjs-lib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeedDeriver } from '../derivation/derive-key.js';
import { DOGECOIN_ADDRESS_FORMATS, dogecoinAddress, type TDogecoinNetwork } from './dogecoin.js';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const ABANDON_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const PATHS = ["m/44'/3'/0'/0/0", "m/44'/3'/0'/0/1", "m/44'/3'/0'/1/0", "m/44'/1'/0'/0/0", "m/0/7"];

// Dogecoin's chainparams; only pubKeyHash matters for P2PKH, the rest makes a complete Network.
const BITCOINJS_NETWORK: Record<TDogecoinNetwork, Network> = {
  mainnet: { messagePrefix: '\x19Dogecoin Signed Message:\n', bech32: 'doge', bip32: { public: 0x02facafd, private: 0x02fac398 }, pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e },
  testnet: { messagePrefix: '\x19Dogecoin Signed Message:\n', bech32: 'tdge', bip32: { public: 0x043587cf, private: 0x04358394 }, pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 },
};

const derivers = new Map<string, SeedDeriver>();
const key = (mnemonic: string, path: string): Uint8Array => {
  let d = derivers.get(mnemonic);
  if (!d) derivers.set(mnemonic, (d = SeedDeriver.fromMnemonic(mnemonic)));
  return d.derive('CURVE_SECP256K1', path).publicKey;
};

describe('dogecoin addresses', () => {
  it('matches the published BIP-44 first address of abandon … about', () => {
    // Ian Coleman's BIP39 tool and Ledger Live both give this for m/44'/3'/0'/0/0.
    const pk = key(ABANDON_MNEMONIC, "m/44'/3'/0'/0/0");
    expect(bytesToHex(pk)).toBe('02cc6b0dc33aabcf3a23643e5e2919a80c50fb3dd2129ce409bbc5f0d4643d05e0');
    expect(DOGECOIN_ADDRESS_FORMATS.ADDRESS_FORMAT_DOGE_MAINNET!.encode('CURVE_SECP256K1', pk)).toBe('DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC');
  });

  it('declares exactly the two formats, secp256k1 only', () => {
    expect(Object.keys(DOGECOIN_ADDRESS_FORMATS).sort()).toEqual(['ADDRESS_FORMAT_DOGE_MAINNET', 'ADDRESS_FORMAT_DOGE_TESTNET']);
    for (const spec of Object.values(DOGECOIN_ADDRESS_FORMATS)) expect(spec.curves).toEqual(['CURVE_SECP256K1']);
  });

  for (const mnemonic of [DEV_MNEMONIC, ABANDON_MNEMONIC]) {
    for (const network of ['mainnet', 'testnet'] as const) {
      const format = `ADDRESS_FORMAT_DOGE_${network.toUpperCase()}`;
      it(`${format} agrees with bitcoinjs-lib (${mnemonic.split(' ').at(-1)} mnemonic)`, () => {
        for (const path of PATHS) {
          const pk = key(mnemonic, path);
          const expected = payments.p2pkh({ pubkey: pk, network: BITCOINJS_NETWORK[network] }).address;
          expect(DOGECOIN_ADDRESS_FORMATS[format]!.encode('CURVE_SECP256K1', pk), path).toBe(expected);
        }
      });
    }
  }

  it('starts mainnet addresses with D and testnet ones with n', () => {
    const pk = key(DEV_MNEMONIC, "m/44'/3'/0'/0/0");
    expect(dogecoinAddress(pk, 'mainnet')).toMatch(/^D/);
    expect(dogecoinAddress(pk, 'testnet')).toMatch(/^n/);
  });

  it('refuses uncompressed keys, bad networks and other curves', () => {
    const pk = key(DEV_MNEMONIC, "m/44'/3'/0'/0/0");
    expect(() => dogecoinAddress(new Uint8Array(65), 'mainnet')).toThrow(/33 bytes/);
    expect(() => dogecoinAddress(pk, 'signet' as TDogecoinNetwork)).toThrow(/network must be/);
    expect(() => DOGECOIN_ADDRESS_FORMATS.ADDRESS_FORMAT_DOGE_MAINNET!.encode('CURVE_P256', pk)).toThrow(/curve must be CURVE_SECP256K1/);
  });

  it('never throws on valid compressed keys and always agrees with bitcoinjs-lib (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom('mainnet' as const, 'testnet' as const), (seed, network) => {
        const pk = SeedDeriver.fromSeed(seed).derive('CURVE_SECP256K1', 'm/0').publicKey;
        expect(dogecoinAddress(pk, network)).toBe(payments.p2pkh({ pubkey: pk, network: BITCOINJS_NETWORK[network] }).address);
      }),
      { numRuns: 200 },
    );
  });
});
