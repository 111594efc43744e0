/**
 * `latchkey webhooks rotate-key` and `webhooks redeliver`, the built CLI run as an operator runs
 * it, against a migrated database: the first signing key exists after `migrate` (first start), a
 * rotation publishes the new key beside the old one, and redelivery queues dead letters again.
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openDatabase, webhookJwksDocument, webhookSigningKeyRepository, type TDatabase } from '@latchkey/persistence';
import { createTestDatabase, makeTestDataDir, stopTestPostgres, type TTestDatabase } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', 'dist', 'main.mjs');
let testDb: TTestDatabase;
let dataDir: string;
let db: TDatabase;
let env: Record<string, string>;

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, LATCHKEY_LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const jwksKids = async () => (await webhookJwksDocument(webhookSigningKeyRepository(db))).body.keys.map((k) => k.kid);

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await makeTestDataDir();
  env = { DATABASE_URL: testDb.url, LATCHKEY_DATA_DIR: dataDir };
  const m = run(['migrate']);
  expect(m.code, m.stderr).toBe(0);
  db = openDatabase(testDb.url);
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await stopTestPostgres();
});

describe('latchkey webhooks', () => {
  it('the first start made the signing key; rotate-key adds one and keeps the old one published', async () => {
    const before = await jwksKids();
    expect(before).toHaveLength(1);
    const r = run(['webhooks', 'rotate-key', '--grace-days', '2']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { keyId: string; retired: string[]; graceDays: number };
    expect(out).toEqual({ keyId: expect.any(String), retired: before, graceDays: 2 });
    expect(await jwksKids()).toEqual([out.keyId, before[0]]);
    // A second migrate (another first-start run) makes no new key.
    expect(run(['migrate']).code).toBe(0);
    expect(await jwksKids()).toEqual([out.keyId, before[0]]);
  });

  it('rotate-key --grace-days 0 stops publishing the key it replaces at once (earlier keys keep their own grace)', async () => {
    const [current, earlier] = await jwksKids();
    const out = JSON.parse(run(['webhooks', 'rotate-key', '--grace-days', '0']).stdout) as { keyId: string; retired: string[] };
    expect(out.retired).toContain(current);
    expect(await jwksKids()).toEqual([out.keyId, earlier]);
  });

  it('refuses a bad --grace-days and a redeliver without a target with exit code 2', () => {
    for (const days of ['-1', 'x', '400']) {
      const r = run(['webhooks', 'rotate-key', '--grace-days', days]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--grace-days must be a number of days/);
    }
    expect(run(['webhooks', 'redeliver']).code).toBe(2);
    expect(run(['webhooks', 'redeliver', '--endpoint-id', 'e1']).stderr).toMatch(/add --dead/);
    expect(run(['webhooks', 'redeliver', '--event-id', 'evt_1', '--endpoint-id', 'e1', '--dead']).code).toBe(2);
  });

  it('redeliver --endpoint-id --dead queues every dead letter of the endpoint again; --event-id one event', async () => {
    const insert = (eventId: string, endpointId: string, status: string, outbox: number) =>
      db.sql.query(`INSERT INTO webhook_messages (organization_id, endpoint_id, event_id, event_type, outbox_event_id, body, status, attempts, last_error) VALUES ('org', $1, $2, 'ACTIVITY_UPDATES', $3, '\\x7b7d', $4, 12, 'HTTP 503')`, [
        endpointId,
        eventId,
        outbox,
        status,
      ]);
    await insert('evt_a', 'ep1', 'dead', 1);
    await insert('evt_b', 'ep1', 'dead', 2);
    await insert('evt_c', 'ep1', 'delivered', 3);
    await insert('evt_d', 'ep2', 'dead', 4);
    const status = async () => Object.fromEntries((await db.sql.query<{ event_id: string; status: string; attempts: number }>('SELECT event_id, status, attempts FROM webhook_messages ORDER BY event_id')).rows.map((r) => [r.event_id, `${r.status}/${r.attempts}`]));

    const all = run(['webhooks', 'redeliver', '--endpoint-id', 'ep1', '--dead']);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual({ redelivered: 2 });
    expect(await status()).toEqual({ evt_a: 'pending/0', evt_b: 'pending/0', evt_c: 'delivered/12', evt_d: 'dead/12' });

    expect(JSON.parse(run(['webhooks', 'redeliver', '--event-id', 'evt_c']).stdout)).toEqual({ redelivered: 1 });
    expect((await status())['evt_c']).toBe('pending/0');
    expect(JSON.parse(run(['webhooks', 'redeliver', '--event-id', 'evt_nope']).stdout)).toEqual({ redelivered: 0 });
  });
});
