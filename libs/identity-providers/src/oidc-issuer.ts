/**
 * Latchkey as an OpenID issuer, for the tokens oauth2_authenticate hands out: the signing (ES256
 * with the server's `oidc_issuer` key), the public JWK set and the discovery document the public
 * API publishes at `/oauth2/jwks` and `/.well-known/openid-configuration`. Any OIDC verifier —
 * Latchkey's own oauth_login included — checks the tokens the standard way from those two.
 *
 * The token (a standard ES256 JWT, header `{alg: "ES256", typ: "JWT", kid}`):
 *  - `iss`: the public API's base URL (LATCHKEY_PUBLIC_URL);
 *  - `sub`: `<provider>:<provider user id>`, `x:…` or `discord:…` — namespaced because both
 *    providers share the one issuer;
 *  - `aud`: the OAuth 2.0 credential's client id (the app's id at the provider);
 *  - `nonce`: as the caller gave it (sha256 hex of the session key, for oauth_login);
 *  - `iat`, `exp` (one hour later), `jti`;
 *  - `encrypted_bearer_token` (only when a `bearerTokenTargetPublicKey` was given): the provider's
 *    access token, HPKE-encrypted (notes §5) to that key, as the JSON string
 *    `{"encappedPublic":"04…","ciphertext":"…"}` (both hex) — the format of import bundles, opened
 *    with `@turnkey/crypto` `hpkeDecrypt({ciphertextBuf, encappedKeyBuf, receiverPriv})`.
 *
 * The key id is the RFC 7638 thumbprint of the public JWK, so it changes exactly when the key does.
 */
import { calculateJwkThumbprint, importJWK, SignJWT, type JWK } from 'jose';

/** Lifetime of an issued token. */
export const OIDC_TOKEN_TTL_SECONDS = 3600;
export const OIDC_JWKS_PATH = '/oauth2/jwks';
export const OIDC_DISCOVERY_PATH = '/.well-known/openid-configuration';

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/**
 * The public JWK (with `kid`, `alg`, `use`) of an uncompressed P-256 key in hex.
 * @throws Error when the key is not 65-byte uncompressed hex
 */
export async function oidcIssuerJwk(publicKeyUncompressedHex: string): Promise<JWK & { kid: string }> {
  const raw = Buffer.from(publicKeyUncompressedHex, 'hex');
  if (raw.length !== 65 || raw[0] !== 0x04) throw new Error('the OIDC issuer key must be an uncompressed P-256 public key in hex');
  const jwk = { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) };
  return { ...jwk, kid: await calculateJwkThumbprint(jwk, 'sha256'), alg: 'ES256', use: 'sig' };
}

/** `GET /oauth2/jwks`. */
export async function oidcIssuerJwks(publicKeyUncompressedHex: string): Promise<{ keys: JWK[] }> {
  return { keys: [await oidcIssuerJwk(publicKeyUncompressedHex)] };
}

/** `GET /.well-known/openid-configuration` for `issuer` (no trailing slash). */
export function oidcDiscoveryDocument(issuer: string): Record<string, unknown> {
  return {
    issuer,
    jwks_uri: `${issuer}${OIDC_JWKS_PATH}`,
    id_token_signing_alg_values_supported: ['ES256'],
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'jti', 'encrypted_bearer_token'],
  };
}

export interface TIssuedTokenClaims {
  issuer: string;
  subject: string;
  audience: string;
  nonce: string;
  jti: string;
  now: Date;
  encryptedBearerToken?: string;
}

/**
 * Signs a token with the issuer key (32-byte private scalar and its uncompressed public key).
 * @throws Error when the key pair is unusable
 */
export async function signOidcToken(key: { privateKey: Uint8Array; publicKeyUncompressedHex: string }, c: TIssuedTokenClaims): Promise<string> {
  const jwk = await oidcIssuerJwk(key.publicKeyUncompressedHex);
  const signingKey = await importJWK({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: b64url(key.privateKey) }, 'ES256');
  const iat = Math.floor(c.now.getTime() / 1000);
  return new SignJWT({ nonce: c.nonce, ...(c.encryptedBearerToken !== undefined ? { encrypted_bearer_token: c.encryptedBearerToken } : {}) })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: jwk.kid })
    .setIssuer(c.issuer)
    .setSubject(c.subject)
    .setAudience(c.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + OIDC_TOKEN_TTL_SECONDS)
    .setJti(c.jti)
    .sign(signingKey);
}
