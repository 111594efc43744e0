/**
 * The public half of webhook signing: fresh keys, and the JWKS document served unauthenticated at
 * `GET /public/v1/discovery/webhooks/jwks` (§B4) from which receivers take `x` (hex-decoded) as
 * the key `verifyTurnkeyWebhookSignature` expects.
 */
import { randomBytes } from 'node:crypto';
import { decodeHex, encodeBase64Url } from '../encoding.js';
import type { TInstallEntropy } from '../install-entropy.js';
import { createWebhookSigner, WEBHOOK_SIGNATURE_ALGORITHM, WEBHOOK_SIGNATURE_VERSION, type TWebhookSigner } from './sign-webhook.js';

/** Turnkey's production cache header: receivers refetch on an unknown `kid` anyway. */
export const WEBHOOK_JWKS_CACHE_CONTROL = 'public, max-age=86400, s-maxage=86400, stale-if-error=604800';

export interface TWebhookJwk {
  kid: string;
  kty: 'OKP';
  crv: 'Ed25519';
  alg: 'EdDSA';
  use: 'sig';
  x: string;
  turnkey_signature_algorithm: 'ed25519';
  turnkey_signature_version: 'v1';
}

/** A newly generated key: the seed is to be sealed by the key vault at once, never stored in clear. */
export interface TNewWebhookSigningKey {
  keyId: string;
  seed: Uint8Array;
  signer: TWebhookSigner;
}

/**
 * A new Ed25519 webhook signing key. Its id, `whk_<date>_<8 random hex>`, says when it was made (handy
 * when rotating) and is safe inside the signed string and a header.
 */
export function generateWebhookSigningKey(now = new Date(), entropy?: Pick<TInstallEntropy, 'bytes'>): TNewWebhookSigningKey {
  const seed = entropy ? entropy.bytes('webhook-signing-key', 32) : new Uint8Array(randomBytes(32));
  const suffix = entropy ? Buffer.from(entropy.bytes('webhook-signing-key-id', 4)).toString('hex') : randomBytes(4).toString('hex');
  const keyId = `whk_${now.toISOString().slice(0, 10).replaceAll('-', '')}_${suffix}`;
  return { keyId, seed, signer: createWebhookSigner(keyId, seed) };
}

/**
 * One JWKS entry from a key id and its raw public key (64 hex characters).
 * @throws {TypeError} if the public key is not 32 bytes of hex.
 */
export function webhookJwk(keyId: string, publicKeyHex: string): TWebhookJwk {
  const raw = decodeHex(publicKeyHex);
  if (!raw || raw.length !== 32) throw new TypeError(`publicKeyHex must be 64 hex characters (a raw Ed25519 key), got ${JSON.stringify(publicKeyHex)}`);
  return {
    kid: keyId,
    kty: 'OKP',
    crv: 'Ed25519',
    alg: 'EdDSA',
    use: 'sig',
    x: encodeBase64Url(raw),
    turnkey_signature_algorithm: WEBHOOK_SIGNATURE_ALGORITHM,
    turnkey_signature_version: WEBHOOK_SIGNATURE_VERSION,
  };
}

/**
 * The JWKS body and its headers for the published keys (the current key and those retired within
 * their grace period, newest first as given).
 * @throws {TypeError} as `webhookJwk`.
 */
export function buildWebhookJwks(keys: readonly { keyId: string; publicKeyHex: string }[]): { body: { keys: TWebhookJwk[] }; headers: Record<string, string> } {
  return {
    body: { keys: keys.map((k) => webhookJwk(k.keyId, k.publicKeyHex)) },
    headers: { 'Content-Type': 'application/json', 'Cache-Control': WEBHOOK_JWKS_CACHE_CONTROL },
  };
}
