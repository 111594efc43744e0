/**
 * Adding credentials to a user — API keys, passkeys (attestation verified), OAuth providers (OIDC
 * token verified, or claims given by a trusted caller) — shared by create_sub_organization,
 * create_users, create_api_keys, create_authenticators, create_oauth_providers and recover_user.
 * Every check runs before anything is written, so a bad credential fails the whole activity.
 */
import { newId, normalizeApiKeyPublicKey, verifyWebauthnRegistration, WebauthnRegistrationError } from '@latchkey/crypto';
import { AppError, type TAuthenticatorParamsV2, type TCredentialApiKeyParams, type TOauthProviderParamsV2 } from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TActivityContext } from '../engine/activity-definition.js';
import type { TEngineServices, TVerifiedIdToken } from '../engine/services.js';

const API_KEY_CREDENTIAL_TYPES = {
  API_KEY_CURVE_P256: 'CREDENTIAL_TYPE_API_KEY_P256',
  API_KEY_CURVE_SECP256K1: 'CREDENTIAL_TYPE_API_KEY_SECP256K1',
  API_KEY_CURVE_ED25519: 'CREDENTIAL_TYPE_API_KEY_ED25519',
} as const;

export interface TCredentialsToAdd {
  apiKeys?: readonly TCredentialApiKeyParams[];
  authenticators?: readonly TAuthenticatorParamsV2[];
  oauthProviders?: readonly TOauthProviderParamsV2[];
}

export interface TCheckedCredentials {
  /** `createdAt` is the instant `expiresAt` counts from (the lifetime shown is their difference). */
  apiKeys: { name: string; publicKey: string; curve: string; credentialType: string; createdAt: Date; expiresAt: Date | null }[];
  authenticators: { name: string; credentialId: string; publicKey: string; aaguid: string; attestationType: string; transports: string[]; signCount: number }[];
  oauthProviders: { providerName: string; issuer: string; subject: string; audience: string }[];
}

export interface TLocatedApiKey {
  path: string;
  params: TCredentialApiKeyParams;
}

/**
 * Checks each public key on its curve and refuses one given twice in the request.
 * @returns the keys' public keys in lowercase hex, in order
 * @throws AppError 400 naming the key and the expected form
 */
export function assertApiKeysWellFormed(keys: readonly TLocatedApiKey[]): string[] {
  const seen = new Map<string, string>();
  return keys.map(({ path, params }) => {
    let publicKey: string;
    try {
      publicKey = normalizeApiKeyPublicKey(params.curveType, params.publicKey);
    } catch (e) {
      if (e instanceof TypeError) throw new AppError('BAD_REQUEST', `${path}: ${e.message}`, { field: `${path}.publicKey` });
      throw e;
    }
    const first = seen.get(publicKey);
    if (first !== undefined) throw new AppError('BAD_REQUEST', `${path}: public key ${publicKey} is given twice (also ${first})`, { field: `${path}.publicKey` });
    seen.set(publicKey, path);
    return publicKey;
  });
}

/** Where a credential sits in the request, for error messages (`rootUsers[0].apiKeys[1]`). */
type TPathOf = (kind: 'apiKeys' | 'authenticators' | 'oauthProviders', index: number) => string;

/**
 * The user whose credentials an activity changes must exist. Who may change them is decided by
 * the policy engine alone (engine/policy-decision.ts), before any handler runs: one's own are
 * implicitly allowed unless a policy denies it; another user's take an allowing policy or the root
 * quorum — for a root user too. A handler never refuses what the policies allowed (a non-root
 * user may manage others' keys by policy), and never lets through what they did not.
 * @throws AppError 404 (no such user)
 */
export async function assertUserExists(ctx: TActivityContext, userId: string): Promise<void> {
  if (!(await ctx.tx.users.findById(ctx.organizationId, userId))) throw new AppError('NOT_FOUND', `user not found: ${userId}`, { userId });
}

/** The WebAuthn origins an organization accepts (FEATURE_NAME_WEBAUTHN_ORIGINS on it or its parent). */
async function webauthnOrigins(tx: TRepositories, organizationIds: string[]): Promise<string[] | undefined> {
  for (const id of organizationIds) {
    const f = (await tx.organizations.features(id)).find((x) => x.name === 'FEATURE_NAME_WEBAUTHN_ORIGINS');
    if (f && f.value.trim()) return f.value.split(',').map((v) => v.trim()).filter(Boolean);
  }
  return undefined;
}

