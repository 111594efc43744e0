/**
 * The change feed comes back after every drop, including drops followed by a while in which the
 * database refuses connections (a restart), and tells its subscriber to flush after each.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FLUSH_ALL, startChangeFeed, type TChangeFeed } from './change-feed.js';
import { CHANGE_CHANNEL } from './store.js';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from './testing/test-database.js';

let testDb: TTestDatabase;
let admin: pg.Client;
let feed: TChangeFeed | undefined;
const dbName = () => new URL(testDb.url).pathname.slice(1);

beforeAll(async () => {
  testDb = await createTestDatabase();
  // Administration from another database: ALLOW_CONNECTIONS false must not lock ourselves out.
  const adminUrl = new URL(testDb.url);
  adminUrl.pathname = '/postgres';
  admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
});
afterEach(async () => {
  await feed?.close();
  feed = undefined;
  await admin.query(`ALTER DATABASE ${dbName()} ALLOW_CONNECTIONS true`);
});
afterAll(async () => {
  await admin.end();
  await testDb.drop();
  await stopTestPostgres();
});

/** The backend pid of the feed's LISTEN connection (the only session LISTENing in the test database). */
async function listenerPid(): Promise<number | undefined> {
  const r = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query = $2`, [dbName(), `LISTEN ${CHANGE_CHANNEL}`]);
  return r.rows[0]?.pid;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function notify(payload: string): Promise<void> {
  const c = new pg.Client({ connectionString: testDb.url });
  await c.connect();
  try {
    await c.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
  } finally {
    await c.end();
  }
}

describe('change feed', () => {
  it('reconnects after every termination of its LISTEN backend, flushes, and hears notifications again', async () => {
    const messages: string[] = [];
    let reconnects = 0;
    const lastBeforeReconnect: (string | undefined)[] = [];
    const onReconnect = () => {
      reconnects++;
      lastBeforeReconnect.push(messages.at(-1));
    };
    feed = await startChangeFeed(testDb.url, (m) => messages.push(m), { minDelayMs: 20, maxDelayMs: 200, onReconnect });
    await notify('user:first');
    await until('the first notification', () => messages.includes('user:first'));
    for (let round = 1; round <= 4; round++) {
      const pid = await until('the LISTEN backend', listenerPid);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await until(`reconnect #${round}`, () => reconnects >= round);
      expect(lastBeforeReconnect[round - 1], 'flushed once listening again').toBe(FLUSH_ALL);
      await notify(`user:round-${round}`);
      await until(`the notification of round ${round}`, () => messages.includes(`user:round-${round}`));
    }
    expect(reconnects).toBe(4);
  });

  it('keeps retrying while the database refuses connections, and comes back when it accepts them', async () => {
    const messages: string[] = [];
    const reconnects: number[] = [];
    const errors: Error[] = [];
    feed = await startChangeFeed(testDb.url, (m) => messages.push(m), { minDelayMs: 20, maxDelayMs: 100, onReconnect: (n) => reconnects.push(n), onError: (e) => errors.push(e) });
    // A restart, as the feed sees it: the connection drops and new ones are refused for a while
    // (longer than one retry delay, so a feed that tries once or twice gives up in the meantime).
    await admin.query(`ALTER DATABASE ${dbName()} ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend($1)', [await until('the LISTEN backend', listenerPid)]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(messages).toContain(FLUSH_ALL); // told at once that it can no longer trust its cache
    expect(reconnects).toEqual([]);
    expect(errors.length).toBeGreaterThanOrEqual(3);
    await admin.query(`ALTER DATABASE ${dbName()} ALLOW_CONNECTIONS true`);
    // Notifications sent before LISTEN is back are lost by design: send until one is heard.
    let sent = 0;
    await until('a notification after the restart', async () => {
      if (messages.some((m) => m.startsWith('credential:after-restart'))) return true;
      await notify(`credential:after-restart-${sent++}`);
      return undefined;
    });
    expect(reconnects).toHaveLength(1);
    expect(reconnects[0]).toBeGreaterThan(1);
    const heardAt = messages.findIndex((m) => m.startsWith('credential:after-restart'));
    expect(messages[heardAt - 1]).toBe(FLUSH_ALL); // flushed again once listening: it may have missed some
  });
});
