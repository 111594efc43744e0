/**
 * The schema stays distributable by organization (Citus, README "Operations"): on a migrated
 * database, every tenant table — one with an `organization_id` column — has its primary key,
 * every unique constraint and every unique index include `organization_id`, and each foreign key
 * between tenant tables carries it on both sides. Citus requires exactly that of a table
 * distributed by `organization_id`: uniqueness and references are then checked inside one shard.
 *
 * Tables without `organization_id` must be listed in REFERENCE_TABLES with the reason they are
 * not per-organization (Citus replicates them to every node, or keeps them on the coordinator).
 * Constraints that break the rule today are listed, each with why, in KNOWN_VIOLATIONS; the list
 * may only shrink: an entry that no longer breaks the rule (fixed, or renamed) fails the check too.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '../testing/index.js';
import { runMigrations } from './run-migrations.js';

/** Not per-organization. Each says where it lives in a Citus deployment. */
export const REFERENCE_TABLES: Readonly<Record<string, string>> = {
  organizations: 'the tenants themselves: distributed by their own id (its primary key), co-located with the tenant tables',
  server_keys: "the installation's sealed server keys (signer, notarizer, …): a reference table",
  system_state: 'installation-wide settings and markers: a reference table',
  webhook_signing_keys: "the installation's webhook signing keys (one JWKS for every organization): a reference table",
  latchkey_migrations: "the migration runner's ledger: coordinator only",
  gas_relayers: "the installation's one gas relayer (id 'default', migration 0020): a reference table",
};

/** Primary keys (id) from the first migrations: ids are random and globally unique, and every
 *  repository addresses these rows through Prisma's `@id`. Re-keying them as (organization_id,
 *  id) means compound keys in every Prisma call on them: a migration of its own. */
const LEGACY_ID_KEY = 'primary key (id) alone; ids are globally unique, and re-keying as (organization_id, id) needs compound keys in every Prisma call on the table';

/** `table.constraint_or_index` → why it breaks the rule today. */
export const KNOWN_VIOLATIONS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      'activities', 'api_keys', 'auth_proxy_configs', 'authenticators', 'import_targets', 'oauth2_credentials', 'oauth_providers', 'otp_records',
      'outbox_events', 'policies', 'policy_evaluations', 'private_key_tags', 'private_keys', 'sessions', 'spent_verification_tokens', 'user_tags',
      'users', 'votes', 'wallet_accounts', 'wallets', 'webhook_deliveries', 'webhook_delivery_attempts', 'webhook_endpoints', 'webhook_messages',
      'webhook_subscriptions', 'tvc_apps', 'tvc_operators', 'tvc_deployments', 'tvc_manifests', 'tvc_manifest_approvals', 'gas_ledger_entries',
    ].map((t) => [`${t}.${t}_pkey`, LEGACY_ID_KEY]),
  ),
  // Added by issue 16's migrations, written alongside this check and keyed like the tables before
  // them. Their owners: key them as (organization_id, id) and drop the line.
  ...Object.fromEntries(
    [
      ['tvc_operator_sets', '0019'], ['send_transaction_statuses', '0020'], ['secrets', '0022'], ['invitations', '0022'], ['email_events', '0022'],
      ['smart_contract_interfaces', '0023'], ['session_profiles', '0024'],
    ].map(([t, m]) => [`${t}.${t}_pkey`, `migration ${m}: ${LEGACY_ID_KEY}`]),
  ),
  'gas_usage_configs.gas_usage_configs_id_key': 'migration 0020: a unique id beside the organization key, for lookups by id alone',
  'read_only_sessions.read_only_sessions_pkey': 'migration 0024: looked up by the SHA-256 of the session token alone (X-Session carries no organization)',
  'verified_contacts.verified_contacts_pkey': '(user_id, kind, contact): user ids are globally unique; adding organization_id is a small migration not yet made',
  'webhook_messages.webhook_messages_event_id_key': 'the event id (X-Turnkey-Event-Id) is globally unique by construction; the worker looks messages up by it alone',
  'webhook_messages.webhook_messages_endpoint_id_outbox_event_id_key': 'endpoint ids are globally unique (the legacy feature endpoint embeds the organization id)',
};

interface TKey {
  table: string;
  name: string;
  kind: 'primary key' | 'unique constraint' | 'unique index' | 'foreign key';
  columns: string[];
  /** Foreign keys: the referenced table and columns. */
  refTable?: string;
  refColumns?: string[];
  definition: string;
}

let t: TTestDatabase;
let tables: Map<string, string[]>;
let keys: TKey[];

