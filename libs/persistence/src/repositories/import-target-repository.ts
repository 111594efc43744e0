/** One-time import encryption targets (their private halves sealed by the key vault). */
import type { TDb } from '../database.js';
import type { ImportTarget } from '../generated/prisma/client.js';

/** `SECRET`: an init_import_secrets target, found by its public key (the import names it). */
export type TImportKind = 'WALLET' | 'PRIVATE_KEY' | 'SECRET';

export function importTargetRepository(db: TDb) {
  return {
    async create(t: { id: string; organizationId: string; userId: string; kind: TImportKind; publicKey: string; sealedPrivateKey: string; expiresAt: Date }): Promise<void> {
      await db.importTarget.create({ data: t });
    },
    /** The user's newest unused, unexpired targets of a kind (newest first). */
    async usable(organizationId: string, userId: string, kind: TImportKind, now: Date): Promise<ImportTarget[]> {
      return db.importTarget.findMany({ where: { organizationId, userId, kind, usedAt: null, expiresAt: { gt: now } }, orderBy: { id: 'desc' }, take: 10 });
    },
    /** The user's unused, unexpired target of a kind with this (uncompressed, lowercase hex) public key. */
    async usableByPublicKey(organizationId: string, userId: string, kind: TImportKind, publicKey: string, now: Date): Promise<ImportTarget | null> {
      return db.importTarget.findFirst({ where: { organizationId, userId, kind, publicKey, usedAt: null, expiresAt: { gt: now } } });
    },
    /** Marks a target used; false when another import used it first. */
    async use(organizationId: string, id: string, at: Date): Promise<boolean> {
      const r = await db.importTarget.updateMany({ where: { organizationId, id, usedAt: null }, data: { usedAt: at } });
      return r.count === 1;
    },
  };
}
export type TImportTargetRepository = ReturnType<typeof importTargetRepository>;
