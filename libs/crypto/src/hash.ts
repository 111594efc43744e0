/**
 * Hashing helpers: hex SHA-256 and the activity fingerprint Turnkey exposes on every activity.
 */
import { createHash } from 'node:crypto';
import { assertBytes } from './encoding.js';

/**
 * Lowercase hex SHA-256 of `bytes`.
 * @throws {TypeError} if `bytes` is not a Uint8Array.
 */
export function sha256Hex(bytes: Uint8Array): string {
  assertBytes(bytes, 'bytes');
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The activity fingerprint, `"sha256:" + hex(sha256(rawBody))`.
 *
 * It must be computed over the exact request bytes (not a re-serialisation): `@turnkey/crypto`'s
 * `computeActivityFingerprint` does the same on the client, and identical bodies must dedupe to the
 * same activity.
 * @throws {TypeError} if `rawBody` is not a Uint8Array.
 */
export function activityFingerprint(rawBody: Uint8Array): string {
  return `sha256:${sha256Hex(rawBody)}`;
}
