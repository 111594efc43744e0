/**
 * Tron addresses: the widely published first address of the abandon … about mnemonic, then
 * against tronweb (from the private key, so through its own key derivation, and from the public
 * key), then properties.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { TronWeb, utils as tronUtils } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { SeedDeriver, type TDerivedKey } from '../derivation/derive-key.js';
import { TRON_ADDRESS_FORMATS, tronAddress } from './tron.js';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const ABANDON_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const PATHS = ["m/44'/195'/0'/0/0", "m/44'/195'/0'/0/1", "m/44'/195'/1'/0/0", "m/44'/60'/0'/0/0", "m/0/7"];

const derivers = new Map<string, SeedDeriver>();
const derive = (mnemonic: string, path: string): TDerivedKey => {
  let d = derivers.get(mnemonic);
  if (!d) derivers.set(mnemonic, (d = SeedDeriver.fromMnemonic(mnemonic)));
  return d.derive('CURVE_SECP256K1', path);
};

/** tronweb's address from the uncompressed public key. */
const tronwebFromPublicKey = (pk: Uint8Array): string =>
  tronUtils.crypto.getBase58CheckAddress(tronUtils.crypto.computeAddress(secp256k1.Point.fromBytes(pk).toBytes(false)));

const encode = (pk: Uint8Array): string => TRON_ADDRESS_FORMATS.ADDRESS_FORMAT_TRON!.encode('CURVE_SECP256K1', pk);

describe('tron addresses', () => {
  it('matches the published first address of abandon … about', () => {
    // m/44'/195'/0'/0/0, as Ian Coleman's BIP39 tool and TronLink-compatible wallets give it.
    expect(encode(derive(ABANDON_MNEMONIC, "m/44'/195'/0'/0/0").publicKey)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });

  it('declares exactly ADDRESS_FORMAT_TRON, secp256k1 only', () => {
    expect(Object.keys(TRON_ADDRESS_FORMATS)).toEqual(['ADDRESS_FORMAT_TRON']);
    expect(TRON_ADDRESS_FORMATS.ADDRESS_FORMAT_TRON!.curves).toEqual(['CURVE_SECP256K1']);
  });

  for (const mnemonic of [DEV_MNEMONIC, ABANDON_MNEMONIC]) {
    it(`agrees with tronweb (${mnemonic.split(' ').at(-1)} mnemonic)`, () => {
      for (const path of PATHS) {
        const k = derive(mnemonic, path);
        const address = encode(k.publicKey);
        expect(address, path).toBe(TronWeb.address.fromPrivateKey(bytesToHex(k.privateKey)));
        expect(address, path).toBe(tronwebFromPublicKey(k.publicKey));
        expect(TronWeb.isAddress(address)).toBe(true);
      }
    });
  }

  it('gives the same address for either SEC1 form, since the hash is over the uncompressed point', () => {
    const pk = derive(DEV_MNEMONIC, "m/44'/195'/0'/0/0").publicKey;
    expect(tronAddress(secp256k1.Point.fromBytes(pk).toBytes(false))).toBe(tronAddress(pk));
  });

  it('refuses bad lengths, points off the curve and other curves', () => {
    const pk = derive(DEV_MNEMONIC, "m/44'/195'/0'/0/0").publicKey;
    expect(() => tronAddress(pk.subarray(1))).toThrow(/33 or 65 bytes/);
    expect(() => tronAddress(Uint8Array.from([0x02, ...new Uint8Array(31), 0x05]))).toThrow(/not a point of secp256k1/);
    expect(() => TRON_ADDRESS_FORMATS.ADDRESS_FORMAT_TRON!.encode('CURVE_P256', pk)).toThrow(/curve must be CURVE_SECP256K1/);
  });

  it('never throws on valid compressed keys and always agrees with tronweb (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        const k = SeedDeriver.fromSeed(seed).derive('CURVE_SECP256K1', 'm/0');
        const address = tronAddress(k.publicKey);
        expect(address).toMatch(/^T/);
        expect(address).toBe(TronWeb.address.fromPrivateKey(bytesToHex(k.privateKey)));
      }),
      { numRuns: 200 },
    );
  });
});
