/**
 * node:crypto KeyObjects for raw public keys, behind a small LRU cache (internal).
 *
 * Stamps carry raw SEC1 / Ed25519 public keys, but node:crypto only imports structured formats, so
 * the raw key is wrapped in a fixed SPKI DER prefix. Importing a key costs about as much as one
 * verification, and the same few API keys sign almost every request, hence the cache. It is bounded
 * so a flood of distinct (possibly bogus) keys cannot grow memory; failed imports are not cached.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { decodeHex, encodeHex } from '../encoding.js';

// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (0 unused bits) <point> }
const P256_SPKI_COMPRESSED_PREFIX = Buffer.from(
  '3039301306072a8648ce3d020106082a8648ce3d030107032200',
  'hex',
);
const P256_SPKI_UNCOMPRESSED_PREFIX = Buffer.from(
  '3059301306072a8648ce3d020106082a8648ce3d030107034200',
  'hex',
);
// SEQUENCE { SEQUENCE { id-Ed25519 }, BIT STRING (0 unused bits) <32-byte key> }
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Maximum number of cached KeyObjects per key type. */
export const KEY_OBJECT_CACHE_SIZE = 1024;

class LruCache<V> {
  readonly #entries = new Map<string, V>();

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      // Map iteration order is insertion order: re-inserting marks the entry most recently used.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

const p256Cache = new LruCache<KeyObject>(KEY_OBJECT_CACHE_SIZE);
const ed25519Cache = new LruCache<KeyObject>(KEY_OBJECT_CACHE_SIZE);

/**
 * KeyObject for a SEC1 P-256 point, compressed (33 bytes, 02/03) or uncompressed (65 bytes, 04).
 * Returns `undefined` if the bytes are not a point on the curve.
 */
/**
 * Like {@link p256PublicKeyObject}, from lowercase hex, looking the cache up before decoding —
 * the hot path of every stamped request.
 */
export function p256PublicKeyObjectFromHex(hex: string): KeyObject | undefined {
  const cached = p256Cache.get(hex);
  if (cached) return cached;
  const point = decodeHex(hex);
  return point ? p256PublicKeyObject(point) : undefined;
}

export function p256PublicKeyObject(point: Uint8Array): KeyObject | undefined {
  let prefix: Buffer;
  if (point.length === 33 && (point[0] === 0x02 || point[0] === 0x03)) {
    prefix = P256_SPKI_COMPRESSED_PREFIX;
  } else if (point.length === 65 && point[0] === 0x04) {
    prefix = P256_SPKI_UNCOMPRESSED_PREFIX;
  } else {
    return undefined;
  }
  const cacheKey = encodeHex(point);
  const cached = p256Cache.get(cacheKey);
  if (cached) return cached;
  let keyObject: KeyObject;
  try {
    // OpenSSL checks that the point lies on the curve while importing.
    keyObject = createPublicKey({ key: Buffer.concat([prefix, point]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
  p256Cache.set(cacheKey, keyObject);
  return keyObject;
}

/** KeyObject for a raw 32-byte Ed25519 public key; `undefined` if it cannot be imported. */
export function ed25519PublicKeyObject(publicKey: Uint8Array): KeyObject | undefined {
  if (publicKey.length !== 32) return undefined;
  const cacheKey = encodeHex(publicKey);
  const cached = ed25519Cache.get(cacheKey);
  if (cached) return cached;
  let keyObject: KeyObject;
  try {
    keyObject = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]),
      format: 'der',
      type: 'spki',
    });
  } catch {
    return undefined;
  }
  ed25519Cache.set(cacheKey, keyObject);
  return keyObject;
}

/** Cache sizes, for tests. */
export function keyObjectCacheSizes(): { p256: number; ed25519: number } {
  return { p256: p256Cache.size, ed25519: ed25519Cache.size };
}
