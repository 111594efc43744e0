/** Organizations, their root quorum and their features. */
import type { TDb } from '../database.js';
import { Prisma, type Organization, type OrganizationFeature, type RootQuorumMember } from '../generated/prisma/client.js';
import type { TPageRequest } from '../pagination.js';

/** What `list_suborgs` may filter by; OIDC tokens arrive here already verified, as (iss, sub). */
export type TSubOrganizationFilter =
  | { by: 'NAME' | 'USERNAME' | 'EMAIL' | 'PHONE_NUMBER' | 'CREDENTIAL_ID' | 'PUBLIC_KEY' | 'WALLET_ACCOUNT_ADDRESS'; value: string }
  | { by: 'OIDC'; issuer: string; subject: string }
  | { by: 'OIDC_CLAIMS'; issuer: string; subject: string; audience: string }
  /** list_verified_suborgs: a user holds the contact and proved it with a verification token. */
  | { by: 'VERIFIED_EMAIL' | 'VERIFIED_PHONE_NUMBER'; value: string }
  | { by: 'VERIFIED_ANY' };

function filterClause(f: TSubOrganizationFilter): Prisma.Sql {
  switch (f.by) {
    case 'NAME':
      return Prisma.sql`o.name = ${f.value}`;
    case 'USERNAME':
      return Prisma.sql`EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.deleted_at IS NULL AND u.user_name = ${f.value})`;
    case 'EMAIL':
      return Prisma.sql`EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.deleted_at IS NULL AND lower(u.user_email) = lower(${f.value}))`;
    case 'PHONE_NUMBER':
      return Prisma.sql`EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.deleted_at IS NULL AND u.user_phone_number = ${f.value})`;
    case 'CREDENTIAL_ID':
      return Prisma.sql`EXISTS (SELECT 1 FROM authenticators a WHERE a.organization_id = o.id AND a.deleted_at IS NULL AND a.credential_id = ${f.value})`;
    case 'PUBLIC_KEY':
      return Prisma.sql`(EXISTS (SELECT 1 FROM api_keys k WHERE k.organization_id = o.id AND k.deleted_at IS NULL AND k.public_key = lower(${f.value}))
        OR EXISTS (SELECT 1 FROM authenticators a WHERE a.organization_id = o.id AND a.deleted_at IS NULL AND lower(a.public_key) = lower(${f.value})))`;
    case 'WALLET_ACCOUNT_ADDRESS':
      return Prisma.sql`EXISTS (SELECT 1 FROM wallet_accounts w WHERE w.organization_id = o.id AND w.deleted_at IS NULL AND w.address = ${f.value})`;
    case 'OIDC':
      return Prisma.sql`EXISTS (SELECT 1 FROM oauth_providers p WHERE p.organization_id = o.id AND p.deleted_at IS NULL AND p.issuer = ${f.issuer} AND p.subject = ${f.subject})`;
    case 'OIDC_CLAIMS':
      return Prisma.sql`EXISTS (SELECT 1 FROM oauth_providers p WHERE p.organization_id = o.id AND p.deleted_at IS NULL AND p.issuer = ${f.issuer} AND p.subject = ${f.subject} AND p.audience = ${f.audience})`;
    case 'VERIFIED_ANY':
      return Prisma.sql`EXISTS (SELECT 1 FROM users u JOIN verified_contacts v ON v.user_id = u.id
        AND ((v.kind = 'EMAIL' AND v.contact = lower(u.user_email)) OR (v.kind = 'PHONE_NUMBER' AND v.contact = u.user_phone_number))
        WHERE u.organization_id = o.id AND u.deleted_at IS NULL)`;
    case 'VERIFIED_EMAIL':
      return Prisma.sql`EXISTS (SELECT 1 FROM users u JOIN verified_contacts v ON v.user_id = u.id AND v.kind = 'EMAIL' AND v.contact = lower(u.user_email)
        WHERE u.organization_id = o.id AND u.deleted_at IS NULL AND lower(u.user_email) = lower(${f.value}))`;
    case 'VERIFIED_PHONE_NUMBER':
      return Prisma.sql`EXISTS (SELECT 1 FROM users u JOIN verified_contacts v ON v.user_id = u.id AND v.kind = 'PHONE_NUMBER' AND v.contact = u.user_phone_number
        WHERE u.organization_id = o.id AND u.deleted_at IS NULL AND u.user_phone_number = ${f.value})`;
  }
}

