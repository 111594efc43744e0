/**
 * The nonce rule of Turnkey's OIDC logins: an id_token presented with a session key must carry
 * `nonce = sha256_hex(publicKey)` of that key, so a token minted for one key cannot log in another.
 */
import { createHash } from 'node:crypto';

/** sha256 hex of the public key's hex text, as the client puts it in the OIDC request's nonce. */
export function oidcNonceForPublicKey(publicKeyHex: string): string {
  return createHash('sha256').update(publicKeyHex, 'utf8').digest('hex');
}
