/** The installation's own records: server signing keys (sealed) and small state facts. */
import type { TDb, TSql } from '../database.js';
import type { ServerKey } from '../generated/prisma/client.js';

/** The server keys in purpose order, on plain SQL (the columns named as the Prisma model names them). */
export async function readServerKeys(sql: TSql): Promise<ServerKey[]> {
  return (await sql.query<ServerKey>('SELECT purpose, public_key AS "publicKey", sealed_private_key AS "sealedPrivateKey", created_at AS "createdAt" FROM server_keys ORDER BY purpose')).rows;
}

/** `sql` (outside a transaction): the server keys every app reads at start, without Prisma (installation-repository.ts). */
export function systemRepository(db: TDb, sql?: TSql) {
  return {
    async serverKeys(): Promise<ServerKey[]> {
      if (sql) return readServerKeys(sql);
      return db.serverKey.findMany({ orderBy: { purpose: 'asc' } });
    },
    async addServerKey(k: { purpose: string; publicKey: string; sealedPrivateKey: string }): Promise<void> {
      await db.serverKey.create({ data: k });
    },
    async getState(key: string): Promise<string | null> {
      return (await db.systemState.findUnique({ where: { key } }))?.value ?? null;
    },
    async setState(key: string, value: string): Promise<void> {
      await db.systemState.upsert({ where: { key }, create: { key, value }, update: { value, updatedAt: new Date() } });
    },
    /** Serialises a one-time step (bootstrap) across processes until the transaction ends. */
    async lockForTransaction(key: number): Promise<void> {
      await db.$executeRaw`SELECT pg_advisory_xact_lock(${key})`;
    },
  };
}
export type TSystemRepository = ReturnType<typeof systemRepository>;