export interface TNewOrganization {
  id: string;
  name: string;
  parentOrganizationId?: string | null;
  rootQuorumThreshold?: number;
}

export function organizationRepository(db: TDb) {
  return {
    async create(o: TNewOrganization): Promise<Organization> {
      return db.organization.create({
        data: { id: o.id, name: o.name, parentOrganizationId: o.parentOrganizationId ?? null, rootQuorumThreshold: o.rootQuorumThreshold ?? 1 },
      });
    },
    async findById(id: string): Promise<Organization | null> {
      return db.organization.findFirst({ where: { id, deletedAt: null } });
    },
    async count(): Promise<number> {
      return db.organization.count({ where: { deletedAt: null } });
    },
    async addRootQuorumMembers(organizationId: string, userIds: string[]): Promise<void> {
      await db.rootQuorumMember.createMany({ data: userIds.map((userId) => ({ organizationId, userId })), skipDuplicates: true });
    },
    /** Replaces the root quorum: its threshold and members. */
    async setRootQuorum(organizationId: string, threshold: number, userIds: readonly string[], at: Date): Promise<void> {
      await db.organization.update({ where: { id: organizationId }, data: { rootQuorumThreshold: threshold, updatedAt: at } });
      await db.rootQuorumMember.deleteMany({ where: { organizationId } });
      await db.rootQuorumMember.createMany({ data: userIds.map((userId) => ({ organizationId, userId, createdAt: at })) });
    },
    /** Renames a live organization. @returns false when there is none by that id */
    async rename(organizationId: string, name: string, at: Date): Promise<boolean> {
      const { count } = await db.organization.updateMany({ where: { id: organizationId, deletedAt: null }, data: { name, updatedAt: at } });
      return count > 0;
    },
    async rootQuorumMembers(organizationId: string): Promise<RootQuorumMember[]> {
      return db.rootQuorumMember.findMany({ where: { organizationId }, orderBy: { userId: 'asc' } });
    },
    async features(organizationId: string): Promise<OrganizationFeature[]> {
      return db.organizationFeature.findMany({ where: { organizationId }, orderBy: { name: 'asc' } });
    },
    async setFeature(organizationId: string, name: string, value: string, at: Date): Promise<void> {
      await db.organizationFeature.upsert({
        where: { organizationId_name: { organizationId, name } },
        create: { organizationId, name, value, createdAt: at, updatedAt: at },
        update: { value, updatedAt: at },
      });
    },
    /** @returns false when the feature was not set */
    async removeFeature(organizationId: string, name: string): Promise<boolean> {
      const { count } = await db.organizationFeature.deleteMany({ where: { organizationId, name } });
      return count > 0;
    },
    /** Soft-deletes the organization and the credentials in it, so none of them authenticates again. */
    async softDelete(organizationId: string, at: Date): Promise<void> {
      await db.organization.updateMany({ where: { id: organizationId, deletedAt: null }, data: { deletedAt: at, updatedAt: at } });
      await db.apiKey.updateMany({ where: { organizationId, deletedAt: null }, data: { deletedAt: at } });
      await db.authenticator.updateMany({ where: { organizationId, deletedAt: null }, data: { deletedAt: at } });
      await db.user.updateMany({ where: { organizationId, deletedAt: null }, data: { deletedAt: at } });
    },
    /** Live direct sub-organizations of `parentId` matching `filter`, by id (creation order). */
    async listSubOrganizationIds(parentId: string, page: TPageRequest, filter?: TSubOrganizationFilter): Promise<string[]> {
      const where = [Prisma.sql`o.parent_organization_id = ${parentId}`, Prisma.sql`o.deleted_at IS NULL`];
      if (filter) where.push(filterClause(filter));
      if (page.after !== undefined) where.push(Prisma.sql`o.id > ${page.after}`);
      if (page.before !== undefined) where.push(Prisma.sql`o.id < ${page.before}`);
      const direction = page.before !== undefined ? Prisma.sql`DESC` : Prisma.sql`ASC`;
      const rows = await db.$queryRaw<{ id: string }[]>`
        SELECT o.id FROM organizations o WHERE ${Prisma.join(where, ' AND ')} ORDER BY o.id ${direction} LIMIT ${page.limit}`;
      const ids = rows.map((r) => r.id);
      return page.before !== undefined ? ids.reverse() : ids;
    },
  };
}
export type TOrganizationRepository = ReturnType<typeof organizationRepository>;
