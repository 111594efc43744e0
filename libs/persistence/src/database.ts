/**
 * The database handle: Prisma 7 over the `pg` driver adapter, the only place a connection pool
 * is made. `transaction` runs a unit of work whose every write commits or rolls back together.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from './generated/prisma/client.js';

export type TDb = PrismaClient | Prisma.TransactionClient;

/**
 * Plain SQL on the pool, outside any transaction. Prisma costs about 0.2–0.5 ms of CPU per
 * statement and an interactive transaction about 1.3 ms more; the few statements on the signing
 * path (see docs/BENCHMARKS.md) skip it. Values are positional ($1, $2, …) as in PostgreSQL.
 */
export interface TSql {
  /** With `name`, a prepared statement: parsed and planned once per connection. */
  query<R>(text: string, values?: unknown[], name?: string): Promise<{ rows: R[] }>;
}

/**
 * Rows of one positional-parameter statement: on the pool's plain SQL when `sql` is given (the
 * store bound outside a transaction; `name` makes it a prepared statement, for the statements run
 * on every signature), otherwise through Prisma (`db` may be a transaction).
 */
export async function rawRows<R>(db: TDb, sql: TSql | undefined, text: string, values: unknown[], name?: string): Promise<R[]> {
  if (sql) return (await sql.query<R>(text, values, name)).rows;
  return db.$queryRawUnsafe<R[]>(text, ...values);
}

export interface TDatabase {
  readonly prisma: PrismaClient;
  readonly url: string;
  /** Plain SQL on the same pool (see TSql). */
  readonly sql: TSql;
  /**
   * Runs `work` in one plain-SQL transaction on one pooled connection: COMMIT when it resolves,
   * ROLLBACK when it throws (the error is rethrown). For the few hot loops that would otherwise
   * pay for a Prisma interactive transaction (the outbox worker's claim-and-record batch).
   */
  sqlTransaction<T>(work: (tx: TSql) => Promise<T>): Promise<T>;
  /** Round trip to the server (readiness checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface TDatabaseOptions {
  /** Pool size. Default 10. */
  max?: number;
}

/** Opens a pooled connection to the PostgreSQL at `url`. */
export function openDatabase(url: string, opts: TDatabaseOptions = {}): TDatabase {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, idleTimeoutMillis: 30_000 });
  // An idle client dying (e.g. the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    url,
    sql: {
      query: <R>(text: string, values?: unknown[], name?: string) =>
        pool.query(name ? { name, text, values: values ?? [] } : { text, values: values ?? [] }) as unknown as Promise<{ rows: R[] }>,
    },
    async sqlTransaction<T>(work: (tx: TSql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const tx: TSql = {
          query: <R>(text: string, values?: unknown[], name?: string) =>
            client.query(name ? { name, text, values: values ?? [] } : { text, values: values ?? [] }) as unknown as Promise<{ rows: R[] }>,
        };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (e) {
        // A failed ROLLBACK means the connection itself is unusable: it is destroyed, not reused.
        await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
        throw e;
      } finally {
        client.release(broken !== undefined);
      }
    },
    async ping() {
      await prisma.$queryRaw`SELECT 1`;
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * True when an error is a unique-constraint violation: P2002 from Prisma's model queries, a Prisma
 * raw query (P2010) whose driver error is PostgreSQL's 23505, or pg's own 23505 (plain SQL).
 */
export function isUniqueViolation(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } };
  // pg's own error, from plain SQL (TSql).
  if (err.code === '23505') return true;
  return err.code === 'P2002' || (err.code === 'P2010' && err.meta?.driverAdapterError?.cause?.originalCode === '23505');
}
