/**
 * Stamp authentication. The signature is checked over the raw request bytes, never over a
 * re-serialised body (that would break it). The credential a stamp names is looked up in the target
 * organization and its parent *before* its signature is verified: refusing a stranger must cost
 * less than serving a customer, and with the lookup first (misses cached, auth-cache.ts) an unknown
 * key costs a map lookup instead of a signature verification and three queries. Finding the
 * organization needs the body, so it is parsed first — parsed, not trusted: nothing in it acts
 * before the signature is good, and every string in it is checked to be storable (no NUL, no lone
 * surrogate) before anything reaches the database. Every refusal of a credential is a 401 with
 * Turnkey's error code; nothing about the credential beyond its public half ever reaches a log or
 * an error.
 */
import {
  LoginTokenError,
  StampError,
  parseAuthenticatorDataHead,
  signCountAdvances,
  parseStampHeader,
  parseWebauthnStamp,
  selectStampHeader,
  verifyParsedApiKeyStamp,
  verifyAttestedStamp,
  verifyVerificationToken,
  verifyWebauthnStamp,
  type TAttestedStamp,
} from '@latchkey/crypto';
import { AppError, isAppError, type TErrorCode } from '@latchkey/domain';
import type { Organization, TStore } from '@latchkey/persistence';
import { assertStorableStrings } from './assert-storable-strings.js';
import type { TAuthCache } from './auth-cache.js';
import { verifiedContactOf, type TPrincipal, type TVerifiedContact } from './principal.js';
import type { TEngineServices } from './services.js';
import { oidcNonceForPublicKey } from '@latchkey/crypto';
import { assertLoginFeature, otpFeature, resolveUserByContact, resolveUserByOidc, type TLoginUser } from './resolve-login-user.js';
import { createSessionProfileCache } from './session-scope.js';
import { SESSION_HEADER, readOnlySessionTokenHash, sessionTokenOf } from '../identity/read-only-sessions.js';
import { STAMP_HEADER_NAMES } from '@latchkey/crypto';

const STAMP_ERROR_CODES: Record<StampError['reason'], TErrorCode> = {
  SIGNATURE_MISSING: 'SIGNATURE_MISSING',
  SIGNATURE_INVALID: 'SIGNATURE_INVALID',
  STAMP_MALFORMED: 'SIGNATURE_INVALID',
  SCHEME_UNSUPPORTED: 'SIGNATURE_INVALID',
  MULTIPLE_STAMPS: 'SIGNATURE_INVALID',
};

function fromStampError(e: unknown): never {
  if (e instanceof StampError) throw new AppError(STAMP_ERROR_CODES[e.reason], e.message);
  throw e;
}

export interface TAuthenticated {
  principal: TPrincipal;
  /** The parsed JSON body (an object). */
  body: Record<string, unknown>;
  /** The organization the request targets. */
  organization: Organization;
  /**
   * Set when the credential was found in none of the target and its parent but in exactly one
   * sub-organization of the target: a login aimed at the parent (protocol notes §11). Only login
   * activities and whoami accept such a principal; for them this is the organization acted in.
   */
  loginOrganization?: Organization;
}

/**
 * The HTTP layer's per-credential rate limit (@latchkey/http, rate-limit.ts), when one is installed:
 * a function on the request's headers under this registry symbol, called once a stamp is verified
 * (never before: naming someone's key must not spend their budget) and before anything is written.
 * @throws AppError RATE_LIMITED (from the hook)
 */
const ADMIT_CREDENTIAL = Symbol.for('latchkey.admitCredential');
function admitCredential(headers: Record<string, string | string[] | undefined>, credentialId: string, label: string): void {
  const admit = (headers as Record<symbol, unknown>)[ADMIT_CREDENTIAL];
  if (typeof admit === 'function') (admit as (id: string, label: string) => void)(credentialId, label);
}

const conflict = (what: string) =>
  new AppError('CREDENTIAL_CONFLICT', `more than one suborg associated with a ${what}`, { credential: what });

