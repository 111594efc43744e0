/**
 * Verifies OpenID Connect id-tokens for oauth_login and oauth (notes §8): the token names its
 * issuer; the issuer's discovery document names its JWKS; the signature must verify against that
 * JWKS with an asymmetric algorithm the issuer advertises; then expiry, nonce and audience.
 *
 * Why it is built this way:
 *  - Any issuer is accepted as long as it is https (the organization's OAuth providers decide
 *    later which issuers mean anything). Plain http only for the issuers the server names
 *    (`httpIssuers`: its own, and development identity providers from LATCHKEY_OIDC_HTTP_ISSUERS),
 *    so a token cannot make the server fetch from an arbitrary http address — a service on its
 *    own loopback included; the library default, for tests, is any loopback issuer.
 *  - The discovery document must name exactly the token's issuer, so a token cannot borrow
 *    another issuer's keys by pointing at its discovery URL.
 *  - Discovery documents and key sets are cached per issuer (10 minutes by default) so one login
 *    costs no outbound request; jose refetches a key set when it sees an unknown `kid`
 *    (key rotation), at most once per cool-down.
 *  - Errors carry a stable `reason` and a message naming what failed, never the token itself.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, customFetch, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { TIdTokenVerifyOptions, TVerifiedIdToken } from '@latchkey/domain';

/** Why a token was refused. */
export type TOidcErrorReason =
  /** Not a compact JWS with a JSON payload, or a required claim (iss, sub, aud, exp, iat) is missing. */
  | 'MALFORMED'
  /** The issuer is not an https URL (or loopback http, when allowed). */
  | 'ISSUER_NOT_ALLOWED'
  /** The discovery document or the key set could not be fetched or is unusable. */
  | 'DISCOVERY_FAILED'
  /** No key of the issuer verifies the signature, or the algorithm is not allowed. */
  | 'SIGNATURE_INVALID'
  /** `exp` has passed. */
  | 'EXPIRED'
  /** `iat` or `nbf` lies in the future. */
  | 'NOT_YET_VALID'
  /** `nonce` is missing or differs from the expected one. */
  | 'NONCE_MISMATCH'
  /** No `aud` is one of the expected audiences. */
  | 'AUDIENCE_MISMATCH';

export class OidcError extends Error {
  override readonly name = 'OidcError';

  constructor(
    readonly reason: TOidcErrorReason,
    message: string,
  ) {
    super(message);
  }
}

