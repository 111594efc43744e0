/** The installation's own records: server signing keys (sealed) and small state facts. */
import type { TDb } from '../database.js';
import type { ServerKey } from '../generated/prisma/client.js';

export function systemRepository(db: TDb) {
  return {
    async serverKeys(): Promise<ServerKey[]> {
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
