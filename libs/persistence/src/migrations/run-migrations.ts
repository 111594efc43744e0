/**
 * The migration runner. Prisma's migration engine is not available here, so migrations are the
 * committed SQL files of `prisma/migrations`, applied in name order, each in its own transaction,
 * under an advisory lock (several processes may start at once). Applied files are recorded with a
 * SHA-256 checksum; an applied file that changed since is refused, so a database never silently
 * drifts from the code.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export interface TMigration {
  name: string;
  sql: string;
  checksum: string;
}

export interface TMigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

/** Arbitrary constant: the advisory-lock key that serialises migration runs. */
const MIGRATION_LOCK_KEY = 7_245_001;

/**
 * Finds `prisma/migrations` by walking up from this module (works from sources, from a lib's
 * dist and from an app bundle alike).
 * @throws Error when no such folder exists above this module.
 */
export function defaultMigrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('prisma/migrations not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** Reads the `.sql` files of a folder in name order. */
export async function loadMigrations(dir: string = defaultMigrationsDir()): Promise<TMigration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (name) => {
      const sql = await readFile(resolve(dir, name), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies the pending migrations to the database at `url`.
 * @throws Error on a checksum mismatch (an applied migration was edited) or a failing migration;
 *   a failing migration is rolled back whole.
 */
export async function runMigrations(url: string, migrations?: TMigration[]): Promise<TMigrationReport> {
  const list = migrations ?? (await loadMigrations());
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const report: TMigrationReport = { applied: [], alreadyApplied: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS latchkey_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM latchkey_migrations');
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    for (const m of list) {
      const known = applied.get(m.name);
      if (known !== undefined) {
        if (known !== m.checksum) {
          throw new Error(
            `migration ${m.name} was changed after it was applied (checksum ${known.slice(0, 12)}… in the database, ${m.checksum.slice(0, 12)}… on disk); refusing to start. Add a new migration instead of editing an applied one.`,
          );
        }
        report.alreadyApplied.push(m.name);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO latchkey_migrations (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      report.applied.push(m.name);
    }
    const unknown = [...applied.keys()].filter((n) => !list.some((m) => m.name === n));
    if (unknown.length > 0) {
      throw new Error(`the database has migrations this build does not know (${unknown.join(', ')}); it was migrated by a newer Latchkey`);
    }
    return report;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