export interface TOidcVerifierOptions {
  /**
   * The http:// issuers accepted (https ones always are): `'loopback'`, any issuer on 127.0.0.1,
   * localhost or [::1] (tests, development); or exactly these issuer strings, whose key sets
   * may be served over http from the issuer's own origin only. Default `'loopback'`; the platform
   * passes its list (`readOidcHttpIssuers`).
   */
  httpIssuers?: 'loopback' | readonly string[];
  /** How long a discovery document and its key set are reused. Default 10 minutes. */
  cacheTtlMs?: number;
  /** Per request (discovery, key set). Default 5 s. */
  timeoutMs?: number;
  /** Tolerated clock skew for exp / iat / nbf. Default 60 s. */
  clockToleranceSeconds?: number;
  /** For tests and proxies; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** The options and result types are the engine port's, declared in @latchkey/domain. */
export type TOidcVerifyOptions = TIdTokenVerifyOptions;
export type { TVerifiedIdToken };

export interface TOidcVerifier {
  /** @throws OidcError */
  verify(idToken: string, opts?: TOidcVerifyOptions): Promise<TVerifiedIdToken>;
}

/** Asymmetric JWS algorithms we accept; never `none` or HMAC (whose "key" would be public). */
const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const MAX_TOKEN_LENGTH = 16_384;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** Issuers come from untrusted tokens: bound what they can make us remember. */
const MAX_CACHED_ISSUERS = 256;


interface TIssuerEntry {
  expiresAt: number;
  algorithms: string[];
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

/** A short, safe rendering of an untrusted string for an error message. */
function quote(s: string): string {
  const clipped = s.length > 120 ? `${s.slice(0, 120)}…` : s;
  return JSON.stringify(clipped.replace(/[^\x20-\x7e]/g, '?'));
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createOidcVerifier(options: TOidcVerifierOptions = {}): TOidcVerifier {
  const httpIssuers = options.httpIssuers ?? 'loopback';
  const httpOrigins = new Set(httpIssuers === 'loopback' ? [] : httpIssuers.map((i) => new URL(i).origin));
  const ttl = options.cacheTtlMs ?? 10 * 60_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const tolerance = options.clockToleranceSeconds ?? 60;
  const doFetch = options.fetch ?? fetch;
  const cache = new Map<string, TIssuerEntry>();
  // Concurrent logins against a cold issuer share one discovery request.
  const pending = new Map<string, Promise<TIssuerEntry>>();

  /** A plain-http URL may be fetched when it is a listed issuer (any loopback one by default), or a key set on a listed issuer's origin. */
  function httpAllowed(u: URL, value: string, what: string): boolean {
    if (httpIssuers === 'loopback') return LOOPBACK.has(u.hostname);
    return what === 'issuer' ? httpIssuers.includes(value) : httpOrigins.has(u.origin);
  }

  /** @throws OidcError ISSUER_NOT_ALLOWED */
  function assertAllowedUrl(value: string, what: string): URL {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      throw new OidcError('ISSUER_NOT_ALLOWED', `${what} is not a URL: ${quote(value)}`);
    }
    if (u.username || u.password || u.search || u.hash) throw new OidcError('ISSUER_NOT_ALLOWED', `${what} must have no credentials, query or fragment: ${quote(value)}`);
    if (u.protocol === 'https:') return u;
    if (u.protocol === 'http:') {
      if (httpAllowed(u, value, what)) return u;
      throw new OidcError(
        'ISSUER_NOT_ALLOWED',
        httpIssuers === 'loopback'
          ? `${what} ${quote(value)} must use https (plain http only on 127.0.0.1, localhost or [::1])`
          : `${what} ${quote(value)} must use https: plain http is accepted only for the issuers this server names (its own and LATCHKEY_OIDC_HTTP_ISSUERS)${what === 'issuer' ? '' : ', from their own origin'}`,
      );
    }
    throw new OidcError('ISSUER_NOT_ALLOWED', `${what} ${quote(value)} must use https`);
  }

  async function discover(iss: string): Promise<TIssuerEntry> {
    const url = `${iss.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    let doc: unknown;
    try {
      const res = await doFetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) throw new OidcError('DISCOVERY_FAILED', `discovery for issuer ${quote(iss)} answered HTTP ${res.status}`);
      doc = await res.json();
    } catch (e) {
      if (e instanceof OidcError) throw e;
      const name = (e as { name?: unknown }).name;
      const why = name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : name === 'SyntaxError' ? 'the document is not JSON' : 'the request failed';
      throw new OidcError('DISCOVERY_FAILED', `discovery for issuer ${quote(iss)} failed: ${why}`);
    }
    if (typeof doc !== 'object' || doc === null) throw new OidcError('DISCOVERY_FAILED', `discovery for issuer ${quote(iss)}: the document is not a JSON object`);
    const d = doc as { issuer?: unknown; jwks_uri?: unknown; id_token_signing_alg_values_supported?: unknown };
    if (d.issuer !== iss) {
      throw new OidcError('DISCOVERY_FAILED', `discovery for issuer ${quote(iss)} names a different issuer ${typeof d.issuer === 'string' ? quote(d.issuer) : '(none)'}`);
    }
    if (typeof d.jwks_uri !== 'string') throw new OidcError('DISCOVERY_FAILED', `discovery for issuer ${quote(iss)} has no jwks_uri`);
    let jwksUrl: URL;
    try {
      jwksUrl = assertAllowedUrl(d.jwks_uri, 'jwks_uri');
    } catch (e) {
      throw new OidcError('DISCOVERY_FAILED', `discovery for issuer ${quote(iss)}: ${(e as Error).message}`);
    }
    // Required by OpenID Connect Discovery; RS256 is its mandatory default when a sloppy issuer omits it.
    const advertised = Array.isArray(d.id_token_signing_alg_values_supported) ? d.id_token_signing_alg_values_supported.filter((a): a is string => typeof a === 'string') : ['RS256'];
    const algorithms = advertised.filter((a) => ASYMMETRIC_ALGORITHMS.includes(a));
    if (algorithms.length === 0) throw new OidcError('DISCOVERY_FAILED', `issuer ${quote(iss)} advertises no asymmetric id-token algorithm we accept (${ASYMMETRIC_ALGORITHMS.join(', ')})`);
    const jwks = createRemoteJWKSet(jwksUrl, {
      timeoutDuration: timeoutMs,
      cooldownDuration: 30_000,
      cacheMaxAge: ttl,
      [customFetch]: (u: string, init: RequestInit) => doFetch(u, { ...init, redirect: 'error' }),
    });
    return { expiresAt: Date.now() + ttl, algorithms, jwks };
  }

  async function issuerEntry(iss: string): Promise<TIssuerEntry> {
    const hit = cache.get(iss);
    if (hit && hit.expiresAt > Date.now()) return hit;
    let p = pending.get(iss);
    if (!p) {
      p = discover(iss).finally(() => pending.delete(iss));
      pending.set(iss, p);
    }
    const entry = await p;
    cache.delete(iss);
    if (cache.size >= MAX_CACHED_ISSUERS) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(iss, entry);
    return entry;
  }

  /** Maps a jose failure to a reason; anything unexpected is a signature failure (fail closed). */
  function fromJose(e: unknown, iss: string): OidcError {
    if (e instanceof OidcError) return e;
    if (e instanceof joseErrors.JWTExpired) return new OidcError('EXPIRED', `id-token from ${quote(iss)} expired (exp ${String(e.payload.exp)})`);
    if (e instanceof joseErrors.JWTClaimValidationFailed) {
      if (e.reason === 'missing') return new OidcError('MALFORMED', `id-token from ${quote(iss)} has no ${e.claim}`);
      switch (e.claim) {
        case 'aud':
          return new OidcError('AUDIENCE_MISMATCH', `id-token from ${quote(iss)} is not for an expected audience`);
        case 'nbf':
        case 'iat':
          return new OidcError('NOT_YET_VALID', `id-token from ${quote(iss)} is not valid yet (${e.claim} in the future)`);
        default:
          return new OidcError('MALFORMED', `id-token from ${quote(iss)}: claim ${e.claim} is invalid`);
      }
    }
    if (e instanceof joseErrors.JOSEAlgNotAllowed) return new OidcError('SIGNATURE_INVALID', `id-token from ${quote(iss)} is signed with an algorithm the issuer does not advertise`);
    if (e instanceof joseErrors.JWKSNoMatchingKey) return new OidcError('SIGNATURE_INVALID', `no key of issuer ${quote(iss)} matches the id-token`);
    if (e instanceof joseErrors.JWKSMultipleMatchingKeys) return new OidcError('SIGNATURE_INVALID', `the id-token from ${quote(iss)} does not say which of the issuer's keys signed it`);
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) return new OidcError('SIGNATURE_INVALID', `the id-token's signature does not verify with the keys of ${quote(iss)}`);
    if (e instanceof joseErrors.JWKSTimeout) return new OidcError('DISCOVERY_FAILED', `the key set of ${quote(iss)} did not answer in ${timeoutMs} ms`);
    if (e instanceof joseErrors.JWKSInvalid) return new OidcError('DISCOVERY_FAILED', `the key set of ${quote(iss)} is not a valid JWKS`);
    if (e instanceof joseErrors.JWSInvalid || e instanceof joseErrors.JWTInvalid) return new OidcError('MALFORMED', `id-token from ${quote(iss)} is malformed`);
    if (e instanceof joseErrors.JOSENotSupported) return new OidcError('SIGNATURE_INVALID', `id-token from ${quote(iss)} uses a key or algorithm that is not supported`);
    if (e instanceof joseErrors.JOSEError) return new OidcError('DISCOVERY_FAILED', `the key set of ${quote(iss)} could not be fetched`);
    if (e instanceof TypeError || (e as { name?: unknown }).name === 'TimeoutError') return new OidcError('DISCOVERY_FAILED', `the key set of ${quote(iss)} could not be fetched`);
    return new OidcError('SIGNATURE_INVALID', `id-token from ${quote(iss)} could not be verified`);
  }

