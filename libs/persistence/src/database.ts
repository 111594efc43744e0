/**
 * The database handle: Prisma 7 over the `pg` driver adapter, the only place a connection pool
 * is made. `transaction` runs a unit of work whose every write commits or rolls back together.
 *
 * Every connection has an 'error' listener, idle or checked out: PostgreSQL may drop any of them
 * (a restart, a failover, pg_terminate_backend), and an 'error' event nobody listens to kills
 * the process. A dropped connection fails the unit of work that held it and is discarded; the
 * pool opens a fresh one for the next query.
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
  /** The pool's connections right now (for the metrics gauges; no round trip). */
  poolStats(): TPoolStats;
  close(): Promise<void>;
}

/** Connections of one pool: open (busy or idle), idle, the requests waiting for one, and the cap. */
export interface TPoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface TDatabaseOptions {
  /** Pool size. Default 10. */
  max?: number;
  /**
   * Told of each connection the server dropped (it has already been discarded), for a log line.
   * Default: nothing; the failure reaches whoever was using the connection anyway.
   */
  onConnectionError?: (e: Error) => void;
}

/** Opens a pooled connection to the PostgreSQL at `url`. */
export function openDatabase(url: string, opts: TDatabaseOptions = {}): TDatabase {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, idleTimeoutMillis: 30_000 });
  const onConnectionError = (e: Error) => opts.onConnectionError?.(e);
  // Idle clients: pg-pool removes the dead one itself and re-emits the error on the pool.
  pool.on('error', onConnectionError);
  // Clients Prisma checks out for a transaction get its own listener (onConnectionError); its
  // commit and rollback release them without the error, but pg-pool discards any client that is no
  // longer queryable on release.
  // Made on first use: a process that runs only plain SQL (the launcher's first-start steps)
  // never pays for Prisma's client (deserialising its schema graph, ~0.1 s at start).
  let prisma: PrismaClient | undefined;
  return {
    get prisma() {
      return (prisma ??= new PrismaClient({ adapter: new PrismaPg(pool, { onPoolError: onConnectionError, onConnectionError }) }));
    },
    url,
    sql: {
      query: <R>(text: string, values?: unknown[], name?: string) =>
        pool.query(name ? { name, text, values: values ?? [] } : { text, values: values ?? [] }) as unknown as Promise<{ rows: R[] }>,
    },
    async sqlTransaction<T>(work: (tx: TSql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: a drop while `work` is between
      // statements would otherwise be an unhandled 'error' event. The next statement fails anyway
      // (the client is no longer queryable), so the error only marks the client for discarding.
      let broken: Error | undefined;
      const onError = (e: Error) => {
        broken ??= e;
        onConnectionError(e);
      };
      client.on('error', onError);
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
        if (broken === undefined) await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))));
        throw e;
      } finally {
        // A healthy client goes back to the pool without our listener (listeners would pile up);
        // a broken one keeps it, since a dying socket may still emit after release.
        if (broken === undefined) client.removeListener('error', onError);
        client.release(broken);
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max }),
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await prisma?.$disconnect();
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
