/**
 * Starts a real, throw-away Latchkey for a test: the launcher (`latchkey start`, exactly what
 * `npm start` runs) as a child process on free ports, in a fresh data folder, on its own embedded
 * PostgreSQL copied from the migrated template (data-dir-template.ts) — or, when DATABASE_URL is
 * set in the test's environment, on a fresh database on that server. E-mail and SMS are captured
 * in memory (`mail`). Resolves once the launcher says (over IPC) that the apps a client calls are
 * listening; `stop()` stops every process and removes every file and database it made.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { findRunningEmbeddedPostgres, freePort, isProcessAlive as isAlive } from '@latchkey/persistence';
import { createTestDatabase, makeTestDataDir, type TTestDatabase } from '@latchkey/persistence/testing';
import { ensureDataDirTemplate } from './data-dir-template.js';
import { locateRuntime } from './latchkey-runtime.js';
import { createMessageInbox, fromEmail, fromSms, type TMessageInbox } from './message-inbox.js';
import { startSmsCapture, type TSmsCapture } from './sms-capture.js';
import { startSmtpCapture, type TSmtpCapture } from './smtp-capture.js';

export { repoRoot } from './latchkey-runtime.js';

/**
 * The seed of `seed: 'fixed'` (LATCHKEY_INSECURE_FIXED_SEED): public by design, so its instances'
 * private keys are too. Changing it changes every fixed key and id: tests snapshot them.
 */
export const FIXED_TEST_SEED = createHash('sha256').update('latchkey testkit fixed seed v1').digest('hex');

/** The platform's apps (LATCHKEY_APPS of `latchkey start`). */
export const LATCHKEY_APPS = ['public-api', 'auth-proxy', 'admin', 'webhook-worker'] as const;
export type TLatchkeyApp = (typeof LATCHKEY_APPS)[number];
/**
 * What an instance runs unless `apps` says otherwise: the Turnkey surface (public API, auth proxy)
 * and the webhook worker that delivers its events. The admin console is asked for by name: it is
 * the largest app to start and a Turnkey app's tests do not talk to it.
 */
export const DEFAULT_APPS: readonly TLatchkeyApp[] = ['public-api', 'auth-proxy', 'webhook-worker'];

export interface TBootstrapJson {
  organizationId: string;
  userId: string;
  apiKeyId: string;
  apiPublicKey: string;
  apiPrivateKey?: string;
  signerPublicKey: string;
  notarizerPublicKey: string;
  otpVerifierPublicKey: string;
  /** `encryptOauth2ClientSecret`'s `dangerouslyOverrideTlsFetcherPublicKey`. */
  tlsFetcherPublicKey: string;
  /** Signs the OIDC tokens of oauth2_authenticate (also at /oauth2/jwks). */
  oidcIssuerPublicKey: string;
}

export interface TLatchkey {
  /** The public API, e.g. http://127.0.0.1:41234 (no trailing slash, as the Turnkey clients want). */
  apiBaseUrl: string;
  /**
   * The auth proxy app the launcher runs.
   * @throws Error on read when the instance runs without it (`apps`).
   */
  authProxyUrl: string;
  /** The root organization created at first start. */
  organizationId: string;
  /** The root user's P-256 API key (compressed, hex): what `ApiKeyStamper` wants. */
  apiPublicKey: string;
  /**
   * Its private key (hex).
   * @throws Error on read when the root public key was supplied (LATCHKEY_ROOT_API_PUBLIC_KEY):
   *   Latchkey never saw the private key then.
   */
  apiPrivateKey: string;
  /** The server keys Turnkey's clients pin (uncompressed P-256, hex). */
  signerPublicKey: string;
  notarizerPublicKey: string;
  otpVerifierPublicKey: string;
  /** E-mail and SMS the instance sent, captured in memory (see TStartOptions.captureMessages). */
  mail: TMessageInbox;
  /** Stops the processes and removes the data folder, the database and the captures. Idempotent. */
  stop(): Promise<void>;

  /** The same as `apiBaseUrl` (the name the project's own tests use). */
  baseUrl: string;
  /** @throws Error on read when the instance runs without the admin app (ask for it in `apps`). */
  adminUrl: string;
  /** The apps this instance runs. */
  apps: readonly TLatchkeyApp[];
  dataDir: string;
  /** `external` when DATABASE_URL was set for the test run. */
  database: 'embedded' | 'external';
  /** Everything `bootstrap.json` holds. */
  bootstrap: TBootstrapJson;
  /** URL of the database the platform uses (for tests that inspect what is stored). */
  databaseUrl(): Promise<string>;
  /** Everything the processes printed so far (for assertions and failure reports). */
  output(): string;
}

