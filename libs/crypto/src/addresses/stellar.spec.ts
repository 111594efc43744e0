/** Tests for Stellar account ids: SEP-0005 vectors, CRC16-XMODEM, agreement with @stellar/stellar-base. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { StrKey } from '@stellar/stellar-base';
import { STELLAR_ADDRESS_FORMATS, crc16Xmodem, stellarAddress } from './stellar.js';

const FIXED_PRIVATE_KEYS = [new Uint8Array(32).fill(1), hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')];
const reference = (publicKey: Uint8Array) => StrKey.encodeEd25519PublicKey(Buffer.from(publicKey));

describe('crc16Xmodem', () => {
  it('gives the CRC-16/XMODEM check value for "123456789"', () => {
    expect(crc16Xmodem(new TextEncoder().encode('123456789'))).toBe(0x31c3);
  });

  it('is 0 for no input', () => {
    expect(crc16Xmodem(new Uint8Array(0))).toBe(0);
  });
});

describe('stellarAddress', () => {
  it('matches SEP-0005 test vectors (the S… secret seeds decoded to ed25519 private keys)', () => {
    const vectors = [
      // Test 1, m/44'/148'/0' and m/44'/148'/1'.
      ['SBGWSG6BTNCKCOB3DIFBGCVMUPQFYPA2G4O34RMTB343OYPXU5DJDVMN', 'GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6'],
      ['SCEPFFWGAG5P2VX5DHIYK3XEMZYLTYWIPWYEKXFHSK25RVMIUNJ7CTIS', 'GBAW5XGWORWVFE2XTJYDTLDHXTY2Q2MO73HYCGB3XMFMQ562Q2W2GJQX'],
      // Test 3, m/44'/148'/0'.
      ['SAEWIVK3VLNEJ3WEJRZXQGDAS5NVG2BYSYDFRSH4GKVTS5RXNVED5AX7', 'GC3MMSXBWHL6CPOAVERSJITX7BH76YU252WGLUOM5CJX3E7UCYZBTPJQ'],
    ] as const;
    for (const [seed, address] of vectors) {
      const pk = ed25519.getPublicKey(new Uint8Array(StrKey.decodeEd25519SecretSeed(seed)));
      expect(stellarAddress(pk)).toBe(address);
    }
  });

  it('agrees with @stellar/stellar-base for fixed keys', () => {
    for (const sk of FIXED_PRIVATE_KEYS) {
      const pk = ed25519.getPublicKey(sk);
      expect(stellarAddress(pk)).toBe(reference(pk));
    }
  });

  it('agrees with @stellar/stellar-base for random keys, always G + 55 base32 characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (sk) => {
        const pk = ed25519.getPublicKey(sk);
        const address = stellarAddress(pk);
        expect(address).toMatch(/^G[A-Z2-7]{55}$/);
        expect(address).toBe(reference(pk));
        expect(StrKey.isValidEd25519PublicKey(address)).toBe(true);
      }),
    );
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => stellarAddress(new Uint8Array(64))).toThrow(/publicKey must be 32 bytes/);
  });
});

describe('STELLAR_ADDRESS_FORMATS', () => {
  it('declares ADDRESS_FORMAT_XLM for ed25519 only, encoding with stellarAddress', () => {
    expect(Object.keys(STELLAR_ADDRESS_FORMATS)).toEqual(['ADDRESS_FORMAT_XLM']);
    const spec = STELLAR_ADDRESS_FORMATS['ADDRESS_FORMAT_XLM']!;
    expect(spec.curves).toEqual(['CURVE_ED25519']);
    const pk = ed25519.getPublicKey(FIXED_PRIVATE_KEYS[0]!);
    expect(spec.encode('CURVE_ED25519', pk)).toBe(stellarAddress(pk));
  });
});
