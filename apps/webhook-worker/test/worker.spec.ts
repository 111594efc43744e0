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
});
