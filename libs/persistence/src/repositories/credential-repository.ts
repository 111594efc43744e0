/**
 * Credentials a stamp can be checked against: API keys and WebAuthn authenticators. Lookups
 * search a set of organizations (the target and its parent) and return every match, so the caller
 * can refuse ambiguity.
 */
import type { TDb } from '../database.js';
import type { ApiKey, Authenticator } from '../generated/prisma/client.js';

export interface TNewApiKey {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  publicKey: string;
  curve: string;
  credentialType: string;
  expiresAt?: Date | null;
}

export function credentialRepository(db: TDb) {
  return {
    async createApiKey(k: TNewApiKey): Promise<ApiKey> {
      return db.apiKey.create({ data: { ...k, expiresAt: k.expiresAt ?? null } });
    },
    /** Live (not deleted) API keys with this public key in any of the organizations. */
    async findApiKeys(organizationIds: string[], publicKey: string): Promise<ApiKey[]> {
      return db.apiKey.findMany({ where: { organizationId: { in: organizationIds }, publicKey, deletedAt: null } });
    },
    async listApiKeysByOrganization(organizationId: string): Promise<ApiKey[]> {
      return db.apiKey.findMany({ where: { organizationId, deletedAt: null }, orderBy: { id: 'asc' } });
    },
    async createAuthenticator(a: { id: string; organizationId: string; userId: string; name: string; credentialId: string; publicKey: string; transports?: string[] }): Promise<Authenticator> {
      return db.authenticator.create({ data: { ...a, transports: a.transports ?? [] } });
    },
    async findAuthenticators(organizationIds: string[], credentialId: string): Promise<Authenticator[]> {
      return db.authenticator.findMany({ where: { organizationId: { in: organizationIds }, credentialId, deletedAt: null } });
    },
    async listAuthenticatorsByOrganization(organizationId: string): Promise<Authenticator[]> {
      return db.authenticator.findMany({ where: { organizationId, deletedAt: null }, orderBy: { id: 'asc' } });
    },
  };
}
export type TCredentialRepository = ReturnType<typeof credentialRepository>;
