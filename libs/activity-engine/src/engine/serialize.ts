/** Database rows → wire objects, byte-exact with Turnkey's field names. */
import {
  toTimestamp,
  type TActivity,
  type TActivityStatus,
  type TApiKey,
  type TAuthenticator,
  type TOauthProvider,
  type TPrivateKey,
  type TTag,
  type TUser,
  type TWallet,
  type TWalletAccount,
  type TWalletDetails,
} from '@latchkey/domain';
import type { TRepositories, Activity, ApiKey, Authenticator, OauthProvider, PrivateKeyTag, TPrivateKeyRecord, User, Wallet, WalletAccount } from '@latchkey/persistence';

export function activityToWire(a: Activity): TActivity {
  const status = a.status as TActivityStatus;
  return {
    id: a.id,
    organizationId: a.organizationId,
    status,
    type: a.type,
    intent: a.intent as Record<string, unknown>,
    result: a.result as Record<string, unknown>,
    votes: [],
    fingerprint: a.fingerprint,
    // Computed for the reader by consensus.ts; nobody can vote on what is not waiting.
    canApprove: false,
    canReject: false,
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
    ...(a.failure ? { failure: a.failure as TActivity['failure'] } : {}),
  } as TActivity;
}

export function walletToWire(w: Wallet): TWallet {
  return {
    walletId: w.id,
    walletName: w.name,
    createdAt: toTimestamp(w.createdAt),
    updatedAt: toTimestamp(w.updatedAt),
    exported: w.exported,
    imported: w.imported,
  };
}

export function walletAccountToWire(a: WalletAccount, details?: TWalletDetails): TWalletAccount {
  return {
    walletAccountId: a.id,
    organizationId: a.organizationId,
    walletId: a.walletId,
    curve: a.curve as TWalletAccount['curve'],
    pathFormat: a.pathFormat as TWalletAccount['pathFormat'],
    path: a.path,
    addressFormat: a.addressFormat as TWalletAccount['addressFormat'],
    address: a.address,
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
    publicKey: a.publicKey,
    ...(a.name ? { name: a.name } : {}),
    ...(details ? { walletDetails: details } : {}),
  } as TWalletAccount;
}

export function privateKeyToWire(k: TPrivateKeyRecord): TPrivateKey {
  return {
    privateKeyId: k.id,
    publicKey: k.publicKey,
    privateKeyName: k.name,
    curve: k.curve as TPrivateKey['curve'],
    addresses: k.addresses.map((a) => ({ format: a.format as NonNullable<TPrivateKey['addresses'][number]['format']>, address: a.address })),
    privateKeyTags: k.tagIds,
    createdAt: toTimestamp(k.createdAt),
    updatedAt: toTimestamp(k.updatedAt),
    exported: k.exported,
    imported: k.imported,
  };
}

export function privateKeyTagToWire(t: PrivateKeyTag): TTag {
  return { tagId: t.id, tagName: t.name, tagType: 'TAG_TYPE_PRIVATE_KEY', createdAt: toTimestamp(t.createdAt), updatedAt: toTimestamp(t.updatedAt) };
}

/** A user tag row (the fields the wire shows). */
export interface TUserTagRow {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export function userTagToWire(t: TUserTagRow): TTag {
  return { tagId: t.id, tagName: t.name, tagType: 'TAG_TYPE_USER', createdAt: toTimestamp(t.createdAt), updatedAt: toTimestamp(t.updatedAt) };
}

/** `expirationSeconds` is the lifetime the key was created with, recovered from its two instants. */
export function apiKeyToWire(k: ApiKey): TApiKey {
  return {
    // A session key issued under a session profile says which (externaldatav1Credential.sessionProfileId).
    credential: { publicKey: k.publicKey, type: k.credentialType as TApiKey['credential']['type'], ...(k.sessionProfileId ? { sessionProfileId: k.sessionProfileId } : {}) },
    apiKeyId: k.id,
    apiKeyName: k.name,
    createdAt: toTimestamp(k.createdAt),
    updatedAt: toTimestamp(k.updatedAt),
    ...(k.expiresAt ? { expirationSeconds: String(Math.max(0, Math.round((k.expiresAt.getTime() - k.createdAt.getTime()) / 1000))) } : {}),
  };
}

export function authenticatorToWire(a: Authenticator): TAuthenticator {
  return {
    transports: a.transports as TAuthenticator['transports'],
    attestationType: a.attestationType,
    aaguid: a.aaguid,
    credentialId: a.credentialId,
    model: a.model,
    credential: { publicKey: a.publicKey, type: a.credentialType as TAuthenticator['credential']['type'] },
    authenticatorId: a.id,
    authenticatorName: a.name,
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
  };
}

export function oauthProviderToWire(p: OauthProvider): TOauthProvider {
  return {
    providerId: p.id,
    providerName: p.providerName,
    issuer: p.issuer,
    audience: p.audience,
    subject: p.subject,
    createdAt: toTimestamp(p.createdAt),
    updatedAt: toTimestamp(p.updatedAt),
  };
}

/** What a user shows besides its own row: its credentials and tag ids. */
export interface TUserParts {
  apiKeys: readonly ApiKey[];
  authenticators: readonly Authenticator[];
  oauthProviders: readonly OauthProvider[];
  tagIds: readonly string[];
}

/** A user (swagger `v1User`), as get_user, list_users and get_organization show it. */
export function userToWire(u: User, parts: TUserParts): TUser {
  return {
    userId: u.id,
    userName: u.userName,
    ...(u.userEmail ? { userEmail: u.userEmail } : {}),
    ...(u.userPhoneNumber ? { userPhoneNumber: u.userPhoneNumber } : {}),
    apiKeys: parts.apiKeys.map(apiKeyToWire),
    authenticators: parts.authenticators.map(authenticatorToWire),
    userTags: [...parts.tagIds],
    oauthProviders: parts.oauthProviders.map(oauthProviderToWire),
    createdAt: toTimestamp(u.createdAt),
    updatedAt: toTimestamp(u.updatedAt),
    mfaPolicies: [],
  };
}

/**
 * The wire form of `users` (all of one organization's users when `all`, which reads each
 * credential table once for the whole organization instead of naming every user).
 */
export async function wireUsers(db: Pick<TRepositories, 'users' | 'credentials'>, organizationId: string, users: readonly User[], all = false): Promise<TUser[]> {
  if (users.length === 0) return [];
  const ids = all ? undefined : users.map((u) => u.id);
  const [apiKeys, authenticators, oauthProviders, tagsByUser] = await Promise.all([
    db.credentials.listApiKeysByOrganization(organizationId, ids),
    db.credentials.listAuthenticatorsByOrganization(organizationId, ids),
    db.credentials.listOauthProvidersByOrganization(organizationId, ids),
    db.users.tagIdsByUser(organizationId, ids),
  ]);
  return users.map((u) =>
    userToWire(u, {
      apiKeys: apiKeys.filter((k) => k.userId === u.id),
      authenticators: authenticators.filter((a) => a.userId === u.id),
      oauthProviders: oauthProviders.filter((p) => p.userId === u.id),
      tagIds: tagsByUser.get(u.id) ?? [],
    }),
  );
}
