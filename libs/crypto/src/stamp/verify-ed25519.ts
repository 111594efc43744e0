/**
 * Verifier for `SIGNATURE_SCHEME_TK_API_ED25519`: the Solana wallet stamper's raw 64-byte Ed25519
 * signature (hex) over the UTF-8 body, checked against a 32-byte public key (hex). node:crypto
 * (OpenSSL) is used: it applies the strict RFC 8032 checks (canonical S), matching tweetnacl,
 * which Solana wallets sign with.
 */
import { verify } from 'node:crypto';
import { StampError } from '../errors.js';
import { assertBytes, decodeHex } from '../encoding.js';
import { ed25519PublicKeyObject } from '../keys/key-objects.js';
import type { TApiKeyStamp } from './api-key-stamp.types.js';

/**
 * Verifies an Ed25519 API-key stamp over `body`.
 * @throws {StampError} `SIGNATURE_INVALID` if the public key is not 32 bytes, the signature is not
 *   64 bytes, or it does not verify.
 */
export function verifyEd25519Stamp(stamp: TApiKeyStamp, body: Uint8Array): void {
  assertBytes(body, 'body');
  const publicKey = decodeHex(stamp.publicKey);
  const keyObject = publicKey && publicKey.length === 32 ? ed25519PublicKeyObject(publicKey) : undefined;
  if (!keyObject) {
    throw new StampError(
      'SIGNATURE_INVALID',
      `public key ${stamp.publicKey} is not a 32-byte Ed25519 public key`,
    );
  }
  const signature = decodeHex(stamp.signature);
  let ok = false;
  if (signature && signature.length === 64) {
    try {
      ok = verify(null, body, keyObject, signature);
    } catch {
      ok = false;
    }
  }
  if (!ok) {
    throw new StampError(
      'SIGNATURE_INVALID',
      `Ed25519 signature does not verify for public key ${stamp.publicKey}`,
    );
  }
}
