/** Tests for Aptos addresses: Aptos SDK vectors and agreement with @aptos-labs/ts-sdk. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { AuthenticationKey, Ed25519PublicKey } from '@aptos-labs/ts-sdk';
import { APTOS_ADDRESS_FORMATS, aptosAddress } from './aptos.js';

const FIXED_PRIVATE_KEYS = [new Uint8Array(32).fill(1), hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')];
// Long form always: toString() would shorten the (astronomically unlikely) special addresses 0x0-0xf.
const reference = (publicKey: Uint8Array) =>
  AuthenticationKey.fromPublicKey({ publicKey: new Ed25519PublicKey(publicKey) }).derivedAddress().toStringLong();

describe('aptosAddress', () => {
  it('matches the ed25519 account vector shared by the Aptos TS, Go and Swift SDK tests', () => {
    const pk = ed25519.getPublicKey(hexToBytes('c5338cd251c22daa8c9c9cc94f498cc8a5c7e1d2e75287a5dda91096fe64efa5'));
    expect(Buffer.from(pk).toString('hex')).toBe('de19e5d1880cac87d57484ce9ed2e84cf0f9599f12e7cc3a52e4e7657a763f2c');
    expect(aptosAddress(pk)).toBe('0x978c213990c4833df71548df7ce49d54c759d6b6d932de22b24d56060b7af2aa');
  });

  it('matches the authentication-key vector of the aptos-core TS SDK v2 tests', () => {
    const pk = hexToBytes('719ab6a6d406931ca80efa922e3377390a8d2803e42ecdbf394e979f9a5e57bc');
    expect(aptosAddress(pk)).toBe('0x6324287105756b0338e0f84025bd0ac80e58154eb94257b0d4f06ec6497e656e');
  });

  it('agrees with @aptos-labs/ts-sdk for fixed keys', () => {
    for (const sk of FIXED_PRIVATE_KEYS) {
      const pk = ed25519.getPublicKey(sk);
      expect(aptosAddress(pk)).toBe(reference(pk));
    }
  });

  it('agrees with @aptos-labs/ts-sdk for random keys, always 0x + 64 lowercase hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (sk) => {
        const pk = ed25519.getPublicKey(sk);
        const address = aptosAddress(pk);
        expect(address).toMatch(/^0x[0-9a-f]{64}$/);
        expect(address).toBe(reference(pk));
      }),
    );
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => aptosAddress(new Uint8Array(0))).toThrow(/publicKey must be 32 bytes/);
  });
});

describe('APTOS_ADDRESS_FORMATS', () => {
  it('declares ADDRESS_FORMAT_APTOS for ed25519 only, encoding with aptosAddress', () => {
    expect(Object.keys(APTOS_ADDRESS_FORMATS)).toEqual(['ADDRESS_FORMAT_APTOS']);
    const spec = APTOS_ADDRESS_FORMATS['ADDRESS_FORMAT_APTOS']!;
    expect(spec.curves).toEqual(['CURVE_ED25519']);
    const pk = ed25519.getPublicKey(FIXED_PRIVATE_KEYS[0]!);
    expect(spec.encode('CURVE_ED25519', pk)).toBe(aptosAddress(pk));
  });
});
