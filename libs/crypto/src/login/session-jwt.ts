/**
 * The session JWT returned by `stamp_login`, `otp_login` and `oauth_login` (protocol notes §6).
 *
 * A compact JWS, header `{"alg":"ES256","typ":"JWT"}`, whose payload names the session key the
 * client will stamp with (`public_key`), the user, the (sub-)organization and the expiry in
 * **seconds**. Clients only base64-decode it (`@turnkey/core` `parseSession`); backends may check
 * it with `@turnkey/crypto` `verifySessionJwtSignature(jwt, notarizerPublicKey)`, whose signature
 * rule is Turnkey's own: ECDSA P-256 over **sha256(sha256(header.payload))**, i.e. the Rust signer
 * hashes the SHA-256 of the signing input once more. A standard ES256 verifier (jose) therefore
 * rejects these tokens; that is expected. Here the notarizer is this server's session-signing key.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeBase64Url } from '../encoding.js';
import { LoginTokenError } from './login-errors.js';
import {
  assertEs256JwtHeader,
  decodeCompactJws,
  encodeJwsPart,
  p256PublicKeyFromHex,
  p256SecretKeyFromHex,
  signDigestCompact,
  verifyDigestCompact,
} from './jws.js';

/** Session types Turnkey issues; a session profile may name its own. */
export const SESSION_TYPES = ['SESSION_TYPE_READ_WRITE', 'SESSION_TYPE_READ_ONLY'] as const;

/** The payload, with wire (snake_case) claim names. */
export type TSessionJwtClaims = {
  /** Expiry, epoch **seconds** (clients compute `exp * 1000 - now`). */
  exp: number;
  /** The session public key (hex SEC1 P-256, compressed as clients send it). */
  public_key: string;
  /** `SESSION_TYPE_READ_WRITE`, `SESSION_TYPE_READ_ONLY`, or a session-profile type. */
  session_type: string;
  user_id: string;
  /** The organization the user (and so the session) lives in: the sub-org when logging in to one. */
  organization_id: string;
  session_profile_id?: string;
  /** The profile's policy-language scope, e.g. `activity.action == 'SIGN'`. */
  scope?: string;
};

export type TDecodedSessionJwt = {
  header: Record<string, unknown>;
  claims: TSessionJwtClaims;
};

const TOKEN = 'session JWT';
// 10^11 s is the year 5138; a larger `exp` is almost certainly milliseconds by mistake.
const MAX_EXP_SECONDS = 1e11;
const REQUIRED_STRING_CLAIMS = ['public_key', 'session_type', 'user_id', 'organization_id'] as const;
const OPTIONAL_STRING_CLAIMS = ['session_profile_id', 'scope'] as const;

function assertClaimsToSign(claims: TSessionJwtClaims): void {
  if (typeof claims !== 'object' || claims === null) {
    throw new TypeError('claims must be an object');
  }
  if (!Number.isSafeInteger(claims.exp) || claims.exp <= 0) {
    throw new TypeError('claims.exp must be a positive integer (epoch seconds)');
  }
  if (claims.exp >= MAX_EXP_SECONDS) {
    throw new TypeError('claims.exp must be in seconds, not milliseconds');
  }
  for (const name of REQUIRED_STRING_CLAIMS) {
    if (typeof claims[name] !== 'string' || claims[name].length === 0) {
      throw new TypeError(`claims.${name} must be a non-empty string`);
    }
  }
  // Also guards against binding something that is not a public key (a private key, say).
  p256PublicKeyFromHex(claims.public_key, 'claims.public_key');
  for (const name of OPTIONAL_STRING_CLAIMS) {
    const value = claims[name];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0)) {
      throw new TypeError(`claims.${name} must be a non-empty string when present`);
    }
  }
}

/** sha256(sha256(signingInput)): the digest Turnkey's notarizer signs. */
function sessionDigest(signingInput: string): Uint8Array {
  return sha256(sha256(new TextEncoder().encode(signingInput)));
}