export interface TStartOptions {
  /** Extra environment for the platform (LATCHKEY_* settings); wins over the testkit's own. */
  env?: Record<string, string>;
  /** Reuse a data folder (restart tests): it is kept by stop(). A fresh one otherwise. */
  dataDir?: string;
  /** How long to wait for the platform to be ready (default 60 s). */
  timeoutMs?: number;
  /**
   * `'random'` (default): fresh keys and ids. `'fixed'`: the same root API key, server keys and
   * root organization ids on every run, for snapshot tests. FOR TESTS ONLY: anyone can recompute
   * those private keys (FIXED_TEST_SEED is public). The platform derives them only when
   * LATCHKEY_INSECURE_FIXED_SEED is set, which the testkit does for `'fixed'` alone (a value
   * inherited from the test's own environment is dropped). Everything made later (wallets,
   * activities, sub-organizations) still gets random keys and ids.
   */
  seed?: 'random' | 'fixed';
  /**
   * Capture e-mail and SMS in memory (default true). An SMTP URL or SMS provider set in `env`
   * wins for its channel: that channel is then not captured.
   */
  captureMessages?: boolean;
  /**
   * Copy the cached migrated data-folder template instead of running initdb and the migrations
   * (default true; embedded PostgreSQL only).
   */
  useTemplate?: boolean;
  /** Where the template is cached (default $LATCHKEY_TESTKIT_CACHE_DIR or a folder in the OS tmpdir). */
  cacheDir?: string;
  /**
   * The apps to run (default DEFAULT_APPS: public API, auth proxy, webhook worker). Each one costs
   * start time; add `'admin'` for the admin console, or run only `['public-api']`. The public API
   * is always run (the instance is installed and checked through it).
   */
  apps?: readonly TLatchkeyApp[];
}

const OPTION_NAMES = ['env', 'dataDir', 'timeoutMs', 'seed', 'captureMessages', 'useTemplate', 'cacheDir', 'apps'] as const;

/**
 * Refuses options a caller could not have meant (a typo would otherwise be silently ignored).
 * @throws TypeError naming the option and what is accepted.
 */
function assertStartOptions(opts: unknown): asserts opts is TStartOptions {
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) throw new TypeError('startLatchkey(options): options must be an object');
  for (const k of Object.keys(opts)) {
    if (!(OPTION_NAMES as readonly string[]).includes(k)) throw new TypeError(`startLatchkey(options): unknown option "${k}" (known: ${OPTION_NAMES.join(', ')})`);
  }
  const o = opts as Record<string, unknown>;
  if (o['env'] !== undefined) {
    if (typeof o['env'] !== 'object' || o['env'] === null) throw new TypeError('startLatchkey(options): env must be an object of strings');
    for (const [k, v] of Object.entries(o['env'])) if (typeof v !== 'string') throw new TypeError(`startLatchkey(options): env.${k} must be a string, not ${typeof v}`);
  }
  if (o['seed'] !== undefined && o['seed'] !== 'random' && o['seed'] !== 'fixed') throw new TypeError(`startLatchkey(options): seed must be 'random' or 'fixed', not ${JSON.stringify(o['seed'])}`);
  if (o['timeoutMs'] !== undefined && (typeof o['timeoutMs'] !== 'number' || !(o['timeoutMs'] > 0))) throw new TypeError('startLatchkey(options): timeoutMs must be a positive number');
  for (const k of ['dataDir', 'cacheDir'] as const) if (o[k] !== undefined && (typeof o[k] !== 'string' || o[k] === '')) throw new TypeError(`startLatchkey(options): ${k} must be a non-empty path`);
  for (const k of ['captureMessages', 'useTemplate'] as const) if (o[k] !== undefined && typeof o[k] !== 'boolean') throw new TypeError(`startLatchkey(options): ${k} must be true or false`);
  if (o['apps'] !== undefined) {
    const apps = o['apps'];
    if (!Array.isArray(apps) || !apps.every((a) => (LATCHKEY_APPS as readonly unknown[]).includes(a))) throw new TypeError(`startLatchkey(options): apps must be an array of ${LATCHKEY_APPS.map((a) => `'${a}'`).join(', ')}`);
    if (!apps.includes('public-api')) throw new TypeError("startLatchkey(options): apps must include 'public-api'");
  }
}

