/** Tests for the KeyObject cache behind the P-256 and Ed25519 verifiers. */
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { KEY_OBJECT_CACHE_SIZE, keyObjectCacheSizes, p256PublicKeyObject } from './key-objects.js';

function compressedP256(): Uint8Array {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const point = spki.subarray(spki.length - 65);
  const compressed = new Uint8Array(33);
  compressed[0] = (point[64]! & 1) === 0 ? 0x02 : 0x03;
  compressed.set(point.subarray(1, 33), 1);
  return compressed;
}

describe('p256PublicKeyObject', () => {
  it('returns the cached KeyObject for a key seen before', () => {
    const key = compressedP256();
    const first = p256PublicKeyObject(key);
    expect(first).toBeDefined();
    expect(p256PublicKeyObject(new Uint8Array(key))).toBe(first);
  });

  it('stays bounded under a flood of distinct keys, and does not cache failures', () => {
    for (let i = 0; i < KEY_OBJECT_CACHE_SIZE + 50; i += 1) p256PublicKeyObject(compressedP256());
    expect(keyObjectCacheSizes().p256).toBe(KEY_OBJECT_CACHE_SIZE);
    const bogus = new Uint8Array(33).fill(0xff);
    bogus[0] = 0x02;
    expect(p256PublicKeyObject(bogus)).toBeUndefined();
    expect(keyObjectCacheSizes().p256).toBe(KEY_OBJECT_CACHE_SIZE);
  });

  it('evicts the least recently used key first', () => {
    const keep = compressedP256();
    const kept = p256PublicKeyObject(keep);
    for (let i = 0; i < KEY_OBJECT_CACHE_SIZE - 1; i += 1) {
      p256PublicKeyObject(compressedP256());
      if (i % 100 === 0) p256PublicKeyObject(keep); // keep it warm
    }
    p256PublicKeyObject(keep);
    for (let i = 0; i < 10; i += 1) p256PublicKeyObject(compressedP256());
    expect(p256PublicKeyObject(keep)).toBe(kept);
  });
});
