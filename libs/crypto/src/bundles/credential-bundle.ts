/**
 * Credential bundles: the `credentialBundle` of OTP / OAuth / email auth, read-write sessions and
 * recovery, opened by `@turnkey/crypto` `decryptCredentialBundle`.
 *
 * `bs58check(compressed enc (33 bytes) ‖ ciphertext)`, where the plaintext is the raw 32-byte
 * P-256 private key of a freshly created API key. Unlike export/import bundles there is no
 * signature: possession of the target private key is the whole proof.
 */
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { p256PublicFromPrivate } from './bundle-inputs.js';
import { hpkeSeal } from './hpke.js';

const base58check = createBase58check(sha256);

/**
 * Encrypts a P-256 API private key to the client's target key as a credential bundle.
 * @throws {BundleError} INVALID_PRIVATE_KEY if `privateKey32` is not a P-256 private key;
 *   INVALID_PUBLIC_KEY if the target is not a P-256 point (compressed or uncompressed hex).
 */
export async function createCredentialBundle(privateKey32: Uint8Array, targetPublicKey: string): Promise<string> {
  // A credential is always a P-256 API key, so anything else is a bug upstream.
  p256PublicFromPrivate(privateKey32, 'privateKey32');
  const { encappedPublic, ciphertext } = await hpkeSeal(privateKey32, targetPublicKey);
  const compressedEnc = p256.Point.fromBytes(encappedPublic).toBytes(true);
  const payload = new Uint8Array(compressedEnc.length + ciphertext.length);
  payload.set(compressedEnc, 0);
  payload.set(ciphertext, compressedEnc.length);
  return base58check.encode(payload);
}