/**
 * Checks every credential (curve points, attestations, OIDC tokens) without writing anything.
 * @throws AppError 400 naming the credential and what is wrong with it
 */
export async function checkCredentials(
  deps: { tx: TRepositories; services: TEngineServices; now: Date },
  c: TCredentialsToAdd,
  pathOf: TPathOf,
  /** The organizations whose WebAuthn origin settings apply (the target, then its parent). */
  originOrganizationIds: string[],
): Promise<TCheckedCredentials> {
  const out: TCheckedCredentials = { apiKeys: [], authenticators: [], oauthProviders: [] };
  const publicKeys = assertApiKeysWellFormed((c.apiKeys ?? []).map((params, i) => ({ path: pathOf('apiKeys', i), params })));
  (c.apiKeys ?? []).forEach((k, i) => {
    out.apiKeys.push({
      name: k.apiKeyName,
      publicKey: publicKeys[i]!,
      curve: k.curveType,
      credentialType: API_KEY_CREDENTIAL_TYPES[k.curveType],
      createdAt: deps.now,
      expiresAt: k.expirationSeconds ? new Date(deps.now.getTime() + Number(k.expirationSeconds) * 1000) : null,
    });
  });

  const authenticators = c.authenticators ?? [];
  const origins = authenticators.length > 0 ? await webauthnOrigins(deps.tx, originOrganizationIds) : undefined;
  for (const [i, a] of authenticators.entries()) {
    try {
      const r = await verifyWebauthnRegistration({ challenge: a.challenge, attestation: a.attestation, ...(origins ? { expectedOrigins: origins } : {}) });
      out.authenticators.push({
        name: a.authenticatorName,
        credentialId: r.credentialId,
        publicKey: r.publicKey,
        aaguid: r.aaguid,
        attestationType: r.attestationType,
        transports: [...a.attestation.transports],
        signCount: r.signCount,
      });
    } catch (e) {
      if (e instanceof WebauthnRegistrationError) {
        throw new AppError('BAD_REQUEST', `${pathOf('authenticators', i)}: invalid passkey attestation: ${e.message}`, { field: `${pathOf('authenticators', i)}.attestation` });
      }
      throw e;
    }
  }

  for (const [i, p] of (c.oauthProviders ?? []).entries()) {
    let claims: Pick<TVerifiedIdToken, 'iss' | 'sub' | 'aud'>;
    if (p.oidcClaims) claims = p.oidcClaims;
    else {
      try {
        claims = await deps.services.oidc.verify(p.oidcToken!, {});
      } catch (e) {
        throw new AppError('BAD_REQUEST', `${pathOf('oauthProviders', i)}: invalid OIDC token: ${(e as Error).message}`, { field: `${pathOf('oauthProviders', i)}.oidcToken` });
      }
    }
    out.oauthProviders.push({ providerName: p.providerName, issuer: claims.iss, subject: claims.sub, audience: claims.aud });
  }
  return out;
}

/** Writes checked credentials on a user. @returns the new ids, per kind, in request order */
export async function writeCredentials(
  tx: TRepositories,
  organizationId: string,
  userId: string,
  c: TCheckedCredentials,
): Promise<{ apiKeyIds: string[]; authenticatorIds: string[]; oauthProviderIds: string[] }> {
  const apiKeyIds: string[] = [];
  for (const k of c.apiKeys) {
    const id = newId();
    await tx.credentials.createApiKey({ id, organizationId, userId, ...k });
    apiKeyIds.push(id);
  }
  const authenticatorIds: string[] = [];
  for (const a of c.authenticators) {
    const id = newId();
    await tx.credentials.createAuthenticator({ id, organizationId, userId, name: a.name, credentialId: a.credentialId, publicKey: a.publicKey, transports: a.transports, aaguid: a.aaguid, attestationType: a.attestationType, signCount: a.signCount });
    authenticatorIds.push(id);
  }
  const oauthProviderIds: string[] = [];
  for (const p of c.oauthProviders) {
    const id = newId();
    await tx.credentials.createOauthProvider({ id, organizationId, userId, ...p });
    oauthProviderIds.push(id);
  }
  return { apiKeyIds, authenticatorIds, oauthProviderIds };
}
