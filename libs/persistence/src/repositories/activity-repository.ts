/** Activities and their votes. The (organization, fingerprint) pair is unique: the idempotency key. */
import type { TDb } from '../database.js';
import type { Activity, Prisma, Vote } from '../generated/prisma/client.js';
import { finishPage, planPage, type TPageRequest } from '../pagination.js';

export interface TNewActivity {
  id: string;
  organizationId: string;
  type: string;
  status: string;
  intent: Prisma.InputJsonValue;
  result: Prisma.InputJsonValue;
  failure?: Prisma.InputJsonValue | null;
  fingerprint: string;
  createdByUserId: string | null;
  /** Also the initial updatedAt. */
  createdAt: Date;
}

export interface TActivityListQuery extends TPageRequest {
  organizationId: string;
  statuses?: string[] | undefined;
  types?: string[] | undefined;
}

export function activityRepository(db: TDb) {
  return {
    async insert(a: TNewActivity): Promise<Activity> {
      const { failure, ...rest } = a;
      return db.activity.create({ data: { ...rest, updatedAt: a.createdAt, ...(failure ? { failure } : {}) } });
    },
    async findById(organizationId: string, id: string): Promise<Activity | null> {
      return db.activity.findFirst({ where: { organizationId, id } });
    },
    async findByFingerprint(organizationId: string, fingerprint: string): Promise<Activity | null> {
      return db.activity.findUnique({ where: { organizationId_fingerprint: { organizationId, fingerprint } } });
    },
    /** Newest first. */
    async list(q: TActivityListQuery): Promise<Activity[]> {
      const plan = planPage('desc', q);
      const rows = await db.activity.findMany({
        where: {
          organizationId: q.organizationId,
          ...(q.statuses?.length ? { status: { in: q.statuses } } : {}),
          ...(q.types?.length ? { type: { in: q.types } } : {}),
          ...(plan.idFilter ? { id: plan.idFilter } : {}),
        },
        orderBy: { id: plan.queryDirection },
        take: plan.take,
      });
      return finishPage(plan, rows);
    },
    async votes(organizationId: string, activityId: string): Promise<Vote[]> {
      return db.vote.findMany({ where: { organizationId, activityId }, orderBy: { id: 'asc' } });
    },
  };
}
export type TActivityRepository = ReturnType<typeof activityRepository>;
