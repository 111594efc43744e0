/**
 * Scale-out, proven: two public-API processes and two webhook workers on one PostgreSQL, driven
 * together through the unmodified Turnkey clients. The testkit's launcher runs the first of each;
 * the second of each is started here the way an operator adds a machine (README "Scale-out"): the
 * built app with the same DATABASE_URL and data folder (master key), on its own port.
 *
 * - Idempotency across processes: the same stamped bytes sent to both at once make one activity.
 * - Cache revocation across processes: an API key warm in instance 2's cache and deleted through
 *   instance 1 is refused by instance 2 within 1 s (its cache lives 30 s: only the change feed
 *   can explain the difference).
 * - The outbox is shared: every event reaches every endpoint at least once, and both workers
 *   deliver — each delivery is traced to the process on the other end of its TCP connection
 *   through /proc (Linux), not inferred.
 * - The audit log: activities finalised by both processes at once form one unbroken chain.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Turnkey } from '@turnkey/sdk-server';
import { freePort, openDatabase, verifyAuditChains } from '@latchkey/persistence';
import { repoRoot, startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, uniqueName, waitForHealthz } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair } from './policy-e2e-helpers.js';

/**
 * One endpoint in flight per worker: with four endpoints and a slow receiver, a worker that claimed
 * one endpoint's queue cannot also take the others, so the second worker must deliver too (with
 * the default 64, whichever worker wakes first may claim every queue at once, and often does).
 */
const WEBHOOK_ENV = { LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true', LATCHKEY_WEBHOOK_RETRY_BASE_MS: '20', LATCHKEY_WEBHOOK_POLL_MS: '200', LATCHKEY_WEBHOOK_CONCURRENCY: '1' };

let lk: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let api2: string;
const extra: { name: string; child: ChildProcess; output: string[] }[] = [];
let receiver: Server;
let receiverUrl: string;
/** Each delivery: endpoint path, activity id, and the pid of the process that sent it. */
const deliveries: { path: string; activityId: string; pid: number | undefined }[] = [];

/** The pid whose open sockets include the client end (local port `port`) of a connection to the receiver. */
async function pidOfPeer(port: number, candidates: readonly number[]): Promise<number | undefined> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hex}`) && f[9] && f[9] !== '0') inodes.add(f[9]);
    }
  }
  for (const pid of candidates) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1]!)) return pid;
    }
  }
  return undefined;
}

/** The webhook workers of this platform: processes running the worker bundle on this data folder. */
async function workerPids(): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes('webhook-worker/dist/main.mjs')) continue;
    const environ = await readFile(`/proc/${name}/environ`, 'utf8').catch(() => '');
    if (environ.split('\0').includes(`LATCHKEY_DATA_DIR=${lk.dataDir}`)) out.push(Number(name));
  }
  return out;
}

/** Starts one more app process on the platform's database; resolves once its /healthz answers. */
async function startExtra(name: string, script: string, env: Record<string, string>, healthUrl: string): Promise<void> {
  const output: string[] = [];
  const child = spawn(process.execPath, [join(repoRoot(), script)], {
    env: { ...(process.env as Record<string, string>), DATABASE_URL: await lk.databaseUrl(), LATCHKEY_DATA_DIR: lk.dataDir, LATCHKEY_HOST: '127.0.0.1', LATCHKEY_LOG_LEVEL: 'warn', ...WEBHOOK_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
  extra.push({ name, child, output });
  await waitForHealthz(healthUrl, { name, timeoutMs: 180_000, output: () => output.join(''), exited: () => child.exitCode !== null });
}

const sdkAt = (baseUrl: string, key: TKeyPair) =>
  new Turnkey({ apiBaseUrl: baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: lk.organizationId, activityPoller: { intervalMs: 20, numRetries: 0 } }).apiClient();

beforeAll(async () => {
  let candidates: number[] = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        // While the request waits for its answer, the sender's socket is open: find its owner.
        const pid = await pidOfPeer(req.socket.remotePort!, candidates);
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
        deliveries.push({ path: req.url ?? '', activityId: body.id, pid });
        // A slow receiver, so that one worker alone cannot keep every endpoint busy.
        setTimeout(() => res.writeHead(200).end(), 50);
      })();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  lk = await startLatchkey({ env: WEBHOOK_ENV, timeoutMs: 180_000 });
  e2e = policyE2e(lk);
  const apiPort = await freePort();
  api2 = `http://127.0.0.1:${apiPort}`;
  const workerPort = await freePort();
  await Promise.all([
    startExtra('public-api #2', 'apps/public-api/dist/main.mjs', { LATCHKEY_PUBLIC_API_PORT: String(apiPort) }, api2),
    startExtra('webhook-worker #2', 'apps/webhook-worker/dist/main.mjs', { LATCHKEY_WEBHOOK_WORKER_PORT: String(workerPort) }, `http://127.0.0.1:${workerPort}`),
  ]);
  candidates = await workerPids();
  expect(candidates, 'the launcher\'s worker and the extra one').toHaveLength(2);
}, 420_000);