/**
 * Resolves when the launcher says (over its IPC channel) that the apps a client talks to are
 * listening; rejects when it exits first or `deadline` passes. No polling: a start is short, and
 * every probe would take CPU from it.
 */
function waitForReady(child: ChildProcess, deadline: number, output: () => string): Promise<void> {
  return new Promise<void>((resolveReady, reject) => {
    const done = (e?: Error) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (e) reject(e);
      else resolveReady();
    };
    const onMessage = (m: unknown) => {
      // What the processes printed before saying ready is in the pipes already: read in this
      // same turn of the event loop, it is in output() by the time the start resolves.
      if ((m as { type?: unknown } | null)?.type === 'ready') setImmediate(() => done());
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => done(new Error(`latchkey exited with ${code ?? signal} before it was ready:\n${output()}`));
    const timer = setTimeout(() => done(new Error(`latchkey was not ready in time:\n${output()}`)), Math.max(0, deadline - Date.now()));
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
  });
}

/**
 * A postmaster the launcher left running (it was killed before it could stop it) is stopped, so a
 * test run never leaks PostgreSQL processes.
 */
async function stopLeftoverPostmaster(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await findRunningEmbeddedPostgres(dataDir))) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
}

/**
 * Starts an ephemeral Latchkey.
 * @throws TypeError on an unknown or malformed option.
 * @throws Error when the launcher is missing (not built), the template cannot be built, or the
 *   platform does not become ready in time (the message carries its output).
 */
