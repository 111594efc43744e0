/**
 * One embedded PostgreSQL for all the test files of a project (a vitest globalSetup, asked for with
 * `sharedTestConfig(root, { testPostgres: true })`). Every file gets its own databases from
 * `createTestDatabase()` as before; what it no longer does is run initdb and start a cluster of its
 * own first (the helper keeps its cluster per process, and a project may run several: one per
 * worker, and one per file that needs a process of its own — vitest.shared.ts). The cluster
 * reaches the files as DATABASE_URL, which createTestDatabase() already honours; it is started
 * only when the run has none, so a run on an external server (CI's second pass) is unchanged.
 */
import { rm } from 'node:fs/promises';
import { startEmbeddedPostgres } from './libs/persistence/src/embedded/start-embedded-postgres.js';
import { makeTestDataDir } from './libs/persistence/src/testing/test-database.js';

/**
 * Keeps a failed run's exit code. `embedded-postgres` registers `async-exit-hook`, whose
 * 'beforeExit' listener ends the process with `process.exit(0)`: in vitest's main process that
 * replaced the 1 vitest sets when a test fails, so a run with failures exited 0 and CI's first
 * pass could not fail on them. The code vitest set is read first (a prepended listener) and put
 * back as the process exits ('exit' listeners may still change it).
 */
export function keepExitCodeThroughExitHooks(): void {
  let code: typeof process.exitCode;
  process.prependListener('beforeExit', () => (code = process.exitCode));
  process.on('exit', () => {
    if (code !== undefined && code !== 0) process.exitCode = code;
  });
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env['DATABASE_URL']) return undefined;
  keepExitCodeThroughExitHooks();
  const dir = await makeTestDataDir('latchkey-vitest-pg-');
  const pg = await startEmbeddedPostgres({ dataDir: dir });
  // Test workers are forked after the global setup and inherit this environment.
  process.env['DATABASE_URL'] = pg.url;
  return async () => {
    delete process.env['DATABASE_URL'];
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
