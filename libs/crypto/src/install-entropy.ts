/**
 * Where an installation's first-start steps get their keys and ids from. Always the CSPRNG
 * (`randomEntropy`) — except for test instances that ask for a fixed seed (`fixedSeedEntropy`), so a
 * snapshot test sees the same root API key, server keys and root ids on every run.
 *
 * A fixed seed is FOR TESTS ONLY: anyone who knows the seed recomputes every private key derived
 * from it. Each value is HKDF-SHA256(seed, info = "latchkey fixed seed v1 " ‖ label), so the labels
 * keep the keys independent of one another and of the ids.
 */
import { randomBytes } from 'node:crypto';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { newId } from './ids.js';
import { generateP256KeyPair, type TP256KeyPair } from './keys/p256.js';

export interface TInstallEntropy {
  /** True for a fixed seed (the launcher says so loudly at every start). */
  readonly fixed: boolean;
  /** A P-256 key pair for the purpose `label` names. */
  p256KeyPair(label: string): TP256KeyPair;
  /** An id (UUIDv7 shape) for the record `label` names. */
  id(label: string): string;
  /** `length` bytes for the secret `label` names. */
  bytes(label: string, length: number): Uint8Array;
}

/** The CSPRNG: what every real installation uses. */
export const randomEntropy: TInstallEntropy = {
  fixed: false,
  p256KeyPair: () => generateP256KeyPair(),
  id: () => newId(),
  bytes: (_label, length) => new Uint8Array(randomBytes(length)),
};

/** 2026-01-01T00:00:00Z: the timestamp part of every fixed id (they sort before anything made later). */
const FIXED_ID_MS = 1_767_225_600_000;

/**
 * Keys and ids derived from `seed` (at least 16 bytes). FOR TESTS ONLY.
 * @throws RangeError when the seed is shorter than 16 bytes.
 */
export function fixedSeedEntropy(seed: Uint8Array): TInstallEntropy {
  if (seed.length < 16) throw new RangeError(`a fixed seed must be at least 16 bytes, got ${seed.length}`);
  const derive = (label: string, length: number) => hkdf(sha256, seed, undefined, new TextEncoder().encode(`latchkey fixed seed v1 ${label}`), length);
  return {
    fixed: true,
    // 48 bytes reduced mod n by noble's hash-to-field (FIPS 186-5 A.2.1): no bias worth a test's concern.
    p256KeyPair: (label) => generateP256KeyPair(derive(`p256:${label}`, 48)),
    id: (label) => {
      const b = derive(`id:${label}`, 16);
      // UUIDv7 layout (as newId): 48-bit ms timestamp, version 7, variant 10, the rest derived.
      let ms = FIXED_ID_MS;
      for (let i = 5; i >= 0; i--) {
        b[i] = ms % 256;
        ms = Math.floor(ms / 256);
      }
      b[6] = 0x70 | (b[6]! & 0x0f);
      b[8] = 0x80 | (b[8]! & 0x3f);
      const hex = Buffer.from(b).toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
    bytes: (label, length) => derive(`bytes:${label}`, length),
  };
}
