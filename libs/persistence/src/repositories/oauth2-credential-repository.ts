/**
 * OAuth 2.0 client credentials of organizations (oauth2_authenticate). The client secret is only
 * ever handed in and out sealed (`sealedClientSecret`) or as the client's own envelope
 * (`encryptedClientSecret`); this repository never sees it in the clear.
 */
import type { TDb } from '../database.js';
import type { Oauth2Credential } from '../generated/prisma/client.js';

export interface TNewOauth2Credential {
  id: string;
  organizationId: string;
  provider: string;
  clientId: string;
  encryptedClientSecret: string;
  sealedClientSecret: string;
  createdAt: Date;
}

export function oauth2CredentialRepository(db: TDb) {
  return {
    async create(c: TNewOauth2Credential): Promise<void> {
      await db.oauth2Credential.create({ data: { ...c, updatedAt: c.createdAt } });
    },
    async findById(organizationId: string, id: string): Promise<Oauth2Credential | null> {
      return db.oauth2Credential.findFirst({ where: { organizationId, id } });
    },
    /** The organization's credentials, oldest first. */
    async listByOrganization(organizationId: string): Promise<Oauth2Credential[]> {
      return db.oauth2Credential.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });
    },
    /** Replaces provider, client id and secret. @returns false when no such credential exists */
    async update(
      organizationId: string,
      id: string,
      u: { provider: string; clientId: string; encryptedClientSecret: string; sealedClientSecret: string; updatedAt: Date },
    ): Promise<boolean> {
      const r = await db.oauth2Credential.updateMany({ where: { organizationId, id }, data: u });
      return r.count === 1;
    },
    /** Deletes the row, sealed secret included. @returns false when no such credential exists */
    async delete(organizationId: string, id: string): Promise<boolean> {
      const r = await db.oauth2Credential.deleteMany({ where: { organizationId, id } });
      return r.count === 1;
    },
  };
}
export type TOauth2CredentialRepository = ReturnType<typeof oauth2CredentialRepository>;
