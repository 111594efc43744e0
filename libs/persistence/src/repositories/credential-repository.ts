/**
 * Credentials a stamp can be checked against — API keys and WebAuthn authenticators — and a user's
 * OAuth providers. Lookups search a set of organizations (the target and its parent) and return
 * every match, so the caller can refuse ambiguity. Credentials are soft-deleted (`deleted_at`), so
 * an activity that used one still names it.
 */
import type { TDb } from '../database.js';
import type { ApiKey, Authenticator, OauthProvider } from '../generated/prisma/client.js';

export interface TNewApiKey {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  /** Lowercase hex, the form stamps are matched in. */
  publicKey: string;
  curve: string;
  credentialType: string;
  expiresAt?: Date | null;
  /** Defaults to the database's clock. */
  createdAt?: Date;
}

export interface TNewAuthenticator {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  credentialId: string;
  publicKey: string;
  transports?: string[];
  aaguid?: string;
  attestationType?: string;
  model?: string;
  signCount?: number;
}

export interface TNewOauthProvider {
  id: string;
  organizationId: string;
  userId: string;
  providerName: string;
  issuer: string;
  subject: string;
  audience: string;
}

/** `where` on the users of an organization: all of them, or those listed. */
const ofUsers = (organizationId: string, userIds?: readonly string[]) => ({ organizationId, deletedAt: null, ...(userIds ? { userId: { in: [...userIds] } } : {}) });

export function credentialRepository(db: TDb) {
  return {
    async createApiKey(k: TNewApiKey): Promise<ApiKey> {
      const { createdAt, ...row } = k;
      return db.apiKey.create({ data: { ...row, expiresAt: k.expiresAt ?? null, ...(createdAt ? { createdAt, updatedAt: createdAt } : {}) } });
    },
    /** Live (not deleted) API keys with this public key in any of the organizations. */
    async findApiKeys(organizationIds: string[], publicKey: string): Promise<ApiKey[]> {
      return db.apiKey.findMany({ where: { organizationId: { in: organizationIds }, publicKey, deletedAt: null } });
    },
    /** Whether any live API key, in any organization, holds this public key (index api_keys_live_public_key_idx). */
    async publicKeyHeld(publicKey: string): Promise<boolean> {
      return (await db.apiKey.findFirst({ where: { publicKey, deletedAt: null }, select: { id: true } })) !== null;
    },
    /** Live API keys of an organization holding any of these public keys (lowercase hex). */
    async findApiKeysByPublicKeys(organizationId: string, publicKeys: readonly string[]): Promise<ApiKey[]> {
      if (publicKeys.length === 0) return [];
      return db.apiKey.findMany({ where: { organizationId, publicKey: { in: [...publicKeys] }, deletedAt: null }, orderBy: { id: 'asc' } });
    },
    async findApiKeyById(organizationId: string, id: string): Promise<ApiKey | null> {
      return db.apiKey.findFirst({ where: { organizationId, id, deletedAt: null } });
    },
    /** Live API keys (expired ones included) of the organization, or of some of its users. */
    async listApiKeysByOrganization(organizationId: string, userIds?: readonly string[]): Promise<ApiKey[]> {
      return db.apiKey.findMany({ where: ofUsers(organizationId, userIds), orderBy: { id: 'asc' } });
    },
    /**
     * Soft-deletes the listed API keys of one user.
     * @returns the ids actually deleted (live keys of that user among `ids`)
     */
    async deleteApiKeys(organizationId: string, userId: string, ids: readonly string[], at: Date): Promise<string[]> {
      const live = await db.apiKey.findMany({ where: { organizationId, userId, id: { in: [...ids] }, deletedAt: null }, select: { id: true }, orderBy: { id: 'asc' } });
      const found = live.map((k) => k.id);
      if (found.length) await db.apiKey.updateMany({ where: { organizationId, id: { in: found } }, data: { deletedAt: at, updatedAt: at } });
      return found;
    },

    async createAuthenticator(a: TNewAuthenticator): Promise<Authenticator> {
      const { signCount, ...row } = a;
      return db.authenticator.create({ data: { ...row, transports: a.transports ?? [], ...(signCount !== undefined ? { signCount: BigInt(signCount) } : {}) } });
    },
    async findAuthenticators(organizationIds: string[], credentialId: string): Promise<Authenticator[]> {
      return db.authenticator.findMany({ where: { organizationId: { in: organizationIds }, credentialId, deletedAt: null } });
    },
    async listAuthenticatorsByOrganization(organizationId: string, userIds?: readonly string[]): Promise<Authenticator[]> {
      return db.authenticator.findMany({ where: ofUsers(organizationId, userIds), orderBy: { id: 'asc' } });
    },
    async findAuthenticatorById(organizationId: string, id: string): Promise<Authenticator | null> {
      return db.authenticator.findFirst({ where: { organizationId, id, deletedAt: null } });
    },
    /** Soft-deletes the user's live authenticators among `ids`. @returns the ids deleted */
    async deleteAuthenticators(organizationId: string, userId: string, ids: readonly string[], at: Date): Promise<string[]> {
      const live = await db.authenticator.findMany({ where: { organizationId, userId, id: { in: [...ids] }, deletedAt: null }, select: { id: true }, orderBy: { id: 'asc' } });
      const found = live.map((a) => a.id);
      if (found.length) await db.authenticator.updateMany({ where: { organizationId, id: { in: found } }, data: { deletedAt: at, updatedAt: at } });
      return found;
    },

    async createOauthProvider(p: TNewOauthProvider): Promise<OauthProvider> {
      return db.oauthProvider.create({ data: p });
    },
    async listOauthProvidersByOrganization(organizationId: string, userIds?: readonly string[]): Promise<OauthProvider[]> {
      return db.oauthProvider.findMany({ where: ofUsers(organizationId, userIds), orderBy: { id: 'asc' } });
    },
    /** Soft-deletes the user's live OAuth providers among `ids`. @returns the ids deleted */
    async deleteOauthProviders(organizationId: string, userId: string, ids: readonly string[], at: Date): Promise<string[]> {
      const live = await db.oauthProvider.findMany({ where: { organizationId, userId, id: { in: [...ids] }, deletedAt: null }, select: { id: true }, orderBy: { id: 'asc' } });
      const found = live.map((p) => p.id);
      if (found.length) await db.oauthProvider.updateMany({ where: { organizationId, id: { in: found } }, data: { deletedAt: at, updatedAt: at } });
      return found;
    },

    /** Soft-deletes every credential of the users (API keys, authenticators, OAuth providers). */
    async deleteCredentialsOfUsers(organizationId: string, userIds: readonly string[], at: Date): Promise<void> {
      const where = ofUsers(organizationId, userIds);
      const data = { deletedAt: at, updatedAt: at };
      await db.apiKey.updateMany({ where, data });
      await db.authenticator.updateMany({ where, data });
      await db.oauthProvider.updateMany({ where, data });
    },
  };
}
export type TCredentialRepository = ReturnType<typeof credentialRepository>;
