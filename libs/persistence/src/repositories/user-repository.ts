/** Users and their tags. */
import type { TDb } from '../database.js';
import type { User } from '../generated/prisma/client.js';

export interface TNewUser {
  id: string;
  organizationId: string;
  userName: string;
  userEmail?: string | null;
  userPhoneNumber?: string | null;
}

export function userRepository(db: TDb) {
  return {
    async create(u: TNewUser): Promise<User> {
      return db.user.create({
        data: { id: u.id, organizationId: u.organizationId, userName: u.userName, userEmail: u.userEmail ?? null, userPhoneNumber: u.userPhoneNumber ?? null },
      });
    },
    async findById(organizationId: string, id: string): Promise<User | null> {
      return db.user.findFirst({ where: { organizationId, id, deletedAt: null } });
    },
    async listByOrganization(organizationId: string): Promise<User[]> {
      return db.user.findMany({ where: { organizationId, deletedAt: null }, orderBy: { id: 'asc' } });
    },
    async tagIdsByUser(organizationId: string): Promise<Map<string, string[]>> {
      const rows = await db.userTagAssignment.findMany({ where: { organizationId }, orderBy: { userTagId: 'asc' } });
      const out = new Map<string, string[]>();
      for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), r.userTagId]);
      return out;
    },
  };
}
export type TUserRepository = ReturnType<typeof userRepository>;
