/**
 * IP allowlists (issue 16 §2): per organization, one organization-level list (public key '') and
 * one per API key, each a whole JSON array of rules. What set/remove_ip_allowlist write inside
 * their activity's transaction, and what the auth cache reads for every stamped request. The
 * caller validates the rules (CIDRs parsed by `@latchkey/domain`'s one parser); this layer stores
 * what it is given.
 */
import type { TDb } from '../database.js';

/** A stored rule: its CIDR as written, its label, and when it was first added (kept across sets). */
export interface TIpAllowlistRule {
  cidr: string;
  label?: string;
  createdAt: string;
}

export interface TIpAllowlistRow {
  organizationId: string;
  /** '' for the organization-level list. */
  publicKey: string;
  enabled: boolean;
  onEvaluationError: 'ALLOW' | 'DENY';
  rules: TIpAllowlistRule[];
}

const ORGANIZATION_LEVEL = '';

function toRow(r: { organizationId: string; publicKey: string; enabled: boolean; onEvaluationError: string; rules: unknown }): TIpAllowlistRow {
  return {
    organizationId: r.organizationId,
    publicKey: r.publicKey,
    enabled: r.enabled,
    onEvaluationError: r.onEvaluationError === 'ALLOW' ? 'ALLOW' : 'DENY',
    rules: Array.isArray(r.rules) ? (r.rules as TIpAllowlistRule[]) : [],
  };
}

export function ipAllowlistRepository(db: TDb) {
  return {
    /** The organization's lists: the organization-level one (if any) and every API key's. */
    async listByOrganization(organizationId: string): Promise<TIpAllowlistRow[]> {
      return (await db.ipAllowlist.findMany({ where: { organizationId }, orderBy: { publicKey: 'asc' } })).map(toRow);
    },
    /** One list: the organization-level one when `publicKey` is undefined. */
    async find(organizationId: string, publicKey: string | undefined): Promise<TIpAllowlistRow | null> {
      const row = await db.ipAllowlist.findUnique({ where: { organizationId_publicKey: { organizationId, publicKey: publicKey ?? ORGANIZATION_LEVEL } } });
      return row ? toRow(row) : null;
    },
    /** Creates or replaces a list whole. */
    async upsert(row: TIpAllowlistRow, at: Date): Promise<void> {
      const data = { enabled: row.enabled, onEvaluationError: row.onEvaluationError, rules: row.rules as object[], updatedAt: at };
      await db.ipAllowlist.upsert({
        where: { organizationId_publicKey: { organizationId: row.organizationId, publicKey: row.publicKey } },
        create: { organizationId: row.organizationId, publicKey: row.publicKey, ...data, createdAt: at },
        update: data,
      });
    },
    /** @returns whether there was such a list */
    async remove(organizationId: string, publicKey: string | undefined): Promise<boolean> {
      const { count } = await db.ipAllowlist.deleteMany({ where: { organizationId, publicKey: publicKey ?? ORGANIZATION_LEVEL } });
      return count > 0;
    },
  };
}
export type TIpAllowlistRepository = ReturnType<typeof ipAllowlistRepository>;
