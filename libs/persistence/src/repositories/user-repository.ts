/** Users and their tags. Users are soft-deleted; tags and tag assignments are deleted outright. */
import type { TDb } from '../database.js';
import type { User, UserTag } from '../generated/prisma/client.js';

export interface TNewUser {
  id: string;
  organizationId: string;
  userName: string;
  userEmail?: string | null;
  userPhoneNumber?: string | null;
  createdAt?: Date;
}

/** Fields of update_user: absent = unchanged, `null` = removed. */
export interface TUserChanges {
  userName?: string;
  userEmail?: string | null;
  userPhoneNumber?: string | null;
}

export function userRepository(db: TDb) {
  return {
    async create(u: TNewUser): Promise<User> {
      const at = u.createdAt ? { createdAt: u.createdAt, updatedAt: u.createdAt } : {};
      return db.user.create({
        data: { id: u.id, organizationId: u.organizationId, userName: u.userName, userEmail: u.userEmail ?? null, userPhoneNumber: u.userPhoneNumber ?? null, ...at },
      });
    },
    async findById(organizationId: string, id: string): Promise<User | null> {
      return db.user.findFirst({ where: { organizationId, id, deletedAt: null } });
    },
    /** The live users among `ids` (callers compare to find the missing ones). */
    async findByIds(organizationId: string, ids: string[]): Promise<User[]> {
      if (ids.length === 0) return [];
      return db.user.findMany({ where: { organizationId, id: { in: ids }, deletedAt: null }, orderBy: { id: 'asc' } });
    },
    async listByOrganization(organizationId: string): Promise<User[]> {
      return db.user.findMany({ where: { organizationId, deletedAt: null }, orderBy: { id: 'asc' } });
    },
    async update(organizationId: string, id: string, changes: TUserChanges, at: Date): Promise<void> {
      await db.user.updateMany({ where: { organizationId, id, deletedAt: null }, data: { ...changes, updatedAt: at } });
    },
    /** Soft-deletes users and drops their tag assignments (their credentials: credentialRepository). */
    async softDelete(organizationId: string, ids: string[], at: Date): Promise<void> {
      await db.user.updateMany({ where: { organizationId, id: { in: ids }, deletedAt: null }, data: { deletedAt: at, updatedAt: at } });
      await db.userTagAssignment.deleteMany({ where: { organizationId, userId: { in: ids } } });
    },
    /** Tag ids per user (of every user, or of `userIds`), each list in tag-id order. */
    async tagIdsByUser(organizationId: string, userIds?: string[]): Promise<Map<string, string[]>> {
      const rows = await db.userTagAssignment.findMany({
        where: { organizationId, ...(userIds ? { userId: { in: userIds } } : {}) },
        orderBy: { userTagId: 'asc' },
      });
      const out = new Map<string, string[]>();
      for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), r.userTagId]);
      return out;
    },

    async createTag(t: { id: string; organizationId: string; name: string; createdAt: Date }, userIds: string[]): Promise<UserTag> {
      const tag = await db.userTag.create({ data: { ...t, updatedAt: t.createdAt } });
      if (userIds.length) await db.userTagAssignment.createMany({ data: userIds.map((userId) => ({ organizationId: t.organizationId, userTagId: t.id, userId })), skipDuplicates: true });
      return tag;
    },
    async findTags(organizationId: string, ids: string[]): Promise<UserTag[]> {
      if (ids.length === 0) return [];
      return db.userTag.findMany({ where: { organizationId, id: { in: ids } }, orderBy: { id: 'asc' } });
    },
    async listTags(organizationId: string): Promise<UserTag[]> {
      return db.userTag.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });
    },
    async renameTag(organizationId: string, id: string, name: string, at: Date): Promise<void> {
      await db.userTag.updateMany({ where: { organizationId, id }, data: { name, updatedAt: at } });
    },
    /** Adds and removes users of one tag. */
    async tagUsers(organizationId: string, tagId: string, add: string[], remove: string[]): Promise<void> {
      if (add.length) await db.userTagAssignment.createMany({ data: add.map((userId) => ({ organizationId, userTagId: tagId, userId })), skipDuplicates: true });
      if (remove.length) await db.userTagAssignment.deleteMany({ where: { organizationId, userTagId: tagId, userId: { in: remove } } });
    },
    /** Gives one user exactly these tags. */
    async setUserTags(organizationId: string, userId: string, tagIds: string[]): Promise<void> {
      await db.userTagAssignment.deleteMany({ where: { organizationId, userId, userTagId: { notIn: tagIds } } });
      if (tagIds.length) await db.userTagAssignment.createMany({ data: tagIds.map((userTagId) => ({ organizationId, userTagId, userId })), skipDuplicates: true });
    },
    /** Deletes tags; returns the ids of the users that carried any of them. */
    async deleteTags(organizationId: string, ids: string[]): Promise<string[]> {
      const carried = await db.userTagAssignment.findMany({ where: { organizationId, userTagId: { in: ids } }, orderBy: { userId: 'asc' } });
      await db.userTagAssignment.deleteMany({ where: { organizationId, userTagId: { in: ids } } });
      await db.userTag.deleteMany({ where: { organizationId, id: { in: ids } } });
      return [...new Set(carried.map((c) => c.userId))];
    },
  };
}
export type TUserRepository = ReturnType<typeof userRepository>;