  return {
    async verify(idToken, opts = {}) {
      if (typeof idToken !== 'string' || idToken.length === 0 || idToken.length > MAX_TOKEN_LENGTH) {
        throw new OidcError('MALFORMED', `id-token must be a compact JWT of at most ${MAX_TOKEN_LENGTH} characters`);
      }
      let unverified: JWTPayload;
      try {
        unverified = decodeJwt(idToken);
      } catch {
        throw new OidcError('MALFORMED', 'id-token is not a compact JWT (header.payload.signature, base64url JSON)');
      }
      const iss = unverified.iss;
      if (typeof iss !== 'string' || iss === '') throw new OidcError('MALFORMED', 'id-token has no iss claim');
      if (opts.allowedIssuers && !opts.allowedIssuers.includes(iss)) throw new OidcError('ISSUER_NOT_ALLOWED', `issuer ${quote(iss)} is not one this server accepts`);
      assertAllowedUrl(iss, 'issuer');

      const entry = await issuerEntry(iss);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, entry.jwks, {
          issuer: iss,
          algorithms: entry.algorithms,
          clockTolerance: tolerance,
          requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
          ...(opts.expectedAudiences ? { audience: opts.expectedAudiences } : {}),
          ...(opts.now ? { currentDate: opts.now } : {}),
        }));
      } catch (e) {
        throw fromJose(e, iss);
      }
      // jose checks iat only against maxTokenAge; a token from the future is refused here.
      const nowSec = Math.floor((opts.now ?? new Date()).getTime() / 1000);
      if (typeof payload.iat !== 'number' || payload.iat > nowSec + tolerance) throw new OidcError('NOT_YET_VALID', `id-token from ${quote(iss)} is not valid yet (iat in the future)`);
      if (typeof payload.sub !== 'string' || payload.sub === '') throw new OidcError('MALFORMED', `id-token from ${quote(iss)} has no sub`);

