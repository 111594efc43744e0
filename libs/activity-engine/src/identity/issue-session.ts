/**
 * Issuing a session, shared by every login (stamp_login, otp_login, oauth_login) and by the
 * credential-bundle flows (create_read_write_session, otp_auth, oauth, email auth). A session key
 * is an API key of the user with its own credential type and an expiry, so the ordinary stamp
 * check authenticates it and refuses it once expired; a `sessions` row records the login.
 */
import { BundleError, createCredentialBundle, generateP256KeyPair, newId, signSessionJwt } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../engine/activity-definition.js';
import { withServerKey } from '../keys/server-keys.js';
import type { TSessionProfileRow } from '@latchkey/persistence';

/** 15 minutes: the documented default lifetime of sessions and login keys. */
export const DEFAULT_SESSION_SECONDS = 900;
/** One year: longer lifetimes are refused rather than silently shortened. */
export const MAX_SESSION_SECONDS = 31_536_000;

export type TSessionCredentialType =
  | 'CREDENTIAL_TYPE_LOGIN'
  | 'CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256'
  | 'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256'
  | 'CREDENTIAL_TYPE_OAUTH_KEY_P256'
  | 'CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256'
  | 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256';

/** @throws AppError 400 when the lifetime is above the maximum */
export function sessionSeconds(expirationSeconds: string | undefined): number {
  if (expirationSeconds === undefined) return DEFAULT_SESSION_SECONDS;
  const n = Number(expirationSeconds);
  if (n > MAX_SESSION_SECONDS) throw new AppError('BAD_REQUEST', `expirationSeconds: must be at most ${MAX_SESSION_SECONDS} (one year)`, { field: 'expirationSeconds' });
  return n;
}

interface TSessionKeyParams {
  userId: string;
  /** Compressed P-256 public key, hex. */
  publicKey: string;
  credentialType: TSessionCredentialType;
  apiKeyName?: string | undefined;
  expirationSeconds: number;
  /** Removes the user's earlier keys of the same credential type first. */
  invalidateExisting: boolean;
}

/** Registers a session key on the user. @returns the API key id and its expiry. */
export async function addSessionKey(ctx: TActivityContext, p: TSessionKeyParams): Promise<{ apiKeyId: string; expiresAt: Date }> {
  const user = await ctx.tx.users.findById(ctx.organizationId, p.userId);
  if (!user) throw new AppError('NOT_FOUND', `user not found: ${p.userId}`, { userId: p.userId });
  if (p.invalidateExisting) {
    const removed = await ctx.tx.logins.deleteUserKeysOfTypes(ctx.organizationId, p.userId, [p.credentialType], ctx.now);
    if (removed.length > 0) await ctx.tx.notifyChange('credential', p.userId);
  }
  const apiKeyId = newId();
  const expiresAt = new Date(ctx.now.getTime() + p.expirationSeconds * 1000);
  await ctx.tx.credentials.createApiKey({
    id: apiKeyId,
    organizationId: ctx.organizationId,
    userId: p.userId,
    name: p.apiKeyName ?? `Session Key ${ctx.now.toISOString()}`,
    publicKey: p.publicKey.toLowerCase(),
    curve: 'API_KEY_CURVE_P256',
    credentialType: p.credentialType,
    // The same instant as expiresAt: get_api_keys shows the lifetime as their difference, and the
    // database's now() (the transaction's start) may be well before ctx.now on a busy server.
    createdAt: ctx.now,
    expiresAt,
  });
  // Any process that refused this key before it existed remembers the miss; tell them it exists now.
  await ctx.tx.notifyChange('credential-added', p.userId);
  await ctx.tx.logins.createSession({
    id: newId(),
    organizationId: ctx.organizationId,
    userId: p.userId,
    publicKey: p.publicKey.toLowerCase(),
    sessionType: 'SESSION_TYPE_READ_WRITE',
    expiresAt,
  });
  return { apiKeyId, expiresAt };
}

/**
 * A login: registers the client's session key and returns the session JWT (protocol notes §6),
 * signed by the server's notarizer key so `verifySessionJwtSignature` accepts it.
 */
