/**
 * P-256 key helpers: generation, SEC1 compression, and Turnkey-compatible signing (DER hex over
 * SHA-256 of the message, as `@turnkey/api-key-stamper` produces). Signing is used by tests and the
 * CLI to stamp requests; the server itself only verifies.
 */
import { createECDH } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { assertBytes, assertString, decodeHex, encodeHex } from '../encoding.js';

/** A P-256 key pair, all hex: the way Turnkey API keys are written down. */
export type TP256KeyPair = {
  /** 32-byte private scalar, hex. */
  privateKey: string;
  /** 33-byte compressed SEC1 point, hex (`02…`/`03…`): the API key's public key. */
  publicKey: string;
  /** 65-byte uncompressed SEC1 point, hex (`04…`). */
  publicKeyUncompressed: string;
};

/**
 * Generates a random P-256 key pair from the CSPRNG, or — given `seed` (at least 48 bytes, reduced
 * mod n) — the one key pair that seed names (fixed-seed test installations only).
 */
export function generateP256KeyPair(seed?: Uint8Array): TP256KeyPair {
  const secretKey = p256.utils.randomSecretKey(seed);
  // The public point by OpenSSL: one native multiplication, where noble's first one builds its
  // precomputed tables (~0.1 s, paid by every launcher's first start for the server keys).
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(secretKey);
  return {
    privateKey: encodeHex(secretKey),
    publicKey: ecdh.getPublicKey('hex', 'compressed'),
    publicKeyUncompressed: ecdh.getPublicKey('hex', 'uncompressed'),
  };
}

function decodePoint(publicKeyHex: string, field: string) {
  assertString(publicKeyHex, field);
  const bytes = decodeHex(publicKeyHex);
  if (!bytes || (bytes.length !== 33 && bytes.length !== 65)) {
    throw new TypeError(`${field} must be a 33- or 65-byte SEC1 P-256 public key in hex`);
  }
  try {
    return p256.Point.fromBytes(bytes);
  } catch {
    throw new TypeError(`${field} is not a point on P-256: ${publicKeyHex}`);
  }
}

/**
 * Compresses a SEC1 P-256 public key (either form accepted) to 33-byte hex.
 * @throws {TypeError} if the input is not hex of a valid P-256 point.
 */
export function compressP256PublicKey(publicKeyHex: string): string {
  return decodePoint(publicKeyHex, 'publicKeyHex').toHex(true);
}

/**
 * Decompresses a SEC1 P-256 public key (either form accepted) to 65-byte `04…` hex.
 * @throws {TypeError} if the input is not hex of a valid P-256 point.
 */
export function decompressP256PublicKey(publicKeyHex: string): string {
  return decodePoint(publicKeyHex, 'publicKeyHex').toHex(false);
}

/**
 * Whether `publicKeyHex` is a 33-byte compressed SEC1 point on P-256 (hex, either case): the only
 * form Turnkey accepts as an API public key.
 */
export function isCompressedP256PublicKey(publicKeyHex: string): boolean {
  if (typeof publicKeyHex !== 'string') return false;
  const bytes = decodeHex(publicKeyHex);
  if (!bytes || bytes.length !== 33) return false;
  try {
    p256.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Signs `message` with ECDSA P-256 / SHA-256 and returns the DER signature as lowercase hex: the
 * `signature` of an `SIGNATURE_SCHEME_TK_API_P256` stamp. Deterministic (RFC 6979), and S is not
 * normalised, exactly like the api-key-stamper's pure-JS runtime, so its vectors reproduce.
 * @throws {TypeError} if the private key is not 32-byte hex of a valid scalar, or `message` is not bytes.
 */
export function signP256(privateKeyHex: string, message: Uint8Array): string {
  assertString(privateKeyHex, 'privateKeyHex');
  assertBytes(message, 'message');
  const secretKey = decodeHex(privateKeyHex);
  if (!secretKey || secretKey.length !== 32 || !p256.utils.isValidSecretKey(secretKey)) {
    throw new TypeError('privateKeyHex must be a 32-byte P-256 private key in hex');
  }
  return encodeHex(p256.sign(message, secretKey, { prehash: true, lowS: false, format: 'der' }));
}