      const audiences = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud.filter((a): a is string => typeof a === 'string') : [];
      if (audiences.length === 0) throw new OidcError('MALFORMED', `id-token from ${quote(iss)} has no aud`);
      const azp = typeof payload['azp'] === 'string' ? payload['azp'] : undefined;
      const aud = opts.expectedAudiences
        ? audiences.find((a) => opts.expectedAudiences!.includes(a))
        : azp !== undefined && audiences.includes(azp)
          ? azp
          : audiences[0];
      if (aud === undefined) throw new OidcError('AUDIENCE_MISMATCH', `id-token from ${quote(iss)} is not for an expected audience`);

      const nonce = typeof payload['nonce'] === 'string' ? payload['nonce'] : undefined;
      if (opts.expectedNonce !== undefined) {
        if (nonce === undefined) throw new OidcError('NONCE_MISMATCH', `id-token from ${quote(iss)} has no nonce; expected one bound to the login's public key`);
        if (!sameString(nonce, opts.expectedNonce)) throw new OidcError('NONCE_MISMATCH', `id-token nonce does not match (expected sha256 of the login's public key)`);
      }

      const email = typeof payload['email'] === 'string' ? payload['email'] : undefined;
      // Some issuers (Apple among them) send email_verified as the string "true".
      const ev = payload['email_verified'];
      const emailVerified = ev === true || ev === 'true' ? true : ev === false || ev === 'false' ? false : undefined;

      const out: TVerifiedIdToken = { iss, sub: payload.sub, aud, audiences, claims: payload };
      if (nonce !== undefined) out.nonce = nonce;
      if (email !== undefined) out.email = email;
      if (emailVerified !== undefined) out.emailVerified = emailVerified;
      return out;
    },
  };
}