export async function issueLoginSession(
  ctx: TActivityContext,
  p: { userId: string; publicKey: string; expirationSeconds?: string | undefined; invalidateExisting: boolean; sessionProfileId?: string | undefined },
): Promise<{ session: string }> {
  const profile = p.sessionProfileId === undefined ? undefined : await loginSessionProfile(ctx, p.sessionProfileId);
  const seconds = profileSessionSeconds(p.expirationSeconds, profile?.expirationSeconds ?? null);
  const { apiKeyId, expiresAt } = await addSessionKey(ctx, {
    userId: p.userId,
    publicKey: p.publicKey,
    credentialType: 'CREDENTIAL_TYPE_LOGIN',
    apiKeyName: `Login - ${ctx.now.toISOString()}`,
    expirationSeconds: seconds,
    invalidateExisting: p.invalidateExisting,
  });
  if (profile) await ctx.tx.sessionProfiles.attachToApiKey(ctx.organizationId, apiKeyId, profile.id);
  const session = await withServerKey(ctx.tx, ctx.vault, 'notarizer', (key) =>
    signSessionJwt(
      {
        exp: Math.floor(expiresAt.getTime() / 1000),
        public_key: p.publicKey.toLowerCase(),
        session_type: 'SESSION_TYPE_READ_WRITE',
        user_id: p.userId,
        organization_id: ctx.organizationId,
        ...(profile ? { session_profile_id: profile.id, scope: profile.scope } : {}),
      },
      Buffer.from(key.privateKey).toString('hex'),
    ),
  );
  return { session };
}

/**
 * The session profile a login names: the login organization's own or its parent's (profiles are
 * made by the parent for its end users' sub-organizations, as Turnkey describes them).
 * @throws AppError NOT_FOUND naming `sessionProfileId` (the login is refused, nothing written)
 */
async function loginSessionProfile(ctx: TActivityContext, id: string): Promise<TSessionProfileRow> {
  const org = await ctx.tx.organizations.findById(ctx.organizationId);
  const orgIds = org?.parentOrganizationId ? [ctx.organizationId, org.parentOrganizationId] : [ctx.organizationId];
  const profile = await ctx.tx.sessionProfiles.findById(orgIds, id);
  if (!profile) throw new AppError('NOT_FOUND', `sessionProfileId: session profile not found: ${id}`, { field: 'sessionProfileId', sessionProfileId: id });
  return profile;
}

/**
 * A profile session's lifetime, as Turnkey documents it: the shorter of the login's
 * `expirationSeconds` and the profile's; either alone when only one is set; else the default.
 * @throws AppError 400 when the login's lifetime is above the maximum
 */
export function profileSessionSeconds(requested: string | undefined, profileSeconds: number | null): number {
  if (profileSeconds === null) return sessionSeconds(requested);
  return requested === undefined ? profileSeconds : Math.min(sessionSeconds(requested), profileSeconds);
}

/**
 * A credential-bundle session: the server makes a fresh P-256 key, registers it on the user and
 * returns its private half HPKE-encrypted to the client's target key (protocol notes §5).
 */
export async function issueCredentialBundle(
  ctx: TActivityContext,
  p: { userId: string; targetPublicKey: string; credentialType: TSessionCredentialType; apiKeyName?: string | undefined; expirationSeconds?: string | undefined; invalidateExisting: boolean },
): Promise<{ apiKeyId: string; credentialBundle: string }> {
  const pair = generateP256KeyPair();
  const privateKey = Buffer.from(pair.privateKey, 'hex');
  try {
    const { apiKeyId } = await addSessionKey(ctx, {
      userId: p.userId,
      publicKey: pair.publicKey,
      credentialType: p.credentialType,
      apiKeyName: p.apiKeyName,
      expirationSeconds: sessionSeconds(p.expirationSeconds),
      invalidateExisting: p.invalidateExisting,
    });
    let credentialBundle: string;
    try {
      credentialBundle = await createCredentialBundle(privateKey, p.targetPublicKey);
    } catch (e) {
      if (e instanceof BundleError) throw new AppError('BAD_REQUEST', `targetPublicKey: ${e.message}`, { field: 'targetPublicKey' });
      throw e;
    }
    return { apiKeyId, credentialBundle };
  } finally {
    privateKey.fill(0);
  }
}
