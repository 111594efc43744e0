/**
 * Verifier for `SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191`: the Ethereum wallet stamper's
 * `personal_sign` (EIP-191) over the body string, checked against a compressed secp256k1 key.
 *
 * The wallet returns `r||s||v`, which `@turnkey/crypto.toDerSignature` turns into DER before it is
 * sent; raw 64/65-byte signatures are accepted too in case a client skips that step. Not a hot path
 * (wallet logins), so noble is fine here.
 */
import { secp256k1 } from '../keys/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { StampError } from '../errors.js';
import { assertBytes, decodeHex } from '../encoding.js';
import type { TApiKeyStamp } from './api-key-stamp.types.js';

/** EIP-191 version 0x45 ("personal_sign") digest of `message`. */
export function eip191Digest(message: Uint8Array): Uint8Array {
  assertBytes(message, 'message');
  // The length is the decimal byte length, not the UTF-16 length of the string.
  const prefix = Buffer.from(`\x19Ethereum Signed Message:\n${message.length}`, 'utf8');
  return keccak_256(Buffer.concat([prefix, message]));
}

function verifyAs(
  signature: Uint8Array,
  format: 'der' | 'compact',
  digest: Uint8Array,
  publicKey: Uint8Array,
): boolean {
  try {
    // prehash: false because the digest is already keccak256; lowS: false = plain ECDSA, matching
    // how the P-256 scheme is verified (malleability does not matter for a request stamp).
    return secp256k1.verify(signature, digest, publicKey, { prehash: false, lowS: false, format });
  } catch {
    return false;
  }
}

/**
 * Verifies a secp256k1 EIP-191 API-key stamp over `body`.
 * @throws {StampError} `SIGNATURE_INVALID` if the public key is not a compressed secp256k1 point or
 *   the signature (DER, or raw `r||s` / `r||s||v`) does not verify.
 */
export function verifySecp256k1Eip191Stamp(stamp: TApiKeyStamp, body: Uint8Array): void {
  assertBytes(body, 'body');
  const publicKey = decodeHex(stamp.publicKey);
  let validKey = false;
  if (publicKey && publicKey.length === 33) {
    try {
      secp256k1.Point.fromBytes(publicKey);
      validKey = true;
    } catch {
      validKey = false;
    }
  }
  if (!publicKey || !validKey) {
    throw new StampError(
      'SIGNATURE_INVALID',
      `public key ${stamp.publicKey} is not a compressed (33-byte) secp256k1 point`,
    );
  }
  const signature = decodeHex(stamp.signature) ?? new Uint8Array();
  const digest = eip191Digest(body);
  // Try DER first, then raw. A 64/65-byte string could in principle parse both ways; accepting
  // either is safe because each is then a valid signature by this key over this digest.
  let ok = signature.length > 0 && signature.length <= 72 && verifyAs(signature, 'der', digest, publicKey);
  if (!ok && (signature.length === 64 || signature.length === 65)) {
    // The recovery byte `v` is not needed: the public key is given.
    ok = verifyAs(signature.subarray(0, 64), 'compact', digest, publicKey);
  }
  if (!ok) {
    throw new StampError(
      'SIGNATURE_INVALID',
      `secp256k1 EIP-191 signature does not verify for public key ${stamp.publicKey}`,
    );
  }
}