beforeAll(async () => {
  t = await createTestDatabase();
  await runMigrations(t.url);
  const c = new pg.Client({ connectionString: t.url });
  await c.connect();
  try {
    const cols = await c.query<{ table_name: string; column_name: string }>(
      "SELECT c.table_name, c.column_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name) WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'",
    );
    tables = new Map();
    for (const r of cols.rows) tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
    const attnames = (rel: string, nums: string) => `ARRAY(SELECT a.attname::text FROM unnest(${nums}) WITH ORDINALITY k(num, i) JOIN pg_attribute a ON a.attrelid = ${rel} AND a.attnum = k.num ORDER BY k.i)`;
    const constraints = await c.query<{ table: string; name: string; type: string; columns: string[]; ref_table: string | null; ref_columns: string[]; definition: string }>(
      `SELECT cl.relname AS table, co.conname AS name, co.contype AS type, ${attnames('co.conrelid', 'co.conkey')} AS columns,
              rc.relname AS ref_table, ${attnames('co.confrelid', 'co.confkey')} AS ref_columns, pg_get_constraintdef(co.oid) AS definition
         FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
         LEFT JOIN pg_class rc ON rc.oid = co.confrelid
        WHERE n.nspname = 'public' AND co.contype IN ('p', 'u', 'f')`,
    );
    // Unique indexes that back no constraint (partial ones included: Citus holds them to the same rule).
    const indexes = await c.query<{ table: string; name: string; columns: string[]; definition: string }>(
      `SELECT ct.relname AS table, ci.relname AS name, ${attnames('x.indrelid', 'x.indkey::int2[]')} AS columns, pg_get_indexdef(x.indexrelid) AS definition
         FROM pg_index x JOIN pg_class ci ON ci.oid = x.indexrelid JOIN pg_class ct ON ct.oid = x.indrelid JOIN pg_namespace n ON n.oid = ct.relnamespace
        WHERE n.nspname = 'public' AND x.indisunique AND NOT EXISTS (SELECT 1 FROM pg_constraint co WHERE co.conindid = x.indexrelid)`,
    );
    const kinds = { p: 'primary key', u: 'unique constraint', f: 'foreign key' } as const;
    keys = [
      ...constraints.rows.map((r): TKey => ({ table: r.table, name: r.name, kind: kinds[r.type as keyof typeof kinds], columns: r.columns, ...(r.ref_table ? { refTable: r.ref_table, refColumns: r.ref_columns } : {}), definition: r.definition })),
      ...indexes.rows.map((r): TKey => ({ table: r.table, name: r.name, kind: 'unique index', columns: r.columns, definition: r.definition })),
    ];
  } finally {
    await c.end();
  }
});

afterAll(async () => {
  await t?.drop();
  await stopTestPostgres();
});

const isTenant = (table: string) => tables.get(table)?.includes('organization_id') === true;

/** What breaks the rule, as `table.name` → a message naming the table, the constraint and the fix. */
function violations(): Map<string, string> {
  const out = new Map<string, string>();
  for (const k of keys) {
    if (!isTenant(k.table)) continue;
    if (k.kind === 'foreign key') {
      // A reference to a reference table (or to organizations by id) is allowed as it is.
      if (!k.refTable || !isTenant(k.refTable)) continue;
      const i = k.columns.indexOf('organization_id');
      if (i < 0 || k.refColumns?.[i] !== 'organization_id') out.set(`${k.table}.${k.name}`, `${k.table}: foreign key ${k.name} (${k.definition}) must carry organization_id on both sides, e.g. FOREIGN KEY (organization_id, …) REFERENCES ${k.refTable} (organization_id, …)`);
    } else if (!k.columns.includes('organization_id')) {
      out.set(`${k.table}.${k.name}`, `${k.table}: ${k.kind} ${k.name} (${k.definition}) does not include organization_id; key it as (organization_id, …) or list it in KNOWN_VIOLATIONS with the reason`);
    }
  }
  return out;
}

describe('every tenant table is distributable by organization_id', () => {
  it('finds the tables and their keys (the check is not vacuous)', () => {
    expect(tables.size).toBeGreaterThan(30);
    expect(keys.filter((k) => k.kind === 'primary key').length).toBeGreaterThan(30);
    // A key the rule accepts and one it refuses, as seen by the check itself.
    expect(violations().has('ip_allowlists.ip_allowlists_pkey')).toBe(false);
    expect(violations().has('activities.activities_pkey')).toBe(true);
  });

  it('tables without organization_id are the listed reference tables', () => {
    const unlisted = [...tables.keys()].filter((name) => !isTenant(name) && !(name in REFERENCE_TABLES)).map((name) => `${name}: no organization_id column — add it (a tenant table) or list it in REFERENCE_TABLES with where it lives under Citus`);
    expect(unlisted).toEqual([]);
    const tenantListed = Object.keys(REFERENCE_TABLES).filter((name) => !tables.has(name) || isTenant(name)).map((name) => `${name}: listed in REFERENCE_TABLES but ${tables.has(name) ? 'has organization_id' : 'does not exist'}`);
    expect(tenantListed).toEqual([]);
  });

  it('primary keys, unique constraints, unique indexes and foreign keys of tenant tables include organization_id (but the listed ones)', () => {
    const found = violations();
    const unlisted = [...found].filter(([k]) => !(k in KNOWN_VIOLATIONS)).map(([, message]) => message);
    expect(unlisted).toEqual([]);
  });

  it('every listed violation still exists: a fixed one leaves the list', () => {
    const found = violations();
    expect(Object.keys(KNOWN_VIOLATIONS).filter((k) => !found.has(k)).map((k) => `${k}: listed in KNOWN_VIOLATIONS but no longer breaks the rule (or was renamed): remove it from the list`)).toEqual([]);
  });
});
