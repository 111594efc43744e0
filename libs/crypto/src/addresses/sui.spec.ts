/** Tests for Sui addresses: Sui CLI vectors and agreement with @mysten/sui. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import { SUI_ADDRESS_FORMATS, suiAddress } from './sui.js';

const FIXED_PRIVATE_KEYS = [new Uint8Array(32).fill(1), hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')];
const reference = (publicKey: Uint8Array) => new Ed25519PublicKey(publicKey).toSuiAddress();

describe('suiAddress', () => {
  it('matches the vectors MystenLabs generated with the Sui CLI (`sui keytool list`)', () => {
    const vectors = [
      ['UdGRWooy48vGTs0HBokIis5NK+DUjiWc9ENUlcfCCBE=', '0xd77a6cd55073e98d4029b1b0b8bd8d88f45f343dad2732fc9a7965094e635c55'],
      ['0PTAfQmNiabgbak9U/stWZzKc5nsRqokda2qnV2DTfg=', '0x7e8fd489c3d3cd9cc7cbcc577dc5d6de831e654edd9997d95c412d013e6eea23'],
    ] as const;
    for (const [publicKey, address] of vectors) expect(suiAddress(Buffer.from(publicKey, 'base64'))).toBe(address);
  });

  it('agrees with @mysten/sui for fixed keys', () => {
    for (const sk of FIXED_PRIVATE_KEYS) {
      const pk = ed25519.getPublicKey(sk);
      expect(suiAddress(pk)).toBe(reference(pk));
    }
  });

  it('agrees with @mysten/sui for random keys, always 0x + 64 lowercase hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (sk) => {
        const pk = ed25519.getPublicKey(sk);
        const address = suiAddress(pk);
        expect(address).toMatch(/^0x[0-9a-f]{64}$/);
        expect(address).toBe(reference(pk));
      }),
    );
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => suiAddress(new Uint8Array(33))).toThrow(/publicKey must be 32 bytes/);
  });
});

describe('SUI_ADDRESS_FORMATS', () => {
  it('declares ADDRESS_FORMAT_SUI for ed25519 only, encoding with suiAddress', () => {
    expect(Object.keys(SUI_ADDRESS_FORMATS)).toEqual(['ADDRESS_FORMAT_SUI']);
    const spec = SUI_ADDRESS_FORMATS['ADDRESS_FORMAT_SUI']!;
    expect(spec.curves).toEqual(['CURVE_ED25519']);
    const pk = ed25519.getPublicKey(FIXED_PRIVATE_KEYS[0]!);
    expect(spec.encode('CURVE_ED25519', pk)).toBe(suiAddress(pk));
  });
});
