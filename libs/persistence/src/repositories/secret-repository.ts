/**
 * Opaque secrets (issue 16 §6): what import_secrets writes, export_secrets reads and
 * delete_secrets removes, inside their activity's transaction. Only ciphertext sealed by the key
 * vault reaches this layer; listing returns metadata only.
 */
import type { TDb } from '../database.js';
import { finishPage, planPage, type TPageRequest } from '../pagination.js';

export interface TSecretStaticProperty {
  key: string;
  value: string;
}

export interface TSecretRow {
  id: string;
  organizationId: string;
  name: string | null;
  sealedSecret: string;
  staticProperties: TSecretStaticProperty[];
  createdByUserId: string;
  createdAt: Date;
}

/** A secret without its ciphertext (what list_secrets answers). */
export type TSecretMetadataRow = Omit<TSecretRow, 'sealedSecret'>;

function toRow<T extends { staticProperties: unknown }>(r: T): Omit<T, 'staticProperties'> & { staticProperties: TSecretStaticProperty[] } {
  return { ...r, staticProperties: Array.isArray(r.staticProperties) ? (r.staticProperties as TSecretStaticProperty[]) : [] };
}

const metadata = { id: true, organizationId: true, name: true, staticProperties: true, createdByUserId: true, createdAt: true } as const;

export function secretRepository(db: TDb) {
  return {
    async create(s: Omit<TSecretRow, 'createdAt'>, at: Date): Promise<void> {
      await db.secret.create({ data: { ...s, staticProperties: s.staticProperties as object[], createdAt: at } });
    },
    /** The names among `names` already taken in the organization. */
    async takenNames(organizationId: string, names: readonly string[]): Promise<string[]> {
      if (names.length === 0) return [];
      const rows = await db.secret.findMany({ where: { organizationId, name: { in: [...names] } }, select: { name: true } });
      return rows.map((r) => r.name!);
    },
    /** The secrets of `ids` that belong to the organization (any order). */
    async findMany(organizationId: string, ids: readonly string[]): Promise<TSecretRow[]> {
      return (await db.secret.findMany({ where: { organizationId, id: { in: [...ids] } } })).map(toRow);
    },
    async markExported(organizationId: string, ids: readonly string[], at: Date): Promise<void> {
      await db.secret.updateMany({ where: { organizationId, id: { in: [...ids] } }, data: { exportedAt: at } });
    },
    /** @returns how many were deleted */
    async deleteMany(organizationId: string, ids: readonly string[]): Promise<number> {
      return (await db.secret.deleteMany({ where: { organizationId, id: { in: [...ids] } } })).count;
    },
    /** Metadata, newest first (ids are UUIDv7), cursor-paged by secret id. */
    async list(organizationId: string, page: TPageRequest): Promise<TSecretMetadataRow[]> {
      const plan = planPage('desc', page);
      const rows = await db.secret.findMany({
        where: { organizationId, ...(plan.idFilter ? { id: plan.idFilter } : {}) },
        orderBy: { id: plan.queryDirection },
        take: plan.take,
        select: metadata,
      });
      return finishPage(plan, rows).map(toRow);
    },
  };
}
export type TSecretRepository = ReturnType<typeof secretRepository>;