/**
 * Signs a session JWT with the notarizer key.
 *
 * Claims are written in the order Turnkey uses (exp, public_key, session_type, user_id,
 * organization_id, then the optional ones); optional claims that are `undefined` are left out.
 * @throws {TypeError} if a claim is missing or mistyped (`exp` must be whole seconds), `public_key`
 *   is not a P-256 point, or the private key is not 32-byte P-256 hex.
 */
export function signSessionJwt(claims: TSessionJwtClaims, notarizerPrivateKeyHex: string): string {
  assertClaimsToSign(claims);
  const secretKey = p256SecretKeyFromHex(notarizerPrivateKeyHex, 'notarizerPrivateKeyHex');
  const payload: TSessionJwtClaims = {
    exp: claims.exp,
    public_key: claims.public_key,
    session_type: claims.session_type,
    user_id: claims.user_id,
    organization_id: claims.organization_id,
    ...(claims.session_profile_id !== undefined ? { session_profile_id: claims.session_profile_id } : {}),
    ...(claims.scope !== undefined ? { scope: claims.scope } : {}),
  };
  const signingInput = `${encodeJwsPart({ alg: 'ES256', typ: 'JWT' })}.${encodeJwsPart(payload)}`;
  try {
    return `${signingInput}.${encodeBase64Url(signDigestCompact(sessionDigest(signingInput), secretKey))}`;
  } finally {
    secretKey.fill(0);
  }
}

function claimsOf(payload: Record<string, unknown>): TSessionJwtClaims {
  const exp = payload['exp'];
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= 0) {
    throw new LoginTokenError('MISSING_CLAIM', `${TOKEN} claim "exp" must be a positive number (seconds)`);
  }
  const strings: Record<string, string> = {};
  for (const name of REQUIRED_STRING_CLAIMS) {
    const value = payload[name];
    if (typeof value !== 'string' || value.length === 0) {
      throw new LoginTokenError('MISSING_CLAIM', `${TOKEN} claim "${name}" must be a non-empty string`);
    }
    strings[name] = value;
  }
  const claims: TSessionJwtClaims = {
    exp,
    public_key: strings['public_key']!,
    session_type: strings['session_type']!,
    user_id: strings['user_id']!,
    organization_id: strings['organization_id']!,
  };
  for (const name of OPTIONAL_STRING_CLAIMS) {
    const value = payload[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      throw new LoginTokenError('MISSING_CLAIM', `${TOKEN} claim "${name}" must be a string when present`);
    }
    claims[name] = value;
  }
  return claims;
}

/**
 * Decodes a session JWT **without verifying it** (what clients do), checking the claims clients
 * require.
 * @throws {LoginTokenError} MALFORMED, or MISSING_CLAIM if exp / public_key / session_type /
 *   user_id / organization_id is missing or mistyped.
 */
export function decodeSessionJwt(jwt: string): TDecodedSessionJwt {
  const { header, payload } = decodeCompactJws(jwt, TOKEN);
  return { header, claims: claimsOf(payload) };
}

/**
 * Verifies a session JWT against the notarizer public key (either SEC1 form) with Turnkey's
 * double-SHA-256 rule, and returns its claims. Expiry is not checked: the session credential's own
 * expiry governs requests.
 * @throws {LoginTokenError} MALFORMED, UNSUPPORTED_HEADER, BAD_SIGNATURE, MISSING_CLAIM.
 * @throws {TypeError} if `notarizerPublicKeyHex` is not a P-256 public key.
 */
export function verifySessionJwt(jwt: string, notarizerPublicKeyHex: string): TSessionJwtClaims {
  const publicKey = p256PublicKeyFromHex(notarizerPublicKeyHex, 'notarizerPublicKeyHex');
  const { header, payload, signature, signingInput } = decodeCompactJws(jwt, TOKEN);
  assertEs256JwtHeader(header, TOKEN);
  if (!verifyDigestCompact(signature, sessionDigest(signingInput), publicKey)) {
    throw new LoginTokenError('BAD_SIGNATURE', `${TOKEN} signature does not verify with the notarizer key`);
  }
  return claimsOf(payload);
}
