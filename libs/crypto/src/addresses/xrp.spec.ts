/**
 * XRP Ledger classic addresses: the published first address of the abandon … about mnemonic,
 * then against ripple-keypairs (an independent implementation), then properties.
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58xrp } from '@scure/base';
import fc from 'fast-check';
import { deriveAddress } from 'ripple-keypairs';
import { describe, expect, it } from 'vitest';
import { SeedDeriver } from '../derivation/derive-key.js';
import { hash160 } from './bitcoin.js';
import { XRP_ADDRESS_FORMATS, xrpAddress } from './xrp.js';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const ABANDON_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const PATHS = ["m/44'/144'/0'/0/0", "m/44'/144'/0'/0/1", "m/44'/144'/1'/0/0", "m/44'/0'/0'/0/0", "m/0/7"];

const derivers = new Map<string, SeedDeriver>();
const key = (mnemonic: string, path: string): Uint8Array => {
  let d = derivers.get(mnemonic);
  if (!d) derivers.set(mnemonic, (d = SeedDeriver.fromMnemonic(mnemonic)));
  return d.derive('CURVE_SECP256K1', path).publicKey;
};

const encode = (pk: Uint8Array): string => XRP_ADDRESS_FORMATS.ADDRESS_FORMAT_XRP!.encode('CURVE_SECP256K1', pk);

describe('xrp addresses', () => {
  it('matches the published first address of abandon … about', () => {
    // What xrpl.js `Wallet.fromMnemonic` gives at m/44'/144'/0'/0/0 (also Ian Coleman's tool).
    const pk = key(ABANDON_MNEMONIC, "m/44'/144'/0'/0/0");
    expect(bytesToHex(pk)).toBe('031d68bc1a142e6766b2bdfb006ccfe135ef2e0e2e94abb5cf5c9ab6104776fbae');
    expect(encode(pk)).toBe('rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3');
  });

  it('declares exactly ADDRESS_FORMAT_XRP, secp256k1 only', () => {
    expect(Object.keys(XRP_ADDRESS_FORMATS)).toEqual(['ADDRESS_FORMAT_XRP']);
    expect(XRP_ADDRESS_FORMATS.ADDRESS_FORMAT_XRP!.curves).toEqual(['CURVE_SECP256K1']);
  });

  for (const mnemonic of [DEV_MNEMONIC, ABANDON_MNEMONIC]) {
    it(`agrees with ripple-keypairs (${mnemonic.split(' ').at(-1)} mnemonic)`, () => {
      for (const path of PATHS) {
        const pk = key(mnemonic, path);
        expect(encode(pk), path).toBe(deriveAddress(bytesToHex(pk).toUpperCase()));
      }
    });
  }

  it('lays out 0x00 ‖ AccountID ‖ 4-byte checksum in the XRP alphabet', () => {
    const pk = key(DEV_MNEMONIC, "m/44'/144'/0'/0/0");
    const raw = base58xrp.decode(xrpAddress(pk));
    expect(raw).toHaveLength(25);
    expect(raw[0]).toBe(0x00);
    expect(raw.subarray(1, 21)).toEqual(hash160(pk));
  });

  it('refuses uncompressed keys and other curves', () => {
    const pk = key(DEV_MNEMONIC, "m/44'/144'/0'/0/0");
    expect(() => xrpAddress(new Uint8Array(65))).toThrow(/33 bytes/);
    expect(() => XRP_ADDRESS_FORMATS.ADDRESS_FORMAT_XRP!.encode('CURVE_ED25519', pk)).toThrow(/curve must be CURVE_SECP256K1/);
  });

  it('never throws on valid compressed keys and always agrees with ripple-keypairs (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        const pk = SeedDeriver.fromSeed(seed).derive('CURVE_SECP256K1', 'm/0').publicKey;
        const address = xrpAddress(pk);
        expect(address).toMatch(/^r/);
        expect(address).toBe(deriveAddress(bytesToHex(pk).toUpperCase()));
      }),
      { numRuns: 200 },
    );
  });
});
