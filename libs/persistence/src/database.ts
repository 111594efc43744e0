/**
 * The database handle: Prisma 7 over the `pg` driver adapter, the only place a connection pool
 * is made. `transaction` runs a unit of work whose every write commits or rolls back together.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from './generated/prisma/client.js';

export type TDb = PrismaClient | Prisma.TransactionClient;

export interface TDatabase {
  readonly prisma: PrismaClient;
  readonly url: string;
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
 * True when a Prisma error is a unique-constraint violation: P2002 from model queries, or a raw
 * query (P2010) whose driver error is PostgreSQL's 23505.
 */
export function isUniqueViolation(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } };
  return err.code === 'P2002' || (err.code === 'P2010' && err.meta?.driverAdapterError?.cause?.originalCode === '23505');
}