// Fatal: a lenient decode turns invalid bytes into U+FFFD, so the signed bytes and what is
// performed would differ (the chaos fuzz had create_policies COMPLETED from a body with a 0xff).
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses the body: UTF-8 JSON text of an object whose every string (values and keys) the database can store.
 * @throws AppError BAD_REQUEST (not UTF-8, not JSON, not an object, or a string with NUL or a lone surrogate, naming its path)
 */
function parseBody(raw: Buffer): Record<string, unknown> {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw new AppError('BAD_REQUEST', 'request body is not valid UTF-8');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('BAD_REQUEST', 'request body must be a JSON object');
  assertStorableStrings(body);
  return body as Record<string, unknown>;
}

/**
 * The refusal of a stamp by a key nobody holds. Made without a stack trace: it is the answer to a
 * stranger's flood, never logged with a stack, and V8's capture of one is most of what building
 * the error costs.
 */
function publicKeyNotFound(publicKey: string): AppError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new AppError('PUBLIC_KEY_NOT_FOUND', `could not find public key in organization or its parent organization: ${publicKey}`, { publicKey });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The X-Stamp header decoded once per request: `refuseCachedStranger` (before the body is read)
 * and `authenticate` both need its public key. Kept on the headers object under a registry symbol,
 * with the header value it was decoded from, so it cannot be forged by a header nor go stale.
 */
const PARSED_STAMP = Symbol.for('latchkey.parsedStamp');
function parsedStampOf(headers: Record<string, string | string[] | undefined>, value: string): ReturnType<typeof parseStampHeader> {
  const memo = (headers as Record<symbol, unknown>)[PARSED_STAMP] as { value: string; parsed: ReturnType<typeof parseStampHeader> } | undefined;
  if (memo !== undefined && memo.value === value) return memo.parsed;
  const parsed = parseStampHeader(value);
  (headers as Record<symbol, unknown>)[PARSED_STAMP] = { value, parsed };
  return parsed;
}

