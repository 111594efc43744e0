/** Organizations, their root quorum and their features. */
import type { TDb } from '../database.js';
import type { Organization, OrganizationFeature, RootQuorumMember } from '../generated/prisma/client.js';

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
    async rootQuorumMembers(organizationId: string): Promise<RootQuorumMember[]> {
      return db.rootQuorumMember.findMany({ where: { organizationId }, orderBy: { userId: 'asc' } });
    },
    async features(organizationId: string): Promise<OrganizationFeature[]> {
      return db.organizationFeature.findMany({ where: { organizationId }, orderBy: { name: 'asc' } });
    },
  };
}
export type TOrganizationRepository = ReturnType<typeof organizationRepository>;
