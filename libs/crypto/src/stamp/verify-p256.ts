/**
 * Verifier for `SIGNATURE_SCHEME_TK_API_P256`: ECDSA P-256 / SHA-256 over the raw request body,
 * DER signature in hex, compressed SEC1 public key in hex.
 *
 * This runs on every API request, so it uses node:crypto (OpenSSL), about 30x faster than a pure-JS
 * verify, with imported keys cached. High-S signatures are accepted on purpose: Node's and
 * WebCrypto's signers emit either S half and Turnkey does not normalise (see the protocol notes §1),
 * and OpenSSL's ECDSA verify has no low-S rule.
 */
import { verify } from 'node:crypto';
import { StampError } from '../errors.js';
import { assertBytes, decodeHex } from '../encoding.js';
import { p256PublicKeyObjectFromHex } from '../keys/key-objects.js';
import type { TApiKeyStamp } from './api-key-stamp.types.js';

// A DER ECDSA P-256 signature is at most 72 bytes; anything larger cannot verify.
const MAX_DER_SIGNATURE_BYTES = 72;

/**
 * Verifies a P-256 API-key stamp over `body`.
 * @throws {StampError} `SIGNATURE_INVALID` if the public key is not a 33-byte compressed P-256
 *   point, the signature is not DER, or it does not verify.
 */
export function verifyP256Stamp(stamp: TApiKeyStamp, body: Uint8Array): void {
  assertBytes(body, 'body');
  // 66 hex characters = a 33-byte compressed point; anything else is refused before any work.
  const keyObject = stamp.publicKey.length === 66 ? p256PublicKeyObjectFromHex(stamp.publicKey.toLowerCase()) : undefined;
  if (!keyObject) {
    throw new StampError(
      'SIGNATURE_INVALID',
      `public key ${stamp.publicKey} is not a compressed (33-byte) P-256 point`,
    );
  }
  const signature = decodeHex(stamp.signature);
  let ok = false;
  if (signature && signature.length > 0 && signature.length <= MAX_DER_SIGNATURE_BYTES) {
    try {
      ok = verify('sha256', body, keyObject, signature);
    } catch {
      // OpenSSL rejects some malformed DER by throwing rather than returning false.
      ok = false;
    }
  }
  if (!ok) {
    throw new StampError(
      'SIGNATURE_INVALID',
      `P-256 signature does not verify for public key ${stamp.publicKey}`,
    );
  }
}
