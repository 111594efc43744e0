/**
 * Stamp authentication. The signature is checked over the raw request bytes before the body is
 * parsed (re-serialising would break it); then the signing credential is looked up in the target
 * organization and its parent. Every refusal is a 401 with Turnkey's error code; nothing about
 * the credential beyond its public half ever reaches a log or an error.
 */
import { StampError, parseWebauthnStamp, selectStampHeader, verifyApiKeyStamp, verifyWebauthnStamp } from '@latchkey/crypto';
import { AppError, type TErrorCode } from '@latchkey/domain';
import type { Organization, TStore } from '@latchkey/persistence';
import type { TAuthCache } from './auth-cache.js';
import type { TPrincipal } from './principal.js';

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
}

/** Parses the body once its signature is known good. @throws AppError BAD_REQUEST */
function parseBody(raw: Buffer): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('BAD_REQUEST', 'request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('BAD_REQUEST', 'request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function createAuthenticator(store: TStore, cache: TAuthCache, now: () => number = Date.now) {
  /** The target organization and, when it is a sub-organization, its parent. */
  async function targetOrganization(body: Record<string, unknown>): Promise<Organization> {
    const id = body['organizationId'];
    if (typeof id !== 'string' || id.length === 0 || id.length > 256) {
      throw new AppError('BAD_REQUEST', 'organizationId: must be a non-empty string', { field: 'organizationId' });
    }
    const org = await cache.organization(id);
    if (!org) throw new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${id}`, { organizationId: id });
    return org;
  }

  const searchOrder = (org: Organization) => (org.parentOrganizationId ? [org.id, org.parentOrganizationId] : [org.id]);

  /**
   * Authenticates a request from its headers and raw body.
   * @throws AppError 401 (missing/invalid stamp, unknown or expired key), 400 (bad JSON), 404 (no such organization)
   */
  async function authenticate(headers: Record<string, string | string[] | undefined>, raw: Buffer): Promise<TAuthenticated> {
    let header;
    try {
      header = selectStampHeader(headers);
    } catch (e) {
      fromStampError(e);
    }
    if (header.kind === 'api-key') {
      let stamp;
      try {
        stamp = verifyApiKeyStamp(header.value, raw);
      } catch (e) {
        fromStampError(e);
      }
      const body = parseBody(raw);
      const organization = await targetOrganization(body);
      const orgIds = searchOrder(organization);
      const keys = await cache.apiKeys(orgIds, stamp.publicKey);
      // Prefer the target organization's own key when both hold the same public key.
      const key = orgIds.map((o) => keys.find((k) => k.organizationId === o)).find((k) => k !== undefined);
      if (!key) {
        throw new AppError('PUBLIC_KEY_NOT_FOUND', `could not find public key in organization or its parent organization: ${stamp.publicKey}`, {
          publicKey: stamp.publicKey,
        });
      }
      if (key.expiresAt && key.expiresAt.getTime() <= now()) {
        throw new AppError('API_KEY_EXPIRED', `API key ${key.id} expired at ${key.expiresAt.toISOString()}`, { apiKeyId: key.id });
      }
      return {
        principal: { organizationId: key.organizationId, userId: key.userId, credential: { kind: 'api-key', apiKeyId: key.id, publicKey: key.publicKey, scheme: stamp.scheme } },
        body,
        organization,
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
    const candidates = await store.credentials.findAuthenticators(searchOrder(organization), stamp.credentialId);
    if (candidates.length === 0) throw new AppError('CREDENTIAL_NOT_FOUND', 'could not find credential in organization or its parent organization');
    const authenticator = candidates.find((a) => a.organizationId === organization.id) ?? candidates[0]!;
    try {
      verifyWebauthnStamp(stamp, raw, Buffer.from(authenticator.publicKey, 'hex'));
    } catch (e) {
      fromStampError(e);
    }
    return {
      principal: {
        organizationId: authenticator.organizationId,
        userId: authenticator.userId,
        credential: { kind: 'webauthn', authenticatorId: authenticator.id, credentialId: authenticator.credentialId },
      },
      body,
      organization,
    };
  }

  return { authenticate };
}
export type TAuthenticator = ReturnType<typeof createAuthenticator>;