afterAll(async () => {
  for (const p of extra) {
    if (p.child.exitCode === null) {
      p.child.kill('SIGTERM');
      await new Promise((r) => p.child.once('exit', r));
    }
  }
  await lk?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('two public APIs and two workers on one PostgreSQL', () => {
  it('the same stamped request sent to both processes at once makes one activity (create_wallet and sign_raw_payload)', async () => {
    const client = e2e.http(e2e.rootKey);
    const signed = await client.stampCreateWallet({ type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters: { walletName: uniqueName('scale'), accounts: [accountParams(0)] } });
    const send = (url: string, s: typeof signed) => fetch(url, { method: 'POST', body: s.body, headers: { [s.stamp.stampHeaderName]: s.stamp.stampHeaderValue, 'content-type': 'application/json' } }).then(async (r) => ({ status: r.status, body: (await r.json()) as { activity: { id: string; status: string; result: Record<string, { walletId?: string; addresses?: string[] }> } } }));
    const path = new URL(signed.url).pathname;
    const [a, b] = await Promise.all([send(`${lk.baseUrl}${path}`, signed), send(`${api2}${path}`, signed)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.activity.id).toBe(b.body.activity.id);
    expect(a.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const address = a.body.activity.result['createWalletResult']!.addresses![0]!;

    // The read-only path (one statement, no transaction) under the same race, several times.
    for (let i = 0; i < 5; i++) {
      const s = await client.stampSignRawPayload({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters: { signWith: address, payload: `race ${i}`, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' } });
      const p = new URL(s.url).pathname;
      const [x, y] = await Promise.all([send(`${lk.baseUrl}${p}`, s), send(`${api2}${p}`, s)]);
      expect(x.body.activity.id).toBe(y.body.activity.id);
    }
    const db = openDatabase(await lk.databaseUrl(), { max: 1 });
    try {
      const { rows } = await db.sql.query<{ n: string }>("SELECT count(*)::text AS n FROM activities WHERE organization_id = $1 AND intent->'signRawPayloadIntentV2'->>'payload' LIKE 'race %'", [e2e.orgId]);
      expect(rows[0]!.n).toBe('5');
    } finally {
      await db.close();
    }
  }, 120_000);

  it('an API key deleted through instance 1 is refused by instance 2 within 1 s, though instance 2 had it cached', async () => {
    const user = await e2e.member('scale-revoke');
    const onTwo = sdkAt(api2, user.key);
    // Warm instance 2's cache.
    expect((await onTwo.getWhoami({ organizationId: e2e.orgId })).userId).toBe(user.userId);
    expect((await onTwo.getWhoami({ organizationId: e2e.orgId })).userId).toBe(user.userId);
    const { apiKeys } = await e2e.sdk(e2e.rootKey).getApiKeys({ organizationId: e2e.orgId, userId: user.userId });
    await e2e.sdk(e2e.rootKey).deleteApiKeys({ userId: user.userId, apiKeyIds: apiKeys.map((k) => k.apiKeyId) });
    const deletedAt = Date.now();
    let refusedAfterMs: number | undefined;
    while (Date.now() - deletedAt < 5_000) {
      const answered = await onTwo.getWhoami({ organizationId: e2e.orgId }).then(() => true, () => false);
      if (!answered) {
        refusedAfterMs = Date.now() - deletedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(refusedAfterMs, 'instance 2 kept accepting the deleted key for 5 s').toBeDefined();
    expect(refusedAfterMs!).toBeLessThan(1_000);
    process.stdout.write(`scale-out: instance 2 refused the deleted key ${refusedAfterMs} ms after the deletion answered\n`);
    // And it is a refusal of the credential, not an outage.
    const refused = await refusal(onTwo.getWhoami({ organizationId: e2e.orgId }));
    expect(refused.codes).toContain('PUBLIC_KEY_NOT_FOUND');
  }, 120_000);

  it('the outbox is shared: every event reaches every endpoint at least once, and both workers deliver', async () => {
    const root = e2e.sdk(e2e.rootKey);
    const paths = ['/a', '/b', '/c', '/d'];
    for (const p of paths) await root.createWebhookEndpoint({ name: `scale${p}`, url: `${receiverUrl}${p}`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{}' }] });
    const [one, two] = [sdkAt(lk.baseUrl, e2e.rootKey), sdkAt(api2, e2e.rootKey)];
    const { addresses } = await two.createWallet({ walletName: uniqueName('scale-hooks'), accounts: [accountParams(0)] });
    const ids: string[] = [];
    // Both instances at once, 4 in flight each.
    await Promise.all(
      [one, two].map(async (c, n) => {
        for (let i = 0; i < 20; i += 4) {
          const done = await Promise.all([0, 1, 2, 3].map((j) => c.signRawPayload({ signWith: addresses[0]!, payload: `hook ${n} ${i + j}`, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' })));
          ids.push(...done.map((d) => d.activity.id));
        }
      }),
    );
    expect(new Set(ids).size).toBe(40);
    const missing = () => paths.flatMap((p) => ids.filter((id) => !deliveries.some((d) => d.path === p && d.activityId === id)).map((id) => `${p} ${id}`));
    for (const deadline = Date.now() + 60_000; missing().length > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
    expect(missing(), `undelivered after 60 s\n${lk.output().slice(-2000)}\n${extra.map((p) => p.output.join('')).join('\n')}`).toEqual([]);
    const ours = deliveries.filter((d) => ids.includes(d.activityId));
    const byPid = new Map<number | undefined, number>();
    for (const d of ours) byPid.set(d.pid, (byPid.get(d.pid) ?? 0) + 1);
    process.stdout.write(`scale-out: ${ours.length} deliveries of ${ids.length * paths.length} expected, by worker pid: ${JSON.stringify([...byPid])}\n`);
    expect(byPid.has(undefined), 'every delivery traced to a worker process').toBe(false);
    expect([...byPid.keys()].sort(), JSON.stringify([...byPid])).toEqual((await workerPids()).sort());
  }, 240_000);

  it('activities finalised by both processes at once form one unbroken audit chain', async () => {
    const db = openDatabase(await lk.databaseUrl(), { max: 1 });
    try {
      const [report] = await verifyAuditChains(db, { organizationId: e2e.orgId });
      const { rows } = await db.sql.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM activities WHERE organization_id = $1 AND status IN ('ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_FAILED', 'ACTIVITY_STATUS_REJECTED')",
        [e2e.orgId],
      );
      expect(report).toEqual({ organizationId: e2e.orgId, entries: Number(rows[0]!.n) });
      expect(report!.entries).toBeGreaterThan(45);
    } finally {
      await db.close();
    }
  });
});
