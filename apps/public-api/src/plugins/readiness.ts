/**
 * `/readyz` for the public API: ready means the database answers and holds exactly the migrations
 * of this build (the runner records each applied file by name in `latchkey_migrations`, see
 * @latchkey/persistence run-migrations.ts). `/healthz` only says the process and its database are
 * alive; a balancer should send traffic on `/readyz`, which also fails while another process is
 * still migrating, or after a newer build migrated the database under this one.
 *
 * One probe at a time reaches the database, and an answer is reused for `reuseMs`, so a flood of
 * probes costs one query per interval.
 */
import { loadMigrations, type TSql } from '@latchkey/persistence';

export interface TReadinessOptions {
  /** The migration names this build ships (default: read once from prisma/migrations). */
  expected?: string[];
  /** How long an answer is reused. Default 1000 ms. */
  reuseMs?: number;
  now?: () => number;
}

const list = (names: string[], max = 3) => names.slice(0, max).join(', ') + (names.length > max ? ` and ${names.length - max} more` : '');

/** Why the database is not ready for this build, or undefined when it is. */
export function migrationGap(expected: readonly string[], applied: readonly string[]): string | undefined {
  const have = new Set(applied);
  const known = new Set(expected);
  const pending = expected.filter((n) => !have.has(n));
  const unknown = applied.filter((n) => !known.has(n));
  if (unknown.length > 0) return `the database has ${unknown.length} migration(s) this build does not know (${list(unknown)}): it was migrated by a newer Latchkey`;
  if (pending.length > 0) return `${pending.length} migration(s) not applied yet (${list(pending)})`;
  return undefined;
}

/**
 * The readiness probe for THttpServerOptions.readiness.
 * @returns a function that resolves when ready and throws an Error saying why not otherwise
 */
export function createReadiness(sql: TSql, opts: TReadinessOptions = {}): () => Promise<void> {
  const now = opts.now ?? Date.now;
  const reuseMs = opts.reuseMs ?? 1000;
  const expected = opts.expected ? Promise.resolve(opts.expected) : loadMigrations().then((ms) => ms.map((m) => m.name));
  let last: { at: number; reason: string | undefined } | undefined;
  let inFlight: Promise<string | undefined> | undefined;

  async function check(): Promise<string | undefined> {
    let applied: string[];
    try {
      applied = (await sql.query<{ name: string }>('SELECT name FROM latchkey_migrations')).rows.map((r) => r.name);
    } catch (e) {
      // 42P01 undefined_table: nothing was ever migrated. Anything else: say no more than "unreachable".
      if ((e as { code?: unknown }).code === '42P01') return 'the database has no migrations applied';
      return 'the database cannot be reached';
    }
    return migrationGap(await expected, applied);
  }

  return async () => {
    if (!last || now() - last.at >= reuseMs) {
      inFlight ??= check().finally(() => (inFlight = undefined));
      last = { at: now(), reason: await inFlight };
    }
    if (last.reason) throw new Error(last.reason);
  };
}
