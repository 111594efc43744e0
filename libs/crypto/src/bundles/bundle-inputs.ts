/**
 * Input assertions shared by the bundle builders (internal to `bundles/`, not re-exported).
 *
 * Every public bundle function is a security boundary, so each asserts its arguments here and
 * fails with a `BundleError` naming the field. Messages never include the offending value when it
 * could be secret.
 */
import { p256 } from '@noble/curves/nist.js';
import { decodeHex } from '../encoding.js';
import { BundleError } from './bundle-error.js';

/** Asserts a Uint8Array, optionally of an exact length or at least one byte. */
export function assertBytes(
  value: unknown,
  field: string,
  opts: { length?: number; nonEmpty?: boolean } = {},
): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new BundleError('INVALID_ARGUMENT', `${field} must be a Uint8Array`);
  }
  if (opts.length !== undefined && value.length !== opts.length) {
    throw new BundleError('INVALID_ARGUMENT', `${field} must be ${opts.length} bytes, got ${value.length}`);
  }
  if (opts.nonEmpty && value.length === 0) {
    throw new BundleError('INVALID_ARGUMENT', `${field} must not be empty`);
  }
}

/** Asserts a non-empty string (ids bound into signed bundles: an empty one would bind nothing). */
export function assertNonEmptyString(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new BundleError('INVALID_ARGUMENT', `${field} must be a non-empty string`);
  }
}

/**
 * Parses hex of a SEC1 P-256 public key, compressed (33 bytes) or uncompressed (65 bytes), either
 * case, and returns the 65-byte uncompressed form: the only form Turnkey's HPKE puts in
 * kem_context and the AAD, so every key is normalised to it before use.
 * @throws {BundleError} INVALID_PUBLIC_KEY
 */
export function uncompressedP256FromHex(value: unknown, field: string): Uint8Array {
  if (typeof value !== 'string') {
    throw new BundleError('INVALID_PUBLIC_KEY', `${field} must be a hex string`);
  }
  const bytes = decodeHex(value);
  if (!bytes || (bytes.length !== 33 && bytes.length !== 65)) {
    throw new BundleError('INVALID_PUBLIC_KEY', `${field} must be a 33- or 65-byte SEC1 P-256 public key in hex`);
  }
  return uncompressedP256FromBytes(bytes, field);
}

/**
 * Validates SEC1 P-256 point bytes (either form) and returns the uncompressed 65 bytes.
 * Rejects the identity and off-curve points (noble's `fromBytes` checks both).
 * @throws {BundleError} INVALID_PUBLIC_KEY
 */
export function uncompressedP256FromBytes(bytes: Uint8Array, field: string): Uint8Array {
  try {
    return p256.Point.fromBytes(bytes).toBytes(false);
  } catch {
    throw new BundleError('INVALID_PUBLIC_KEY', `${field} is not a point on P-256`);
  }
}

/**
 * Asserts 32 bytes of a valid P-256 scalar (1 ≤ d < n) and returns its uncompressed public key.
 * @throws {BundleError} INVALID_PRIVATE_KEY
 */
export function p256PublicFromPrivate(privateKey: unknown, field: string): Uint8Array {
  if (!(privateKey instanceof Uint8Array) || privateKey.length !== 32 || !p256.utils.isValidSecretKey(privateKey)) {
    throw new BundleError('INVALID_PRIVATE_KEY', `${field} must be a 32-byte P-256 private key`);
  }
  return p256.getPublicKey(privateKey, false);
}

/**
 * Decodes a hex field of a parsed bundle; `minLength` in bytes.
 * @throws {BundleError} BUNDLE_MALFORMED
 */
export function hexField(value: unknown, field: string, minLength = 1): Uint8Array {
  const bytes = typeof value === 'string' ? decodeHex(value) : undefined;
  if (!bytes || bytes.length < minLength) {
    throw new BundleError('BUNDLE_MALFORMED', `${field} must be hex of at least ${minLength} bytes`);
  }
  return bytes;
}
