/**
 * A connection PostgreSQL drops (a restart, a failover, an operator's pg_terminate_backend) must
 * cost one failed unit of work, never the process: the pool discards it and serves the next query.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from './database.js';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from './testing/test-database.js';

let testDb: TTestDatabase;
let db: TDatabase;
/** Errors nobody handled while a test ran (vitest reports them too, after the fact). */
const uncaught: unknown[] = [];
const onUncaught = (e: unknown) => uncaught.push(e);

beforeAll(async () => {
  testDb = await createTestDatabase();
  process.on('uncaughtException', onUncaught);
});
beforeEach(() => {
  uncaught.length = 0;
});
afterEach(async () => {
  await db?.close();
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await testDb.drop();
  await stopTestPostgres();
});

/** Terminates backend `pid` from a connection of its own, as an operator or a restart would. */
async function terminate(url: string, pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

/** Lets the socket's end and the client's 'error' event happen. */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('openDatabase survives dropped connections', () => {
  it('a connection terminated inside sqlTransaction fails that transaction only; the pool serves the next query', async () => {
    db = openDatabase(testDb.url, { max: 2 });
    const outcome = db.sqlTransaction(async (tx) => {
      const [{ pid }] = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
      await terminate(testDb.url, pid);
      // Idle between statements, as the outbox worker is while it delivers: the drop arrives
      // as an 'error' event on the checked-out client, not as a query's rejection.
      await settle();
      await tx.query('SELECT 1');
    });
    await expect(outcome).rejects.toThrow();
    expect(uncaught).toEqual([]);
    for (let i = 0; i < 4; i++) expect((await db.sql.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect((await db.sqlTransaction((tx) => tx.query<{ n: number }>('SELECT 2 AS n'))).rows).toEqual([{ n: 2 }]);
  });

  it('a terminated connection inside a Prisma transaction, and idle pooled ones, are discarded without crashing', async () => {
    db = openDatabase(testDb.url, { max: 2 });
    const outcome = db.prisma.$transaction(async (tx) => {
      const [{ pid }] = await tx.$queryRaw<[{ pid: number }]>`SELECT pg_backend_pid() AS pid`;
      await terminate(testDb.url, pid);
      await settle();
      await tx.$queryRaw`SELECT 1`;
    });
    await expect(outcome).rejects.toThrow();
    // Now every connection the pool holds idle.
    const pids = await Promise.all([0, 1].map(() => db.sqlTransaction(async (tx) => (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid)));
    for (const pid of new Set(pids)) await terminate(testDb.url, pid);
    await settle();
    expect(uncaught).toEqual([]);
    await db.ping();
    expect((await db.sql.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('reports each discarded connection to onConnectionError', async () => {
    const seen: Error[] = [];
    db = openDatabase(testDb.url, { max: 1, onConnectionError: (e) => seen.push(e) });
    await expect(
      db.sqlTransaction(async (tx) => {
        const [{ pid }] = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
        await terminate(testDb.url, pid);
        await settle();
      }),
    ).rejects.toThrow();
    expect(uncaught).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    expect((await db.sql.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
