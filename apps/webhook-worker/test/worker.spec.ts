/** The worker's loop over a real outbox (embedded PostgreSQL, or DATABASE_URL). */
import { createStore, openDatabase, processOutboxBatch, runMigrations, type TDatabase, type TOutboxEvent, type TStore } from '@latchkey/persistence';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '@latchkey/persistence/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker, type TDeliver } from '../src/worker.js';

let testDb: TTestDatabase;
let db: TDatabase;
let store: TStore;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  testDb = await createTestDatabase();
  await runMigrations(testDb.url);
  db = openDatabase(testDb.url);
  store = createStore(db.prisma);
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
  await stopTestPostgres();
});

const worker = (deliver: TDeliver, batchSize = 50) => createWorker({ processBatch: (l, h) => processOutboxBatch(db, l, h), deliver, logger, pollMs: 10, batchSize });

/** Appends `n` events of a type unique to the calling test. */
async function append(eventType: string, n: number) {
  for (let i = 0; i < n; i++) await store.outbox.append({ organizationId: 'org-1', eventType, payload: { i } });
}

describe('webhook worker', () => {
  it('drains the outbox, marking each event processed', async () => {
    await append('drain', 3);
    const seen: unknown[] = [];
    await worker(async (e) => {
      if (e.eventType === 'drain') seen.push(e.payload);
      return { ok: true };
    }).drain();
    expect(seen).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    expect(await store.outbox.pendingCount()).toBe(0);
    expect(await worker(async () => ({ ok: true })).drain()).toBe(0);
  });

  it('never hands one event to two workers at once (SKIP LOCKED)', async () => {
    await append('parallel', 40);
    const delivered: bigint[] = [];
    const slow: TDeliver = async (e: TOutboxEvent) => {
      delivered.push(e.id);
      await new Promise((r) => setTimeout(r, 5));
      return { ok: true };
    };
    const [a, b] = await Promise.all([worker(slow, 5).drain(), worker(slow, 5).drain()]);
    expect(a + b).toBe(40);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(new Set(delivered).size).toBe(40);
  });

  it('keeps a failed delivery for a later retry instead of losing it', async () => {
    await append('refused', 1);
    expect(await worker(async () => ({ ok: false, error: 'endpoint down', retryInMs: 60_000 })).drain()).toBe(1);
    expect(await store.outbox.pendingCount()).toBe(1);
    // Not due yet (backoff): another drain leaves it alone.
    expect(await worker(async () => ({ ok: true })).drain()).toBe(0);
  });

  it('schedules a retry when delivery throws', async () => {
    await append('throws', 1);
    expect(
      await worker(async (e) => {
        if (e.eventType === 'throws') throw new Error('socket hang up');
        return { ok: true };
      }).drain(),
    ).toBe(1);
    expect(await store.outbox.pendingCount()).toBe(2);
  });

  it('records each outcome of a mixed batch on its own row', async () => {
    await append('mixed', 3);
    const before = Date.now();
    const outcome = (i: unknown) =>
      i === 0 ? { ok: true as const } : i === 1 ? { ok: false as const, error: 'gone for good', retryInMs: null } : { ok: false as const, error: 'busy', retryInMs: 30_000 };
    expect(await worker(async (e) => (e.eventType === 'mixed' ? outcome((e.payload as { i: number }).i) : { ok: true })).drain()).toBeGreaterThanOrEqual(3);
    const rows = await db.sql.query<{ i: number; attempts: number; processed: boolean; last_error: string | null; due_in_ms: number }>(
      `SELECT (payload->>'i')::int AS i, attempts, processed_at IS NOT NULL AS processed, last_error,
              (extract(epoch FROM available_at) * 1000 - $1::bigint)::int AS due_in_ms
       FROM outbox_events WHERE event_type = 'mixed' ORDER BY id`,
      [before],
    );
    expect(rows.rows.map(({ due_in_ms, ...r }) => r)).toEqual([
      { i: 0, attempts: 1, processed: true, last_error: null },
      { i: 1, attempts: 1, processed: true, last_error: 'gone for good' },
      { i: 2, attempts: 1, processed: false, last_error: 'busy' },
    ]);
    // The retry is due about 30 s after the attempt, by the database's clock.
    expect(rows.rows[2]!.due_in_ms).toBeGreaterThan(25_000);
    expect(rows.rows[2]!.due_in_ms).toBeLessThan(35_000);
  });

  it('rolls a batch back when recording fails midway: its events stay due, none is lost', async () => {
    await append('rollback', 2);
    const due = async () =>
      (await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM outbox_events WHERE event_type = 'rollback' AND processed_at IS NULL AND available_at <= now()`)).rows[0]!.n;
    // One event delivered, the other given an outcome the database refuses (an error text with a
    // NUL byte is not valid text): the whole batch, including the delivered one, is undone.
    await expect(
      worker(async (e) => (e.eventType !== 'rollback' || (e.payload as { i: number }).i === 0 ? { ok: true } : { ok: false, error: 'bad\u0000byte', retryInMs: null })).drain(),
    ).rejects.toThrow();
    expect(await due()).toBe('2');
    // The connection went back to the pool in a usable state: the next drain delivers both.
    expect(await worker(async () => ({ ok: true })).drain()).toBeGreaterThanOrEqual(2);
    expect(await due()).toBe('0');
  });
});
