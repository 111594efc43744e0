/**
 * TVC manifest approvals: an operator's P-256 public key (uncompressed SEC1, `04…` in hex, as
 * Turnkey's operators are written) and its ECDSA P-256 / SHA-256 signature, DER in hex, over the
 * exact manifest bytes. Verified with @noble/curves: approvals are rare (a few per deployment),
 * so the 30x speed of node:crypto that the stamp check needs buys nothing here, and a pure
 * implementation keeps the check independent of the OpenSSL build.
 *
 * High-S signatures are accepted, as for API-key stamps: node:crypto and WebCrypto signers emit
 * either half and operators sign with whatever they have. Malleability is harmless here: an
 * approval is recorded once per operator and manifest, whatever its encoding.
 */
import { p256 } from '@noble/curves/nist.js';
import { assertBytes, assertString, decodeHex } from '../encoding.js';

// A DER ECDSA P-256 signature is at most 72 bytes (two 33-byte INTEGERs and their headers).
const MAX_DER_SIGNATURE_BYTES = 72;

/**
 * Whether `publicKeyHex` is a 65-byte uncompressed SEC1 point on P-256 (`04…`, 130 hex digits,
 * either case). Compressed keys are refused: operators are named by their uncompressed key.
 */
export function isUncompressedP256PublicKey(publicKeyHex: string): boolean {
  assertString(publicKeyHex, 'publicKeyHex');
  if (publicKeyHex.length !== 130 || !/^04/.test(publicKeyHex)) return false;
  const bytes = decodeHex(publicKeyHex);
  if (!bytes) return false;
  try {
    p256.Point.fromBytes(bytes).assertValidity();
    return true;
  } catch {
    return false;
  }
}

/**
 * Verifies an operator's approval: `signatureHex` (DER, hex) is an ECDSA P-256 signature over
 * SHA-256 of `message` by `publicKeyHex` (uncompressed SEC1, hex).
 * @returns false for a signature that is not hex, not DER, too long, or does not verify
 * @throws {TypeError} if the public key is not an uncompressed P-256 point or `message` is not bytes
 */
export function verifyManifestApproval(publicKeyHex: string, signatureHex: string, message: Uint8Array): boolean {
  assertBytes(message, 'message');
  assertString(signatureHex, 'signatureHex');
  if (!isUncompressedP256PublicKey(publicKeyHex)) throw new TypeError('publicKeyHex must be an uncompressed P-256 public key (04…, 130 hex digits)');
  const signature = decodeHex(signatureHex);
  if (!signature || signature.length === 0 || signature.length > MAX_DER_SIGNATURE_BYTES) return false;
  try {
    return p256.verify(signature, message, decodeHex(publicKeyHex)!, { format: 'der', prehash: true, lowS: false });
  } catch {
    // noble throws on DER it cannot parse; that is a signature that does not verify.
    return false;
  }
}
