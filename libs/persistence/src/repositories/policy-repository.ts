/** Policies of an organization, and the record of every policy evaluation of an activity. */
import type { TDb } from '../database.js';
import type { Policy, PolicyEvaluation, Prisma } from '../generated/prisma/client.js';

export interface TNewPolicy {
  id: string;
  organizationId: string;
  name: string;
  effect: string;
  condition: string;
  consensus: string;
  notes: string;
  createdAt: Date;
}

export interface TPolicyChanges {
  name?: string;
  effect?: string;
  condition?: string;
  consensus?: string;
  notes?: string;
}

export function policyRepository(db: TDb) {
  return {
    /** @throws a unique violation when a name is taken in the organization */
    async create(p: TNewPolicy): Promise<Policy> {
      return db.policy.create({ data: { ...p, updatedAt: p.createdAt } });
    },
    async findById(organizationId: string, id: string): Promise<Policy | null> {
      return db.policy.findFirst({ where: { organizationId, id } });
    },
    /** In creation order. */
    async list(organizationId: string): Promise<Policy[]> {
      return db.policy.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });
    },
    /** @throws a unique violation when the new name is taken */
    async update(organizationId: string, id: string, changes: TPolicyChanges, at: Date): Promise<boolean> {
      const { count } = await db.policy.updateMany({ where: { organizationId, id }, data: { ...changes, updatedAt: at } });
      return count === 1;
    },
    /** @returns the ids deleted */
    async delete(organizationId: string, ids: readonly string[]): Promise<string[]> {
      const found = (await db.policy.findMany({ where: { organizationId, id: { in: [...ids] } }, select: { id: true } })).map((p) => p.id);
      if (found.length) await db.policy.deleteMany({ where: { organizationId, id: { in: found } } });
      return found;
    },
    async recordEvaluation(e: { id: string; organizationId: string; activityId: string; voteId?: string | null; outcome: string; evaluations: Prisma.InputJsonValue; createdAt: Date }): Promise<void> {
      await db.policyEvaluation.create({ data: { ...e, voteId: e.voteId ?? null } });
    },
    async evaluations(organizationId: string, activityId: string): Promise<PolicyEvaluation[]> {
      return db.policyEvaluation.findMany({ where: { organizationId, activityId }, orderBy: { id: 'asc' } });
    },
  };
}
export type TPolicyRepository = ReturnType<typeof policyRepository>;
