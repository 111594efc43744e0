/** Private keys (key material only ever sealed by the key vault), their addresses and their tags. */
import { rawRows, type TDb, type TSql } from '../database.js';
import { addressSpellings } from './wallet-repository.js';
import type { PrivateKey, PrivateKeyAddress, PrivateKeyTag } from '../generated/prisma/client.js';

export interface TNewPrivateKey {
  id: string;
  organizationId: string;
  name: string;
  curve: string;
  publicKey: string;
  sealedPrivateKey: string;
  imported?: boolean;
  addresses: { format: string; address: string }[];
  tagIds: string[];
}

export interface TPrivateKeyRecord extends PrivateKey {
  addresses: PrivateKeyAddress[];
  tagIds: string[];
}

/** A private key as signing reads it (findSigningKey). */
export interface TSigningKeyRow {
  id: string;
  curve: string;
  publicKey: string;
  sealedPrivateKey: string;
}

export function privateKeyRepository(db: TDb, sql?: TSql) {
  /** Attaches addresses and tag ids to key rows (two queries, whatever the number of keys). */
  async function withDetails(organizationId: string, keys: PrivateKey[]): Promise<TPrivateKeyRecord[]> {
    if (keys.length === 0) return [];
    const ids = keys.map((k) => k.id);
    const [addresses, tags] = await Promise.all([
      db.privateKeyAddress.findMany({ where: { organizationId, privateKeyId: { in: ids } }, orderBy: { format: 'asc' } }),
      db.privateKeyTagAssignment.findMany({ where: { organizationId, privateKeyId: { in: ids } }, orderBy: { privateKeyTagId: 'asc' } }),
    ]);
    return keys.map((k) => ({
      ...k,
      addresses: addresses.filter((a) => a.privateKeyId === k.id),
      tagIds: tags.filter((t) => t.privateKeyId === k.id).map((t) => t.privateKeyTagId),
    }));
  }

  return {
    async create(k: TNewPrivateKey): Promise<void> {
      const { addresses, tagIds, ...row } = k;
      await db.privateKey.create({ data: { ...row, imported: row.imported ?? false } });
      if (addresses.length) await db.privateKeyAddress.createMany({ data: addresses.map((a) => ({ organizationId: k.organizationId, privateKeyId: k.id, ...a })) });
      if (tagIds.length) await db.privateKeyTagAssignment.createMany({ data: tagIds.map((t) => ({ organizationId: k.organizationId, privateKeyId: k.id, privateKeyTagId: t })) });
    },
    async findById(organizationId: string, id: string): Promise<TPrivateKeyRecord | null> {
      const k = await db.privateKey.findFirst({ where: { organizationId, id, deletedAt: null } });
      return k ? (await withDetails(organizationId, [k]))[0]! : null;
    },
    async findByIds(organizationId: string, ids: string[]): Promise<PrivateKey[]> {
      return db.privateKey.findMany({ where: { organizationId, id: { in: ids }, deletedAt: null } });
    },
    /**
     * What signing with a live key needs, by its id or, failing that, one of its addresses (signWith
     * may name either): one statement, plain SQL outside a transaction (see TSql).
     */
    async findSigningKey(organizationId: string, idOrAddress: string): Promise<TSigningKeyRow | null> {
      const rows = await rawRows<TSigningKeyRow>(
        db,
        sql,
        `SELECT k.id, k.curve, k.public_key AS "publicKey", k.sealed_private_key AS "sealedPrivateKey"
         FROM private_keys k
         WHERE k.organization_id = $1 AND k.deleted_at IS NULL
           AND (k.id = $2 OR k.id IN (SELECT private_key_id FROM private_key_addresses WHERE organization_id = $1 AND address IN ($2, $3, $4)))
         ORDER BY (k.id = $2) DESC, k.id
         LIMIT 1`,
        [organizationId, ...addressSpellings(idOrAddress)],
        'signing-key',
      );
      return rows[0] ?? null;
    },
    /** A live key by one of its addresses (signWith may name a key by address). */
    /** The key holding `address` (an Ethereum address in any letter case), with the address as stored (`matchedAddress`). */
    async findByAddress(organizationId: string, address: string): Promise<(PrivateKey & { matchedAddress: string }) | null> {
      const a = await db.privateKeyAddress.findFirst({ where: { organizationId, address: { in: addressSpellings(address) } } });
      const key = a ? await db.privateKey.findFirst({ where: { organizationId, id: a.privateKeyId, deletedAt: null } }) : null;
      return key && a ? { ...key, matchedAddress: a.address } : null;
    },
    async list(organizationId: string): Promise<TPrivateKeyRecord[]> {
      return withDetails(organizationId, await db.privateKey.findMany({ where: { organizationId, deletedAt: null }, orderBy: { id: 'asc' } }));
    },
    async markExported(organizationId: string, id: string): Promise<void> {
      await db.privateKey.updateMany({ where: { organizationId, id, deletedAt: null }, data: { exported: true, updatedAt: new Date() } });
    },
    async softDelete(organizationId: string, ids: string[], at: Date): Promise<void> {
      await db.privateKey.updateMany({ where: { organizationId, id: { in: ids }, deletedAt: null }, data: { deletedAt: at, updatedAt: at } });
      await db.privateKeyTagAssignment.deleteMany({ where: { organizationId, privateKeyId: { in: ids } } });
    },

    async createTag(t: { id: string; organizationId: string; name: string }, privateKeyIds: string[]): Promise<PrivateKeyTag> {
      const tag = await db.privateKeyTag.create({ data: t });
      if (privateKeyIds.length) await db.privateKeyTagAssignment.createMany({ data: privateKeyIds.map((p) => ({ organizationId: t.organizationId, privateKeyTagId: t.id, privateKeyId: p })), skipDuplicates: true });
      return tag;
    },
    async findTags(organizationId: string, ids: string[]): Promise<PrivateKeyTag[]> {
      return db.privateKeyTag.findMany({ where: { organizationId, id: { in: ids } } });
    },
    async listTags(organizationId: string): Promise<PrivateKeyTag[]> {
      return db.privateKeyTag.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });
    },
    async renameTag(organizationId: string, id: string, name: string): Promise<void> {
      await db.privateKeyTag.updateMany({ where: { organizationId, id }, data: { name, updatedAt: new Date() } });
    },
    async tagKeys(organizationId: string, tagId: string, add: string[], remove: string[]): Promise<void> {
      if (add.length) await db.privateKeyTagAssignment.createMany({ data: add.map((p) => ({ organizationId, privateKeyTagId: tagId, privateKeyId: p })), skipDuplicates: true });
      if (remove.length) await db.privateKeyTagAssignment.deleteMany({ where: { organizationId, privateKeyTagId: tagId, privateKeyId: { in: remove } } });
    },
    /** Deletes tags; returns the ids of the private keys that carried them. */
    async deleteTags(organizationId: string, ids: string[]): Promise<string[]> {
      const carried = await db.privateKeyTagAssignment.findMany({ where: { organizationId, privateKeyTagId: { in: ids } }, orderBy: { privateKeyId: 'asc' } });
      await db.privateKeyTagAssignment.deleteMany({ where: { organizationId, privateKeyTagId: { in: ids } } });
      await db.privateKeyTag.deleteMany({ where: { organizationId, id: { in: ids } } });
      return [...new Set(carried.map((c) => c.privateKeyId))];
    },
  };
}
export type TPrivateKeyRepository = ReturnType<typeof privateKeyRepository>;
