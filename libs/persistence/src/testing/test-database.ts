/**
 * Databases for tests: a fresh, empty database per call, on the PostgreSQL named by DATABASE_URL
 * when it is set, and otherwise on one embedded PostgreSQL started for the test process. Tests
 * thus run unchanged against both set-ups, as CI does.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type TEmbeddedPostgres } from '../embedded/start-embedded-postgres.js';

export interface TTestDatabase {
  url: string;
  drop(): Promise<void>;
}

let embedded: Promise<{ pg: TEmbeddedPostgres; dir: string }> | undefined;

/** A data folder any user can traverse (the embedded cluster runs as `postgres` under root). */
export async function makeTestDataDir(prefix = 'latchkey-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

async function adminUrl(): Promise<string> {
  const external = process.env['DATABASE_URL'];
  if (external) return external;
  embedded ??= (async () => {
    const dir = await makeTestDataDir();
    const started = await startEmbeddedPostgres({ dataDir: dir });
    process.once('exit', () => void started.stop());
    return { pg: started, dir };
  })();
  return (await embedded).pg.url;
}

/** Creates an empty database and returns its URL. */
export async function createTestDatabase(): Promise<TTestDatabase> {
  const base = await adminUrl();
  const name = `lk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Stops the embedded test cluster, if one was started, and removes its folder. */
export async function stopTestPostgres(): Promise<void> {
  if (!embedded) return;
  const e = await embedded;
  embedded = undefined;
  await e.pg.stop();
  await rm(e.dir, { recursive: true, force: true });
}
