/**
 * Gas sponsorship (migration 0020): the window configuration of a billing organization
 * (upsert_gas_usage_config), the ledger the receipt watcher writes (`recordSendOutcome`) summed
 * over a sliding window, and the relayer account whose key the vault seals. USD amounts cross this
 * boundary as micro-dollar bigints: PostgreSQL numeric does the sums, nothing is a float.
 */
import type { TDb } from '../database.js';

export interface TGasUsageConfigRow {
  id: string;
  organizationId: string;
  orgWindowLimitMicros: bigint;
  subOrgWindowLimitMicros: bigint;
  windowDurationMinutes: number;
  enabled: boolean;
}

export interface TGasRelayerRow {
  address: string;
  publicKey: string;
  sealedPrivateKey: string;
}

const micros = (text: string | null): bigint => BigInt(text ?? '0');
const usd = (m: bigint): string => `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`;

export function gasRepository(db: TDb) {
  return {
    async findConfig(organizationId: string): Promise<TGasUsageConfigRow | null> {
      const rows = await db.$queryRawUnsafe<{ id: string; organizationId: string; org: string; sub: string; windowDurationMinutes: number; enabled: boolean }[]>(
        `SELECT id, organization_id AS "organizationId", (org_window_limit_usd * 1000000)::numeric(40,0)::text AS org, (sub_org_window_limit_usd * 1000000)::numeric(40,0)::text AS sub,
                window_duration_minutes AS "windowDurationMinutes", enabled
         FROM gas_usage_configs WHERE organization_id = $1`,
        organizationId,
      );
      const r = rows[0];
      return r ? { id: r.id, organizationId: r.organizationId, orgWindowLimitMicros: micros(r.org), subOrgWindowLimitMicros: micros(r.sub), windowDurationMinutes: r.windowDurationMinutes, enabled: r.enabled } : null;
    },
    /** Creates or replaces the organization's window; a new one gets `id`. @returns the stored id */
    async upsertConfig(c: Omit<TGasUsageConfigRow, 'id'> & { id: string }, at: Date): Promise<string> {
      const rows = await db.$queryRawUnsafe<{ id: string }[]>(
        `INSERT INTO gas_usage_configs (organization_id, id, org_window_limit_usd, sub_org_window_limit_usd, window_duration_minutes, enabled, created_at, updated_at)
         VALUES ($1, $2, $3::numeric, $4::numeric, $5, $6, $7, $7)
         ON CONFLICT (organization_id) DO UPDATE SET org_window_limit_usd = EXCLUDED.org_window_limit_usd, sub_org_window_limit_usd = EXCLUDED.sub_org_window_limit_usd,
           window_duration_minutes = EXCLUDED.window_duration_minutes, enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at
         RETURNING id`,
        c.organizationId,
        c.id,
        usd(c.orgWindowLimitMicros),
        usd(c.subOrgWindowLimitMicros),
        c.windowDurationMinutes,
        c.enabled,
        at,
      );
      return rows[0]!.id;
    },
    /** The organization's sponsored gas over the last `minutes` (open reservations included), in micro-dollars. */
    async usageMicros(organizationId: string, minutes: number): Promise<bigint> {
      const rows = await db.$queryRawUnsafe<{ m: string }[]>(
        `SELECT (coalesce(sum(usage_usd), 0) * 1000000)::numeric(40,0)::text AS m FROM gas_ledger_entries
         WHERE organization_id = $1 AND created_at > now() - make_interval(mins => $2::int)`,
        organizationId,
        minutes,
      );
      return micros(rows[0]?.m ?? '0');
    },
    /**
     * Serialises the sponsored sends counted against these organizations' windows until the calling
     * transaction ends, so a send's check (usage and open reservations) and its reservation are one
     * step. Taken in the order given: the billing organization first, then the sub-organization.
     */
    async lockWindows(organizationIds: readonly string[]): Promise<void> {
      for (const id of organizationIds) await db.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text`, `gas-window:${id}`);
    },
    /**
     * Reserves a sponsored send's worst case in the ledger against each organization, under the
     * send's own entry ids (`<sendId>:<organizationId>`): counted by `usageMicros` like any usage
     * until the receipt watcher replaces it with the actual cost (or removes it, for a send that
     * never ran). Written in the send's transaction: a refused or failed broadcast leaves nothing.
     */
    async reserve(sendId: string, activityId: string, organizationIds: readonly string[], amountMicros: bigint): Promise<void> {
      for (const org of organizationIds) {
        await db.$executeRawUnsafe(
          `INSERT INTO gas_ledger_entries (id, organization_id, activity_id, usage_usd) VALUES ($1, $2, $3, $4::numeric)`,
          `${sendId}:${org}`,
          org,
          activityId,
          usd(amountMicros),
        );
      }
    },
    async relayer(): Promise<TGasRelayerRow | null> {
      const rows = await db.$queryRawUnsafe<TGasRelayerRow[]>(`SELECT address, public_key AS "publicKey", sealed_private_key AS "sealedPrivateKey" FROM gas_relayers WHERE id = 'default'`);
      return rows[0] ?? null;
    },
    /** Stores the relayer unless one exists (two processes racing keep the first). @returns the stored one */
    async ensureRelayer(r: TGasRelayerRow): Promise<TGasRelayerRow> {
      await db.$executeRawUnsafe(
        `INSERT INTO gas_relayers (id, address, public_key, sealed_private_key) VALUES ('default', $1, $2, $3) ON CONFLICT (id) DO NOTHING`,
        r.address,
        r.publicKey,
        r.sealedPrivateKey,
      );
      return (await this.relayer())!;
    },
  };
}
export type TGasRepository = ReturnType<typeof gasRepository>;

/** Micro-dollars as a decimal USD string, without trailing zeros ("1.5", "0.000123", "0"). */
export function formatUsdMicros(m: bigint): string {
  const sign = m < 0n ? '-' : '';
  const a = m < 0n ? -m : m;
  const frac = (a % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${sign}${a / 1_000_000n}${frac ? `.${frac}` : ''}`;
}
