/** Tests for Solana addresses: published vectors and agreement with @solana/web3.js. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { PublicKey } from '@solana/web3.js';
import { SOLANA_ADDRESS_FORMATS, solanaAddress } from './solana.js';

const FIXED_PRIVATE_KEYS = [new Uint8Array(32).fill(1), hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')];
const reference = (publicKey: Uint8Array) => new PublicKey(publicKey).toBase58();

describe('solanaAddress', () => {
  it('matches the published @solana/web3.js keypair vectors', () => {
    // Keypair tests of solana-labs/solana-web3.js and michaelhly/solana-py.
    const secret = hexToBytes('99da9559e15e913ee9ab2e53e3dfad575da33b49be1125bb922e33494f498828');
    expect(solanaAddress(ed25519.getPublicKey(secret))).toBe('2q7pyhPwAwZ3QMfZrnAbDhnh9mDUqycszcpf86VgQxhF');
    expect(solanaAddress(ed25519.getPublicKey(new Uint8Array(32).fill(8)))).toBe('2KW2XRd9kwqet15Aha2oK3tYvd3nWbTFH1MBiRAv1BE1');
  });

  it('keeps leading zero bytes as leading 1s (the System Program id is 32 zero bytes)', () => {
    expect(solanaAddress(new Uint8Array(32))).toBe('11111111111111111111111111111111');
  });

  it('agrees with @solana/web3.js for fixed keys', () => {
    for (const sk of FIXED_PRIVATE_KEYS) {
      const pk = ed25519.getPublicKey(sk);
      expect(solanaAddress(pk)).toBe(reference(pk));
    }
  });

  it('agrees with @solana/web3.js for random keys', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (sk) => {
        const pk = ed25519.getPublicKey(sk);
        expect(solanaAddress(pk)).toBe(reference(pk));
      }),
    );
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => solanaAddress(new Uint8Array(33))).toThrow(TypeError);
    expect(() => solanaAddress(new Uint8Array(31))).toThrow(/publicKey must be 32 bytes/);
  });
});

describe('SOLANA_ADDRESS_FORMATS', () => {
  it('declares ADDRESS_FORMAT_SOLANA for ed25519 only, encoding with solanaAddress', () => {
    expect(Object.keys(SOLANA_ADDRESS_FORMATS)).toEqual(['ADDRESS_FORMAT_SOLANA']);
    const spec = SOLANA_ADDRESS_FORMATS['ADDRESS_FORMAT_SOLANA']!;
    expect(spec.curves).toEqual(['CURVE_ED25519']);
    const pk = ed25519.getPublicKey(FIXED_PRIVATE_KEYS[0]!);
    expect(spec.encode('CURVE_ED25519', pk)).toBe(solanaAddress(pk));
  });
});
