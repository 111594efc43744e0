/**
 * The Latchkey a proof runs against: the testkit's (the launcher, the four apps, a real
 * PostgreSQL), with the rate limits off — the proofs send far more than one key's 100 requests a
 * second, and a 429 would hide what they look for — and what the proofs need beyond the testkit:
 * the apps' process ids (the launcher forks them; they change when it restarts one), their
 * resident memory, the database's row counts, and a second root organization.
 */
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, startLatchkey, type TLatchkey } from '@latchkey/testkit';
import pg from 'pg';
import { createHttpClient, type THttpClient } from './http-client.js';
import { createStamper, generateApiKeyPair, type TApiKeyPair, type TStamper } from './stamp.js';

export const APP_NAMES = ['public-api', 'auth-proxy', 'admin', 'webhook-worker'] as const;
export type TAppName = (typeof APP_NAMES)[number];

export interface TTarget {
  latchkey: TLatchkey;
  organizationId: string;
  root: TApiKeyPair;
  rootStamper: TStamper;
  http: THttpClient;
  /** A client of the database the platform uses (closed by the runner). */
  db: pg.Client;
}

/**
 * Starts a Latchkey for one proof and stops it (and closes its clients) whatever happens.
 * @param env extra platform settings (LATCHKEY_*), over the rate limits being off
 */
export async function withTarget<T>(env: Record<string, string>, body: (t: TTarget) => Promise<T>): Promise<T> {
  // The whole platform: R3 kills and R5 watches every app (the testkit runs three by default).
  const opts = { apps: APP_NAMES, env: { LATCHKEY_RATE_LIMIT_KEY_RPS: '0', LATCHKEY_RATE_LIMIT_IP_RPS: '0', LATCHKEY_LOG_LEVEL: process.env['CHAOS_LATCHKEY_LOG_LEVEL'] || 'error', ...env }, timeoutMs: 120_000 };
  let latchkey: TLatchkey;
  try {
    latchkey = await startLatchkey(opts);
  } catch (e) {
    // Start-up is not what the proofs test; on a loaded machine the launcher's first transaction
    // can time out (Prisma's 2 s wait). Once more, said out loud, then the error stands.
    console.warn(`Latchkey did not start (${(e instanceof Error ? e.message : String(e)).split('\n').slice(0, 2).join(' ').slice(0, 300)}); trying once more`);
    latchkey = await startLatchkey(opts);
  }
  const http = createHttpClient(latchkey.baseUrl);
  const db = new pg.Client({ connectionString: await latchkey.databaseUrl() });
  // A proof terminates every backend, ours included when it is careless: never fatal here.
  db.on('error', () => undefined);
  try {
    await db.connect();
    const root = { publicKey: latchkey.bootstrap.apiPublicKey, privateKey: latchkey.bootstrap.apiPrivateKey! };
    return await body({ latchkey, organizationId: latchkey.organizationId, root, rootStamper: createStamper(root), http, db });
  } finally {
    http.close();
    await db.end().catch(() => undefined);
    await latchkey.stop();
  }
}

/** The launcher's pid (from `<dataDir>/latchkey.pid`). @throws Error when there is none. */
export async function launcherPid(dataDir: string): Promise<number> {
  const pid = Number((await readFile(join(dataDir, 'latchkey.pid'), 'utf8')).trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no launcher pid in ${dataDir}/latchkey.pid`);
  return pid;
}

async function parentOf(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!stat) return undefined;
  // The command name (2nd field) may hold spaces and parentheses: the ppid follows the last ')'.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * The current pid of each app the launcher runs (absent between a crash and its restart): the
 * launcher's children whose command line runs `apps/<app>/dist/main.mjs`.
 */
export async function appPids(dataDir: string): Promise<Partial<Record<TAppName, number>>> {
  const launcher = await launcherPid(dataDir);
  const out: Partial<Record<TAppName, number>> = {};
  for (const name of await readdir('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || (await parentOf(pid)) !== launcher) continue;
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').join(' ');
    const app = APP_NAMES.find((a) => cmdline.includes(`apps/${a}/dist/main.mjs`));
    if (app) out[app] = pid;
  }
  return out;
}

/** Resident memory of a process in KiB (VmRSS), or undefined when it is gone. */
export async function rssKiB(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const m = status && /^VmRSS:\s+(\d+) kB/m.exec(status);
  return m ? Number(m[1]) : undefined;
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Polls until `check` holds. @throws Error naming `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Row count of every table of the public schema. */
export async function rowCounts(db: pg.Client): Promise<Record<string, number>> {
  const { rows } = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1");
  const out: Record<string, number> = {};
  for (const { table_name } of rows) {
    const r = await db.query<{ n: string }>(`SELECT count(*) AS n FROM "public"."${table_name.replaceAll('"', '""')}"`);
    out[table_name] = Number(r.rows[0]!.n);
  }
  return out;
}

/** Activities by status. */
export async function activityStatusCounts(db: pg.Client): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM activities GROUP BY status');
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Another root organization (not a sub-organization of the bootstrap one), made with the CLI
 * (`latchkey org create`) on the platform's database, with a fresh API key of its root user.
 */
export async function createOtherRootOrganization(t: TTarget, name: string): Promise<{ organizationId: string; userId: string; key: TApiKeyPair }> {
  const key = generateApiKeyPair();
  const cli = join(repoRoot(), 'tools', 'cli', 'dist', 'main.mjs');
  const env = { ...process.env, DATABASE_URL: await t.latchkey.databaseUrl(), LATCHKEY_DATA_DIR: t.latchkey.dataDir, LATCHKEY_LOG_LEVEL: 'error' };
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'org', 'create', '--name', name, '--user-name', `${name}-root`, '--api-public-key', key.publicKey], { env });
  // The JSON may be pretty-printed over several lines: the last line opening an object that parses to the end.
  const lines = stdout.trimEnd().split('\n');
  let created: { organizationId: string; userId: string } | undefined;
  for (let i = lines.length - 1; i >= 0 && !created; i--) {
    if (!lines[i]!.startsWith('{')) continue;
    try {
      created = JSON.parse(lines.slice(i).join('\n')) as { organizationId: string; userId: string };
    } catch {
      // not the start of the document
    }
  }
  if (!created?.organizationId) throw new Error(`latchkey org create printed no JSON with an organizationId: ${stdout}`);
  return { organizationId: created.organizationId, userId: created.userId, key };
}

export { createStamper, generateApiKeyPair, type TApiKeyPair, type TStamper };