export async function startLatchkey(opts: TStartOptions = {}): Promise<TLatchkey> {
  assertStartOptions(opts);
  const runtime = locateRuntime();
  const ownDataDir = opts.dataDir === undefined;
  const dataDir = resolve(opts.dataDir ?? (await makeTestDataDir('latchkey-e2e-')));
  const cleanups: (() => Promise<void>)[] = [];
  let child: ChildProcess | undefined;
  let stopped: Promise<void> | undefined;
  const inbox = createMessageInbox();

  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      const c = child;
      if (c && c.exitCode === null && c.signalCode === null) {
        await new Promise<void>((res) => {
          c.once('exit', () => res());
          c.kill('SIGTERM');
          setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
        });
      }
      await stopLeftoverPostmaster(dataDir);
      inbox.close();
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    })());

  try {
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    delete env['DATABASE_URL'];
    delete env['LATCHKEY_EMBEDDED_PG_TEMPLATE'];
    // Only `seed: 'fixed'` (or the caller's own env) makes an instance's keys public knowledge.
    delete env['LATCHKEY_INSECURE_FIXED_SEED'];
    const userEnv = opts.env ?? {};
    const capture = opts.captureMessages !== false;
    // The database and the two captures do not depend on each other: prepared side by side.
    const prepareDatabase = async (): Promise<TTestDatabase | undefined> => {
      if (process.env['DATABASE_URL']) {
        const db = await createTestDatabase();
        cleanups.push(() => db.drop());
        env['DATABASE_URL'] = db.url;
        return db;
      }
      if (opts.useTemplate !== false && !existsSync(join(dataDir, 'pg'))) {
        const template = await ensureDataDirTemplate({ migrationsDir: runtime.migrationsDir, ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}) });
        // The launcher copies it (copyClusterTemplate) while the apps load their code: on a disk
        // where creating the cluster's ~1,600 files is slow, the copy is most of a start.
        env['LATCHKEY_EMBEDDED_PG_TEMPLATE'] = template.dir;
      }
      return undefined;
    };
    const captureMail = async () => {
      if (!capture || userEnv['LATCHKEY_SMTP_URL'] !== undefined) return;
      const smtp: TSmtpCapture = await startSmtpCapture({ onMessage: (m) => inbox.push(fromEmail(m)) });
      cleanups.push(() => smtp.stop());
      env['LATCHKEY_SMTP_URL'] = smtp.url;
    };
    const captureSms = async () => {
      if (!capture || userEnv['LATCHKEY_SMS_PROVIDER'] !== undefined) return;
      const sms: TSmsCapture = await startSmsCapture();
      cleanups.push(() => sms.stop());
      Object.assign(env, sms.env);
      sms.onMessage((m) => inbox.push(fromSms(m)));
    };
    // All settled before a failure is thrown, so stop() finds every cleanup of what did start.
    const [database, ...captures] = await Promise.allSettled([prepareDatabase(), captureMail(), captureSms()]);
    for (const r of [database, ...captures]) if (r.status === 'rejected') throw r.reason;
    const external = database.status === 'fulfilled' ? database.value : undefined;

    // A free port can be taken by another process between the check and the app's listen (many
    // instances start at once in CI): a start that fails on EADDRINUSE is tried again on new ports.
    const apps = LATCHKEY_APPS.filter((a) => (opts.apps ?? DEFAULT_APPS).includes(a));
    let api = 0;
    let proxy = 0;
    let admin = 0;
    let worker = 0;
    let output: () => string = () => '';
    for (let attempt = 1; ; attempt++) {
      [api, proxy, admin, worker] = [await freePort(), await freePort(), await freePort(), await freePort()];
      Object.assign(env, {
        LATCHKEY_HOST: '127.0.0.1',
        LATCHKEY_APPS: apps.join(','),
        LATCHKEY_PUBLIC_API_PORT: String(api),
        LATCHKEY_AUTH_PROXY_PORT: String(proxy),
        LATCHKEY_ADMIN_PORT: String(admin),
        LATCHKEY_WEBHOOK_WORKER_PORT: String(worker),
        LATCHKEY_DATA_DIR: dataDir,
        LATCHKEY_LOG_LEVEL: env['LATCHKEY_LOG_LEVEL'] ?? 'warn',
        ...(opts.seed === 'fixed' ? { LATCHKEY_INSECURE_FIXED_SEED: FIXED_TEST_SEED } : {}),
        ...userEnv,
      });
      let out = '';
      const c = spawn(process.execPath, [runtime.cli, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
      child = c;
      c.stdout!.on('data', (b: Buffer) => (out += b.toString()));
      c.stderr!.on('data', (b: Buffer) => (out += b.toString()));
      output = () => out;
      // The launcher's `ready` covers every app a test talks to, not only the public API (a test
      // that calls the admin app or the auth proxy first must not race their start). The webhook
      // worker serves no API and starts after them: its deliveries are awaited by the tests that
      // want them.
      const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
      try {
        await waitForReady(c, deadline, output);
        // The channel's only message came; the pipes and stop() hold the child as before.
        if (c.connected) c.disconnect();
        break;
      } catch (e) {
        const exited = c.exitCode !== null || c.signalCode !== null;
        if (attempt >= 3 || !exited || !out.includes('EADDRINUSE')) throw e;
        await stopLeftoverPostmaster(dataDir);
      }
    }
    const apiBaseUrl = `http://127.0.0.1:${api}`;
    const bootstrap = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as TBootstrapJson;
    const databaseUrl = async () => {
      if (external) return external.url;
      const running = await findRunningEmbeddedPostgres(dataDir);
      if (!running) throw new Error('the embedded PostgreSQL is not running');
      return running.url;
    };
    const lk: TLatchkey = {
      apiBaseUrl,
      authProxyUrl: '',
      organizationId: bootstrap.organizationId,
      apiPublicKey: bootstrap.apiPublicKey,
      apiPrivateKey: '',
      signerPublicKey: bootstrap.signerPublicKey,
      notarizerPublicKey: bootstrap.notarizerPublicKey,
      otpVerifierPublicKey: bootstrap.otpVerifierPublicKey,
      mail: { next: (o) => inbox.next(o), all: () => inbox.all() },
      stop,
      baseUrl: apiBaseUrl,
      adminUrl: '',
      apps,
      dataDir,
      database: external ? 'external' : 'embedded',
      bootstrap,
      databaseUrl,
      output,
    };
    const appUrl = (key: 'authProxyUrl' | 'adminUrl', app: TLatchkeyApp, port: number) =>
      Object.defineProperty(lk, key, {
        enumerable: true,
        get() {
          if (apps.includes(app)) return `http://127.0.0.1:${port}`;
          throw new Error(`this instance runs without the ${app} app: start it with apps: [${[...apps, app].map((a) => `'${a}'`).join(', ')}]`);
        },
      });
    appUrl('authProxyUrl', 'auth-proxy', proxy);
    appUrl('adminUrl', 'admin', admin);
    Object.defineProperty(lk, 'apiPrivateKey', {
      enumerable: true,
      get() {
        if (bootstrap.apiPrivateKey) return bootstrap.apiPrivateKey;
        throw new Error('this instance has no root API private key: its root public key was supplied (LATCHKEY_ROOT_API_PUBLIC_KEY), so sign with your own private key');
      },
    });
    return lk;
  } catch (e) {
    await stop();
    throw e;
  }
}
