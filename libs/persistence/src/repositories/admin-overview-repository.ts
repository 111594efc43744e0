/**
 * Read models of the admin console's overview: what an operator wants at a glance about one
 * organization and its sub-organizations (counts, activity per hour by status), and a paged
 * search of sub-organizations by name, id or a user's e-mail. Reads only; every caller has already
 * checked, through the engine, that the signer may read the organization asked about.
 */
import type { TDatabase } from '../database.js';

export interface TOrganizationCounts {
  organizationId: string;
  users: number;
  wallets: number;
  /** Activities created in the last 24 hours. */
  activities24h: number;
}

export interface TActivityHourBucket {
  /** Start of the hour (UTC, ISO 8601). */
  hour: string;
  status: string;
  count: number;
}

export interface TSubOrganizationRow {
  organizationId: string;
  name: string;
  createdAt: Date;
}

export function adminOverviewRepository(db: TDatabase) {
  return {
    /** Users, live wallets and last-day activities of each organization in `organizationIds`. */
    async counts(organizationIds: readonly string[]): Promise<TOrganizationCounts[]> {
      if (organizationIds.length === 0) return [];
      const { rows } = await db.sql.query<{ organizationId: string; users: string; wallets: string; activities24h: string }>(
        `SELECT o.id AS "organizationId",
                (SELECT count(*) FROM users u WHERE u.organization_id = o.id AND u.deleted_at IS NULL) AS users,
                (SELECT count(*) FROM wallets w WHERE w.organization_id = o.id AND w.deleted_at IS NULL) AS wallets,
                (SELECT count(*) FROM activities a WHERE a.organization_id = o.id AND a.created_at > now() - interval '24 hours') AS "activities24h"
         FROM organizations o WHERE o.id = ANY($1::text[]) ORDER BY o.id`,
        [organizationIds],
      );
      return rows.map((r) => ({ organizationId: r.organizationId, users: Number(r.users), wallets: Number(r.wallets), activities24h: Number(r.activities24h) }));
    },

    /** Activities of an organization and its sub-organizations created in the last `hours` hours, per hour and status. */
    async activitiesPerHour(organizationId: string, hours: number): Promise<TActivityHourBucket[]> {
      const { rows } = await db.sql.query<{ hour: Date; status: string; count: string }>(
        `SELECT date_trunc('hour', created_at) AS hour, status, count(*) AS count FROM activities
         WHERE organization_id IN (SELECT id FROM organizations WHERE id = $1 OR parent_organization_id = $1) AND created_at > now() - $2 * interval '1 hour'
         GROUP BY 1, 2 ORDER BY 1, 2`,
        [organizationId, hours],
      );
      return rows.map((r) => ({ hour: new Date(r.hour).toISOString(), status: r.status, count: Number(r.count) }));
    },

    /**
     * Live sub-organizations of `parentId` whose name or id contains `search` (case-insensitive),
     * or one of whose users has that e-mail; ordered by id, `limit` from `offset`.
     */
    async searchSubOrganizations(parentId: string, search: string, limit: number, offset: number): Promise<{ total: number; rows: TSubOrganizationRow[] }> {
      const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const where = `o.parent_organization_id = $1 AND o.deleted_at IS NULL AND ($2 = '%%' OR o.name ILIKE $2 OR o.id ILIKE $2
        OR EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.deleted_at IS NULL AND u.user_email ILIKE $2))`;
      const total = await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM organizations o WHERE ${where}`, [parentId, pattern]);
      const { rows } = await db.sql.query<TSubOrganizationRow>(
        `SELECT o.id AS "organizationId", o.name, o.created_at AS "createdAt" FROM organizations o WHERE ${where} ORDER BY o.id LIMIT $3 OFFSET $4`,
        [parentId, pattern, limit, offset],
      );
      return { total: Number(total.rows[0]?.n ?? 0), rows };
    },
  };
}

export type TAdminOverviewRepository = ReturnType<typeof adminOverviewRepository>;
