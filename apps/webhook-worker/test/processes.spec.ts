/**
 * Worker processes, run from sources as `npm start` would run the bundle: two on one database
 * share the work and keep each endpoint's order; one killed with SIGKILL mid-delivery loses
 * nothing — a restarted worker takes its leases over and every event arrives at least once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWebhookSigningKey, webhookSigningKeyRepository } from '@latchkey/persistence';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents, createEndpoint, createOrganization, header, MASTER_KEY_HEX, openWorld, startReceiver, waitFor, type TReceiver, type TWorld } from './helpers.js';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

let w: TWorld;
let receiver: TReceiver;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  w = await openWorld();
  await ensureWebhookSigningKey(webhookSigningKeyRepository(w.db), w.vault);
  receiver = await startReceiver(w.db);
});
afterEach(() => {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
});
afterAll(async () => {
  await receiver?.close();
  await w?.db.close();
  await w?.testDb.drop();
  await stopTestPostgres();
});

/** Starts `src/main.ts` under tsx and resolves once it reports ready. */
/** `env` overrides the short timeouts (the kill test wants a quick lease takeover; the others want no retry under load). */
async function startWorkerProcess(env: Record<string, string> = {}): Promise<ChildProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lk-webhook-worker-'));
  const child = spawn(process.execPath, ['--conditions=@latchkey/source', '--import', 'tsx', 'src/main.ts'], {
    cwd: APP_DIR,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      PATH: process.env['PATH'],
      DATABASE_URL: w.testDb.url,
      LATCHKEY_MASTER_KEY: MASTER_KEY_HEX,
      LATCHKEY_DATA_DIR: dataDir,
      LATCHKEY_LOG_LEVEL: 'warn',
      LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      LATCHKEY_WEBHOOK_TIMEOUT_MS: '1000',
      LATCHKEY_WEBHOOK_LEASE_MS: '2500',
      LATCHKEY_WEBHOOK_RETRY_BASE_MS: '50',
      LATCHKEY_WEBHOOK_POLL_MS: '200',
      ...env,
    },
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start in 30 s:\n${output}`)), 30_000);
    child.on('message', (m: { type?: string }) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code} before it was ready:\n${output}`));
    });
  });
  return child;
}

/** Sequence numbers (activity ids `<prefix>-<n>`) in the order a path received them. */
const sequenceAt = (path: string) => receiver.at(path).map((r) => Number((JSON.parse(r.body.toString()) as { id: string }).id.split('-').at(-1)));

describe('worker processes', () => {
  it('two workers on one database, 500 events: all delivered once, verified, each endpoint in order', async () => {
    const orgs = ['two-a', 'two-b', 'two-c', 'two-d', 'two-e'];
    for (const o of orgs) {
      await createOrganization(w.db, o);
      await createEndpoint(w.db, o, receiver.url(`/${o}`));
    }
    await appendEvents(
      w.db,
      Array.from({ length: 500 }, (_, i) => ({ organizationId: orgs[i % orgs.length]!, activityId: `${orgs[i % orgs.length]}-${i}` })),
    );
    // Exactly once is only promised where no attempt times out and no lease lapses: on a loaded
    // machine a 1 s timeout or a 2.5 s lease would resend (at-least-once), so this test uses the defaults.
    const patient = { LATCHKEY_WEBHOOK_TIMEOUT_MS: '10000', LATCHKEY_WEBHOOK_LEASE_MS: '30000' };
    await Promise.all([startWorkerProcess(patient), startWorkerProcess(patient)]);
    await waitFor('500 deliveries', () => orgs.reduce((n, o) => n + receiver.at(`/${o}`).length, 0) >= 500, 60_000);
    await new Promise((r) => setTimeout(r, 300));
    for (const o of orgs) {
      const seq = sequenceAt(`/${o}`);
      expect(seq).toHaveLength(100);
      expect(seq).toEqual([...seq].sort((a, b) => a - b));
      expect(receiver.at(`/${o}`).every((r) => r.verified.ok)).toBe(true);
    }
    const ids = orgs.flatMap((o) => receiver.at(`/${o}`).map((r) => header(r, 'x-turnkey-event-id')));
    expect(new Set(ids).size).toBe(500);
  }, 120_000);

  it('kill -9 with 200 events pending and some in flight: after a restart every event arrives at least once', async () => {
    const orgs = ['kill-a', 'kill-b', 'kill-c', 'kill-d'];
    for (const o of orgs) {
      await createOrganization(w.db, o);
      await createEndpoint(w.db, o, receiver.url(`/${o}`));
      // Slow answers, so that deliveries are in flight when the worker dies.
      receiver.answer(`/${o}`, () => ({ status: 200, delayMs: 60 }));
    }
    await appendEvents(
      w.db,
      Array.from({ length: 200 }, (_, i) => ({ organizationId: orgs[i % orgs.length]!, activityId: `${orgs[i % orgs.length]}-${i}` })),
    );
    const received = () => orgs.flatMap((o) => receiver.at(`/${o}`));
    const first = await startWorkerProcess();
    await waitFor('some deliveries', () => received().length >= 20, 30_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = received().length;
    expect(atKill).toBeLessThan(200);
    await startWorkerProcess();
    const distinct = () => new Set(received().map((r) => header(r, 'x-turnkey-event-id'))).size;
    await waitFor('every event', () => distinct() === 200, 60_000);
    expect(received().every((r) => r.verified.ok)).toBe(true);
    // Order per endpoint, counting each event where it first arrived.
    for (const o of orgs) {
      const firsts = [...new Set(sequenceAt(`/${o}`))];
      expect(firsts).toHaveLength(50);
      expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    }
    await waitFor('all recorded', async () => (await w.db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_messages WHERE status <> 'delivered'`)).rows[0]!.n === '0', 10_000);
  }, 120_000);
});