export function createAuthenticator(store: TStore, cache: TAuthCache, now: () => number = Date.now, services?: TEngineServices) {
  /** The target organization and, when it is a sub-organization, its parent. */
  async function targetOrganization(body: Record<string, unknown>): Promise<Organization> {
    const id = targetOrganizationId(body);
    return organizationFound(id, await cache.organization(id));
  }
  function targetOrganizationId(body: Record<string, unknown>): string {
    const id = body['organizationId'];
    if (typeof id !== 'string' || id.length === 0 || id.length > 256) {
      throw new AppError('BAD_REQUEST', 'organizationId: must be a non-empty string', { field: 'organizationId' });
    }
    return id;
  }
  function organizationFound(id: string, org: Organization | null): Organization {
    if (!org) throw new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${id}`, { organizationId: id });
    return org;
  }

  const searchOrder = (org: Organization) => (org.parentOrganizationId ? [org.id, org.parentOrganizationId] : [org.id]);
  const sessionProfileOf = createSessionProfileCache(store);

  /**
   * X-Session (create_read_only_session): the token's hash names a session of one user; it reads
   * that user's organization only, until it expires. Queries only: engine.ts refuses it on submit.
   * @throws AppError 401 (unknown or expired token, deleted user), 403 (another organization)
   */
  async function readOnlySession(headers: Record<string, string | string[] | undefined>, raw: Buffer): Promise<TAuthenticated> {
    if (STAMP_HEADER_NAMES.some((h) => headers[h] !== undefined)) {
      throw new AppError('UNAUTHENTICATED', 'send either a stamp (X-Stamp, X-Stamp-Webauthn, X-Stamp-Attested) or a read-only session (X-Session), not both');
    }
    const tokenHash = readOnlySessionTokenHash(sessionTokenOf(headers[SESSION_HEADER]));
    const body = parseBody(raw);
    const organization = await targetOrganization(body);
    const session = await store.sessionProfiles.findReadOnlySession(tokenHash);
    if (!session) throw new AppError('UNAUTHENTICATED', 'X-Session: unknown read-only session');
    // Counted once the token is known to be a session's (as a key's budget once its stamp verifies).
    admitCredential(headers, `read-only-session:${tokenHash}`, `read-only session ${tokenHash.slice(0, 12)}…`);
    if (session.expiresAt.getTime() <= now()) {
      throw new AppError('UNAUTHENTICATED', `X-Session: the read-only session expired at ${session.expiresAt.toISOString()}; create a new one with create_read_only_session`);
    }
    if (!(await cache.user(session.organizationId, session.userId))) throw new AppError('UNAUTHENTICATED', 'X-Session: the user of this read-only session no longer exists');
    if (session.organizationId !== organization.id) {
      throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: a read-only session reads only its own organization (${session.organizationId}), not ${organization.id}`);
    }
    return {
      principal: { organizationId: session.organizationId, userId: session.userId, credential: { kind: 'read-only-session', publicKey: '', scheme: 'READ_ONLY_SESSION', signature: '' } },
      body,
      organization,
    };
  }

  /**
   * Who an attested key belongs to: the user whose contact the verification token proves (the
   * token bound to this very key), or whose OAuth provider matches the OIDC token (nonce = sha256
   * of this key). The verification token is not spent here: stamp_login spends it in its own
   * transaction (`verificationTokenId`), so a request refused later (policy, parameters, an
   * activity other than stamp_login, a query) does not burn it. The login flags of the
   * organization the user lives in apply as they do to otp_login: a verification token needs the
   * OTP feature of its contact's kind.
   * @throws AppError 401 when the attestation does not vouch for the key; 403 when the flow is disabled
   */
  async function attestedUser(stamp: TAttestedStamp, organization: Organization): Promise<TLoginUser & { verificationTokenId?: string; verifiedContact?: TVerifiedContact }> {
    const refuse = (why: string) => new AppError('UNAUTHENTICATED', `attested stamp refused: ${why}`);
    if (stamp.scheme === 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN') {
      const key = (await store.system.serverKeys()).find((k) => k.purpose === 'otp_verifier');
      if (!key) throw new Error('the server key otp_verifier is missing');
      let claims;
      try {
        claims = verifyVerificationToken(stamp.publicKeyAttestation, key.publicKey, now());
      } catch (e) {
        if (e instanceof LoginTokenError) throw refuse(`verification token: ${e.message}`);
        throw e;
      }
      if (claims.publicKey.toLowerCase() !== stamp.publicKey) throw refuse('the verification token is bound to another public key');
      if (claims.organizationId !== organization.id && claims.organizationId !== organization.parentOrganizationId) throw refuse('the verification token was issued for another organization');
      const who = await resolveUserByContact(store, organization.id, claims.verificationType, claims.contact);
      await assertLoginFeature(store, who.organizationId, otpFeature(claims.verificationType));
      return { ...who, verificationTokenId: claims.id, verifiedContact: verifiedContactOf(claims) };
    }
    if (!services) throw refuse('OIDC verification is not configured in this process');
    let token;
    try {
      token = await services.oidc.verify(stamp.publicKeyAttestation, { expectedNonce: oidcNonceForPublicKey(stamp.publicKey) });
    } catch (e) {
      throw refuse(`OIDC token: ${(e as Error).message}`);
    }
    // No login flag gates OIDC logins (there is no FEATURE_NAME_* for them, as for oauth_login).
    try {
      return await resolveUserByOidc(store, organization.id, token);
    } catch (e) {
      // A token nobody here holds (another app's audience, an unknown subject) does not vouch for
      // the key: an authentication failure (401), as @turnkey/core expects (notes §C3), not a 404.
      if (isAppError(e) && e.code === 'NOT_FOUND') throw refuse(e.message);
      throw e;
    }
  }

  /**
   * Authenticates a request from its headers and raw body.
   * @throws AppError 401 (missing/invalid stamp, unknown or expired key), 400 (bad JSON), 404 (no such organization)
   */
  async function authenticate(headers: Record<string, string | string[] | undefined>, raw: Buffer): Promise<TAuthenticated> {
    if (headers[SESSION_HEADER] !== undefined) return readOnlySession(headers, raw);
    let header;
    try {
      header = selectStampHeader(headers);
    } catch (e) {
      fromStampError(e);
    }
    if (header.kind === 'attested') {
      let stamp: TAttestedStamp;
      try {
        stamp = verifyAttestedStamp(header.value, raw);
      } catch (e) {
        fromStampError(e);
      }
      admitCredential(headers, `attested:${stamp.publicKey}`, `attested key ${stamp.publicKey.slice(0, 16)}…`);
      const body = parseBody(raw);
      const organization = await targetOrganization(body);
      const who = await attestedUser(stamp, organization);
      const loginOrganization = who.organizationId === organization.id ? undefined : ((await cache.organization(who.organizationId)) ?? undefined);
      return {
        principal: {
          organizationId: who.organizationId,
          userId: who.userId,
          credential: {
            kind: 'attested',
            publicKey: stamp.publicKey,
            scheme: stamp.scheme,
            signature: stamp.signature,
            ...(who.verificationTokenId ? { verificationTokenId: who.verificationTokenId } : {}),
            ...(who.verifiedContact ? { verifiedContact: who.verifiedContact } : {}),
          },
        },
        body,
        organization,
        ...(loginOrganization ? { loginOrganization } : {}),
      };
    }
    if (header.kind === 'api-key') {
      // Decoded, not yet verified: only its public key is used before verifyParsedApiKeyStamp below.
      let claimed;
      try {
        claimed = parsedStampOf(headers, header.value);
      } catch (e) {
        fromStampError(e);
      }
      // A key no live API key holds anywhere is refused before the body is read or an organization
      // looked up: the same answer whatever the body says, so a stranger learns nothing from it
      // (not whether an organization exists), and refusing one costs a map lookup once cached.
      if (!(cache.cached.publicKeyHeld(claimed.publicKey) ?? (await cache.publicKeyHeld(claimed.publicKey)))) throw publicKeyNotFound(claimed.publicKey);
      const body = parseBody(raw);
      // A warm request answers from the auth cache synchronously (cache.cached), without a promise hop.
      const organizationId = targetOrganizationId(body);
      const cachedOrganization = cache.cached.organization(organizationId);
      const organization = organizationFound(organizationId, cachedOrganization !== undefined ? cachedOrganization : await cache.organization(organizationId));
      const orgIds = searchOrder(organization);
      const notFound = () => publicKeyNotFound(claimed.publicKey);
      const { own, inSubOrganizations } = cache.cached.stampApiKeys(organization, claimed.publicKey) ?? (await cache.stampApiKeys(organization, claimed.publicKey));
      if (own.length === 0 && inSubOrganizations.length === 0) throw notFound();
      let stamp;
      try {
        // The header parsed above, verified as it is (not decoded a second time).
        stamp = verifyParsedApiKeyStamp(claimed, raw);
      } catch (e) {
        fromStampError(e);
      }
      // Prefer the target organization's own key when both hold the same public key.
      let key = orgIds.map((o) => own.find((k) => k.organizationId === o)).find((k) => k !== undefined);
      let loginOrganization: Organization | undefined;
      if (!key) {
        // Said only to the key's holder: the signature is verified by now.
        if (new Set(inSubOrganizations.map((k) => k.organizationId)).size > 1) throw conflict('public key');
        key = inSubOrganizations[0];
        if (key) loginOrganization = (await cache.organization(key.organizationId)) ?? undefined;
      }
      if (!key) throw notFound();
      admitCredential(headers, `api-key:${key.id}`, `API key ${key.id}`);
      if (key.expiresAt && key.expiresAt.getTime() <= now()) {
        // `Unauthenticated desc = expired api key publicKey` exactly: @turnkey/core maps it to SESSION_EXPIRED (notes §A1).
        throw new AppError('API_KEY_EXPIRED', `Unauthenticated desc = expired api key publicKey ${key.publicKey}: API key ${key.id} expired at ${key.expiresAt.toISOString()}`, { apiKeyId: key.id });
      }
      // A session key issued under a session profile carries the profile's scope (session-scope.ts).
      const sessionProfile = key.sessionProfileId ? await sessionProfileOf(searchOrder((await cache.organization(key.organizationId)) ?? organization), key.sessionProfileId) : undefined;
      if (key.sessionProfileId && !sessionProfile) throw new AppError('UNAUTHENTICATED', `the session profile ${key.sessionProfileId} of API key ${key.id} no longer exists`, { apiKeyId: key.id });
      return {
        principal: {
          organizationId: key.organizationId,
          userId: key.userId,
          credential: { kind: 'api-key', apiKeyId: key.id, publicKey: key.publicKey, scheme: stamp.scheme, signature: stamp.signature, credentialType: key.credentialType },
          ...(sessionProfile ? { sessionProfile } : {}),
        },
        body,
        organization,
        ...(loginOrganization ? { loginOrganization } : {}),
      };
    }

    let stamp;
    try {
      stamp = parseWebauthnStamp(header.value);
    } catch (e) {
      fromStampError(e);
    }
    const body = parseBody(raw);
    const organization = await targetOrganization(body);
    let candidates = await store.credentials.findAuthenticators(searchOrder(organization), stamp.credentialId);
    let loginOrganization: Organization | undefined;
    if (candidates.length === 0) {
      candidates = await store.logins.authenticatorsInSubOrganizations(organization.id, stamp.credentialId);
      if (new Set(candidates.map((a) => a.organizationId)).size > 1) throw conflict('credential ID');
      if (candidates[0]) loginOrganization = (await cache.organization(candidates[0].organizationId)) ?? undefined;
    }
    if (candidates.length === 0) throw new AppError('CREDENTIAL_NOT_FOUND', 'could not find credential in organization or its parent organization');
    const authenticator = candidates.find((a) => a.organizationId === organization.id) ?? candidates[0]!;
    try {
      verifyWebauthnStamp(stamp, raw, Buffer.from(authenticator.publicKey, 'hex'));
    } catch (e) {
      fromStampError(e);
    }
    admitCredential(headers, `authenticator:${authenticator.id}`, `passkey ${authenticator.id}`);
    // The signature counter (WebAuthn §7.2): a count that does not move forward is a replayed
    // assertion or a cloned authenticator. Two zeros: the authenticator keeps no counter.
    const { signCount } = parseAuthenticatorDataHead(stamp.authenticatorData);
    const advanced = signCountAdvances(authenticator.signCount, signCount) && (signCount === 0 || (await store.logins.advanceSignCount(authenticator.id, signCount)));
    if (!advanced) {
      throw new AppError('SIGNATURE_INVALID', `passkey signature counter did not advance (stored ${authenticator.signCount}, asserted ${signCount}): a replayed request or a cloned authenticator`);
    }
    return {
      principal: {
        organizationId: authenticator.organizationId,
        userId: authenticator.userId,
        credential: {
          kind: 'webauthn',
          authenticatorId: authenticator.id,
          credentialId: authenticator.credentialId,
          publicKey: authenticator.publicKey,
          scheme: 'SIGNATURE_SCHEME_TK_API_P256',
          signature: Buffer.from(stamp.signature).toString('hex'),
        },
      },
      body,
      organization,
      ...(loginOrganization ? { loginOrganization } : {}),
    };
  }

  /**
   * The refusal `authenticate` would give, when it can be known from the headers and memory alone:
   * an API-key stamp (the only stamp header, no session) whose public key is a cached miss — held by
   * no live API key anywhere, as `authenticate` found within the miss TTL. The HTTP layer asks before
   * the body is read, so a stranger repeating an unknown key costs a header decode and a map lookup.
   * `undefined`: go on (the full check runs as always, and refuses what this lets through).
   */
  function refuseCachedStranger(headers: Record<string, string | string[] | undefined>): AppError | undefined {
    if (headers[SESSION_HEADER] !== undefined) return undefined;
    let publicKey;
    try {
      // authenticate's own header rule: exactly one stamp header; only an API-key stamp is decided here.
      const header = selectStampHeader(headers);
      if (header.kind !== 'api-key') return undefined;
      publicKey = parsedStampOf(headers, header.value).publicKey;
    } catch {
      return undefined;
    }
    return cache.cached.publicKeyHeld(publicKey) === false ? publicKeyNotFound(publicKey) : undefined;
  }

  return { authenticate, refuseCachedStranger };
}
export type TAuthenticator = ReturnType<typeof createAuthenticator>;
