/** The metrics' view of the outbox and the pool, against a real PostgreSQL with the migrations applied. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../database.js';
import { openMigratedTestDatabase, type TMigratedTestDatabase } from '../testing/migrated-test-database.js';
import { readOutboxBacklog } from './outbox-backlog.js';

let testDb: TMigratedTestDatabase;
let db: TDatabase;

beforeAll(async () => {
  testDb = await openMigratedTestDatabase(3);
  db = testDb.db;
});
afterAll(() => testDb?.close());

describe('readOutboxBacklog', () => {
  it('counts pending events only, and ages the oldest of them', async () => {
    expect(await readOutboxBacklog(db.sql)).toEqual({ depth: 0, oldestAgeSeconds: 0 });
    const now = Date.now();
    await db.prisma.outboxEvent.createMany({
      data: [
        // Delivered long ago: neither counted nor the oldest.
        { organizationId: 'org-a', eventType: 'ACTIVITY_UPDATED', payload: {}, createdAt: new Date(now - 3_600_000), processedAt: new Date(now - 3_500_000) },
        { organizationId: 'org-a', eventType: 'ACTIVITY_UPDATED', payload: {}, createdAt: new Date(now - 120_000) },
        { organizationId: 'org-b', eventType: 'ACTIVITY_UPDATED', payload: {}, createdAt: new Date(now - 5_000) },
      ],
    });
    const b = await readOutboxBacklog(db.sql);
    expect(b.depth).toBe(2);
    // The oldest pending is ~120 s old (the database's clock is this machine's).
    expect(b.oldestAgeSeconds).toBeGreaterThan(100);
    expect(b.oldestAgeSeconds).toBeLessThan(3_000);
  });
});

describe('poolStats', () => {
  it('reports the pool’s cap and the connections a transaction holds', async () => {
    let during: ReturnType<TDatabase['poolStats']> | undefined;
    await db.sqlTransaction(async () => {
      during = db.poolStats();
    });
    expect(during!.max).toBe(3);
    expect(during!.total).toBeGreaterThanOrEqual(1);
    expect(during!.total - during!.idle).toBeGreaterThanOrEqual(1);
    const after = db.poolStats();
    expect(after.total - after.idle).toBe(0);
    expect(after.waiting).toBe(0);
  });
});
