/** fixedSeedEntropy: the same seed gives the same keys and ids, labels keep them apart, shapes hold. */
import { p256 } from '@noble/curves/nist.js';
import { describe, expect, it } from 'vitest';
import { idTimestamp } from './ids.js';
import { fixedSeedEntropy, randomEntropy } from './install-entropy.js';

const SEED = new Uint8Array(32).fill(7);
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('fixedSeedEntropy', () => {
  it('derives the same key pairs, ids and bytes from the same seed, on every call', () => {
    const a = fixedSeedEntropy(SEED);
    const b = fixedSeedEntropy(Uint8Array.from(SEED));
    expect(a.fixed).toBe(true);
    expect(a.p256KeyPair('server-key:signer')).toEqual(b.p256KeyPair('server-key:signer'));
    expect(a.id('root-organization')).toBe(b.id('root-organization'));
    expect(a.bytes('webhook-signing-key', 32)).toEqual(b.bytes('webhook-signing-key', 32));
  });

  it('gives different values for different labels and different seeds', () => {
    const a = fixedSeedEntropy(SEED);
    const other = fixedSeedEntropy(new Uint8Array(32).fill(8));
    expect(a.p256KeyPair('server-key:signer').privateKey).not.toBe(a.p256KeyPair('server-key:notarizer').privateKey);
    expect(a.p256KeyPair('root-api-key').privateKey).not.toBe(other.p256KeyPair('root-api-key').privateKey);
    expect(new Set(['root-organization', 'root-user', 'root-api-key'].map((l) => a.id(l))).size).toBe(3);
    expect(a.id('root-user')).not.toBe(other.id('root-user'));
  });

  it('makes valid P-256 key pairs and UUIDv7-shaped ids at a fixed instant', () => {
    const e = fixedSeedEntropy(SEED);
    const kp = e.p256KeyPair('root-api-key');
    expect(kp.publicKey).toBe(Buffer.from(p256.getPublicKey(Buffer.from(kp.privateKey, 'hex'), true)).toString('hex'));
    expect(kp.publicKeyUncompressed).toMatch(/^04[0-9a-f]{128}$/);
    const id = e.id('root-organization');
    expect(id).toMatch(UUID_V7);
    expect(idTimestamp(id)?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuses a seed shorter than 16 bytes', () => {
    expect(() => fixedSeedEntropy(new Uint8Array(15))).toThrow(/at least 16 bytes, got 15/);
  });
});

describe('randomEntropy', () => {
  it('is not fixed and gives fresh values each call', () => {
    expect(randomEntropy.fixed).toBe(false);
    expect(randomEntropy.p256KeyPair('x').privateKey).not.toBe(randomEntropy.p256KeyPair('x').privateKey);
    expect(randomEntropy.id('x')).not.toBe(randomEntropy.id('x'));
    expect(randomEntropy.id('x')).toMatch(UUID_V7);
  });
});
