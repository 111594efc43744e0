/** Tests for TON wallet addresses: published vectors and agreement with @ton/ton / @ton/core. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { Address } from '@ton/core';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import {
  TON_ADDRESS_FORMATS,
  TON_WALLET_CODE,
  tonFriendlyAddress,
  tonWalletAccountId,
  tonWalletAddress,
  type TTonWalletVersion,
} from './ton.js';

const FIXED_PRIVATE_KEYS = [new Uint8Array(32).fill(1), hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')];
const VERSIONS: readonly TTonWalletVersion[] = ['V3R2', 'V4R2', 'V5R1'];

/** The same wallet built by @ton/ton with its defaults (workchain 0, default wallet ids). */
function referenceWallet(version: TTonWalletVersion, publicKey: Uint8Array) {
  const args = { workchain: 0, publicKey: Buffer.from(publicKey) };
  switch (version) {
    case 'V3R2':
      return WalletContractV3R2.create(args);
    case 'V4R2':
      return WalletContractV4.create(args);
    case 'V5R1':
      return WalletContractV5R1.create(args);
  }
}
const reference = (version: TTonWalletVersion, publicKey: Uint8Array) =>
  referenceWallet(version, publicKey).address.toString({ urlSafe: true, bounceable: false, testOnly: false });

describe('TON_WALLET_CODE', () => {
  it.each(VERSIONS)('%s: hash and depth are those of the code cell @ton/ton deploys', (version) => {
    const { code } = referenceWallet(version, new Uint8Array(32)).init;
    expect(TON_WALLET_CODE[version]).toEqual({ hash: code.hash().toString('hex'), depth: code.depth() });
  });
});

describe('tonWalletAddress', () => {
  it('V4R2 matches the tonutils-go vector (default subwallet)', () => {
    const pk = hexToBytes('dcc39550bb494f4b493e7efe1aa18ea31470f33a2553c568cb74a17ed56790c1');
    expect(tonWalletAddress('V4R2', pk)).toBe('UQAwwdowWbBKkrnRlbY8CUEzy_pgK9pIvOKP2eqcD01EWl2U');
  });

  it('V5R1 matches the TonSwift vector (mainnet, workchain 0)', () => {
    const pk = hexToBytes('5754865e86d0ade1199301bbb0319a25ed6b129c4b0a57f28f62449b3df9c522');
    expect(tonWalletAddress('V5R1', pk)).toBe('UQBiUbwjoB56b7CYtoiPnY5vPh2Fwjva6jEPBhqnttjQKpce');
  });

  it('V3R2 matches the TonSwift vector (published bounceable, so compare the account id)', () => {
    const pk = hexToBytes('5754865e86d0ade1199301bbb0319a25ed6b129c4b0a57f28f62449b3df9c522');
    const published = Buffer.from('EQA0D_5WdusaCB-SpnoE6l5TzdBmgOkzTcXrdh0px6g3zJSk', 'base64url');
    expect([published[0], published[1]]).toEqual([0x11, 0x00]);
    expect(bytesToHex(tonWalletAccountId('V3R2', pk))).toBe(bytesToHex(published.subarray(2, 34)));
  });

  it.each(VERSIONS)('%s agrees with @ton/ton for fixed keys', (version) => {
    for (const sk of FIXED_PRIVATE_KEYS) {
      const pk = ed25519.getPublicKey(sk);
      expect(tonWalletAddress(version, pk)).toBe(reference(version, pk));
    }
  });

  it.each(VERSIONS)('%s agrees with @ton/ton for random keys, always a 48-character UQ… address', (version) => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (sk) => {
        const pk = ed25519.getPublicKey(sk);
        const address = tonWalletAddress(version, pk);
        expect(address).toMatch(/^UQ[A-Za-z0-9_-]{46}$/);
        expect(address).toBe(reference(version, pk));
      }),
    );
  });

  it('gives each wallet version a different address for the same key', () => {
    const pk = ed25519.getPublicKey(FIXED_PRIVATE_KEYS[0]!);
    expect(new Set(VERSIONS.map((v) => tonWalletAddress(v, pk))).size).toBe(VERSIONS.length);
  });

  it('refuses a key that is not 32 bytes, and an unknown version', () => {
    expect(() => tonWalletAddress('V4R2', new Uint8Array(33))).toThrow(/publicKey must be 32 bytes/);
    expect(() => tonWalletAddress('V9' as TTonWalletVersion, new Uint8Array(32))).toThrow(/unknown TON wallet version V9/);
  });
});

describe('tonFriendlyAddress', () => {
  it('is the non-bounceable, URL-safe, mainnet form @ton/core prints', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (hash) => {
        const expected = new Address(0, Buffer.from(hash)).toString({ urlSafe: true, bounceable: false, testOnly: false });
        expect(tonFriendlyAddress(hash)).toBe(expected);
        const parsed = Address.parseFriendly(expected);
        expect([parsed.isBounceable, parsed.isTestOnly, parsed.address.workChain]).toEqual([false, false, 0]);
      }),
    );
  });

  it('refuses an account id that is not 32 bytes', () => {
    expect(() => tonFriendlyAddress(new Uint8Array(20))).toThrow(/accountId must be 32 bytes/);
  });
});

describe('TON_ADDRESS_FORMATS', () => {
  it('declares the three wallet formats, each for ed25519 only', () => {
    expect(Object.keys(TON_ADDRESS_FORMATS)).toEqual(['ADDRESS_FORMAT_TON_V3R2', 'ADDRESS_FORMAT_TON_V4R2', 'ADDRESS_FORMAT_TON_V5R1']);
    const pk = ed25519.getPublicKey(FIXED_PRIVATE_KEYS[0]!);
    for (const version of VERSIONS) {
      const spec = TON_ADDRESS_FORMATS[`ADDRESS_FORMAT_TON_${version}`]!;
      expect(spec.curves).toEqual(['CURVE_ED25519']);
      expect(spec.encode('CURVE_ED25519', pk)).toBe(tonWalletAddress(version, pk));
    }
  });
});
