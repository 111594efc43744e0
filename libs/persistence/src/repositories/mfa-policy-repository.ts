/**
 * MFA policies and the MFA of waiting activities (issue 16 §3, migration 0025). Policies are
 * written by create/update/delete_mfa_policy and read by the queries and by every submission of an
 * organization that has any (the engine caches the organization's list, so one without costs a map
 * lookup). An activity that an MFA policy made wait keeps a snapshot of the policy's steps and the
 * steps done, advanced by the approvals under the activity's lock.
 */
import type { TDb } from '../database.js';

/** A step: satisfied by any one of its methods (`v1RequiredAuthenticationMethod`). */
export interface TMfaStepRow {
  any: { type: string; id?: string }[];
}

export interface TMfaPolicyRow {
  organizationId: string;
  id: string;
  userId: string;
  name: string;
  condition: string;
  requiredMethods: TMfaStepRow[];
  order: number;
  notes: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A step done: the method's type and the credential (API key or authenticator id) that did it. */
export interface TMfaSatisfiedRow {
  type: string;
  id: string;
  at: string;
}

export interface TActivityMfaRow {
  organizationId: string;
  activityId: string;
  mfaPolicyId: string;
  userId: string;
  requiredMethods: TMfaStepRow[];
  satisfiedMethods: TMfaSatisfiedRow[];
}

type TPolicyRecord = Omit<TMfaPolicyRow, 'requiredMethods'> & { requiredMethods: unknown };
const policyRow = (r: TPolicyRecord): TMfaPolicyRow => ({ ...r, requiredMethods: r.requiredMethods as TMfaStepRow[] });
const activityRow = (r: { organizationId: string; activityId: string; mfaPolicyId: string; userId: string; requiredMethods: unknown; satisfiedMethods: unknown }): TActivityMfaRow => ({
  organizationId: r.organizationId,
  activityId: r.activityId,
  mfaPolicyId: r.mfaPolicyId,
  userId: r.userId,
  requiredMethods: r.requiredMethods as TMfaStepRow[],
  satisfiedMethods: r.satisfiedMethods as TMfaSatisfiedRow[],
});
/** Evaluation order: `order`, then the older first. */
const ORDER = [{ order: 'asc' as const }, { createdAt: 'asc' as const }, { id: 'asc' as const }];

export function mfaPolicyRepository(db: TDb) {
  return {
    async create(row: Omit<TMfaPolicyRow, 'createdAt' | 'updatedAt'>, at: Date): Promise<void> {
      await db.mfaPolicy.create({ data: { ...row, requiredMethods: row.requiredMethods as object[], createdAt: at, updatedAt: at } });
    },
    async findById(organizationId: string, userId: string, id: string): Promise<TMfaPolicyRow | null> {
      const r = await db.mfaPolicy.findFirst({ where: { organizationId, userId, id } });
      return r ? policyRow(r) : null;
    },
    /** One user's policies, in evaluation order. */
    async listByUser(organizationId: string, userId: string): Promise<TMfaPolicyRow[]> {
      return (await db.mfaPolicy.findMany({ where: { organizationId, userId }, orderBy: ORDER })).map(policyRow);
    },
    /** Every policy of the organization, in evaluation order (the engine's cached list). */
    async listByOrganization(organizationId: string): Promise<TMfaPolicyRow[]> {
      return (await db.mfaPolicy.findMany({ where: { organizationId }, orderBy: ORDER })).map(policyRow);
    },
    /** Replaces the given fields; false when there is no such policy of the user. */
    async update(organizationId: string, userId: string, id: string, patch: Partial<Pick<TMfaPolicyRow, 'name' | 'condition' | 'requiredMethods' | 'order' | 'notes'>>, at: Date): Promise<boolean> {
      const { requiredMethods, ...rest } = patch;
      const r = await db.mfaPolicy.updateMany({ where: { organizationId, userId, id }, data: { ...rest, ...(requiredMethods ? { requiredMethods: requiredMethods as object[] } : {}), updatedAt: at } });
      return r.count === 1;
    },
    /** False when there is no such policy of the user. */
    async delete(organizationId: string, userId: string, id: string): Promise<boolean> {
      return (await db.mfaPolicy.deleteMany({ where: { organizationId, userId, id } })).count === 1;
    },
    /** Records the MFA a newly submitted activity waits for (same transaction as the activity). */
    async requireForActivity(row: Omit<TActivityMfaRow, 'satisfiedMethods'>, at: Date): Promise<void> {
      await db.activityMfa.create({ data: { ...row, requiredMethods: row.requiredMethods as object[], satisfiedMethods: [], createdAt: at, updatedAt: at } });
    },
    /** An activity's MFA, by policy (none for an activity no MFA policy applied to). */
    async forActivity(organizationId: string, activityId: string): Promise<TActivityMfaRow[]> {
      return (await db.activityMfa.findMany({ where: { organizationId, activityId }, orderBy: [{ createdAt: 'asc' }, { mfaPolicyId: 'asc' }] })).map(activityRow);
    },
    /** Records the steps done so far (the caller holds the activity's lock). */
    async setSatisfied(organizationId: string, activityId: string, mfaPolicyId: string, satisfied: TMfaSatisfiedRow[], at: Date): Promise<void> {
      await db.activityMfa.update({ where: { organizationId_activityId_mfaPolicyId: { organizationId, activityId, mfaPolicyId } }, data: { satisfiedMethods: satisfied as object[], updatedAt: at } });
    },
  };
}
