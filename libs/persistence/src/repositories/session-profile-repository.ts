/**
 * Session profiles and read-only sessions (issue 16 §4). Profiles are written once by
 * create_session_profile and read by the queries, by the logins that name one and by the
 * authentication of every request a profile's session key stamps (the engine caches them: they
 * never change). Read-only sessions are stored by the SHA-256 of their token only; the caller
 * hashes, this layer never sees a token.
 */
import type { TDb } from '../database.js';

export interface TSessionProfileRow {
  id: string;
  organizationId: string;
  name: string;
  scope: string;
  /** Null when the profile leaves the lifetime to the login. */
  expirationSeconds: number | null;
  notes: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface TReadOnlySessionRow {
  tokenHash: string;
  organizationId: string;
  userId: string;
  expiresAt: Date;
}

export function sessionProfileRepository(db: TDb) {
  return {
    async create(row: Omit<TSessionProfileRow, 'createdAt' | 'updatedAt'>, at: Date): Promise<void> {
      await db.sessionProfile.create({ data: { ...row, createdAt: at, updatedAt: at } });
    },
    /** A profile of one of the organizations (a sub-organization's login may name its parent's). */
    async findById(organizationIds: readonly string[], id: string): Promise<TSessionProfileRow | null> {
      return db.sessionProfile.findFirst({ where: { id, organizationId: { in: [...organizationIds] } } });
    },
    /** The organization's profiles, oldest first. */
    async list(organizationId: string): Promise<TSessionProfileRow[]> {
      return db.sessionProfile.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    },
    /** Records the profile on a session key just registered (same transaction as the key). */
    async attachToApiKey(organizationId: string, apiKeyId: string, sessionProfileId: string): Promise<void> {
      await db.apiKey.updateMany({ where: { organizationId, id: apiKeyId }, data: { sessionProfileId } });
    },
    async createReadOnlySession(row: TReadOnlySessionRow, at: Date): Promise<void> {
      await db.readOnlySession.create({ data: { ...row, createdAt: at } });
    },
    /** The session whose token hashes to `tokenHash`, expired or not (the caller says which). */
    async findReadOnlySession(tokenHash: string): Promise<TReadOnlySessionRow | null> {
      return db.readOnlySession.findUnique({ where: { tokenHash }, select: { tokenHash: true, organizationId: true, userId: true, expiresAt: true } });
    },
  };
}
