/**
 * HD wallets (their seed only ever sealed by the key vault) and their derived accounts (each
 * account's private key, since migration 0009, sealed by the vault as well).
 */
import { toChecksumAddress } from '@latchkey/crypto';
import { rawRows, type TDb, type TSql } from '../database.js';
import type { Wallet, WalletAccount } from '../generated/prisma/client.js';
import { finishPage, planPage, type TPageRequest } from '../pagination.js';
import type { TStatementRows } from './activity-repository.js';

const ETHEREUM_ADDRESS = /^0[xX][0-9a-fA-F]{40}$/;

/**
 * The spellings an address given by a client may be stored under, always three (repeated when
 * fewer) so that a statement takes a fixed list of parameters. An Ethereum-format address (`0x` and
 * 40 hex digits) is case-insensitive — EIP-55's mixed case is only a checksum — so it is matched in
 * its checksummed form (how addresses are derived and stored) and in lowercase; every other format
 * is matched exactly, as base58 and most others are case-sensitive. Listing the spellings, rather
 * than comparing `lower(address)`, keeps the lookups on the (organization_id, address) indexes.
 */
export function addressSpellings(address: string): [string, string, string] {
  if (!ETHEREUM_ADDRESS.test(address)) return [address, address, address];
  return [address, toChecksumAddress(address), `0x${address.slice(2).toLowerCase()}`];
}

export interface TNewWallet {
  id: string;
  organizationId: string;
  name: string;
  sealedSeed: string;
  mnemonicLength: number;
  imported?: boolean;
}

export interface TNewWalletAccount {
  id: string;
  organizationId: string;
  walletId: string;
  curve: string;
  pathFormat: string;
  path: string;
  addressFormat: string;
  address: string;
  publicKey: string;
  name?: string | null;
  /** The account's private key sealed by the key vault; null or absent when not stored. */
  sealedPrivateKey?: string | null;
}

/**
 * What signing with (or exporting) a live account needs, read in one query: the account's own
 * sealed key, or — for an account derived before migration 0009 — its wallet's sealed seed to
 * derive the key from (`sealedSeed` is null whenever `sealedPrivateKey` is set).
 */
export interface TAccountKeySource {
  id: string;
  walletId: string;
  curve: string;
  path: string;
  address: string;
  publicKey: string;
  sealedPrivateKey: string | null;
  sealedSeed: string | null;
}

export interface TAccountListQuery extends TPageRequest {
  organizationId: string;
  walletId?: string | undefined;
}

/** The account columns `unnest` takes, in the order of the INSERT below (one array each). */
const ACCOUNT_COLUMNS = ['id', 'organizationId', 'walletId', 'curve', 'pathFormat', 'path', 'addressFormat', 'address', 'publicKey', 'name', 'sealedPrivateKey'] as const;
const accountColumn = (accounts: readonly TNewWalletAccount[], k: (typeof ACCOUNT_COLUMNS)[number]) => accounts.map((a) => a[k] ?? null);

/**
 * A new wallet and its accounts as rows the activity's own statement inserts (`insertWithEvent`,
 * create_wallet's `stage`): the wallet only when the activity is inserted, the accounts only
 * with the wallet. The one unique key they can hit is the wallet's live name (a violation fails
 * the whole statement: no activity, no wallet). The text depends on nothing but the shape, so it
 * is one prepared statement whatever the number of accounts.
 */
export function newWalletStatementRows(w: TNewWallet, accounts: readonly TNewWalletAccount[]): TStatementRows {
  return {
    name: 'new-wallet',
    ctes: (gate, bind) => [
      `new_wallet AS (
           INSERT INTO wallets (id, organization_id, name, sealed_seed, mnemonic_length, imported)
           SELECT ${bind(w.id)}, ${bind(w.organizationId)}, ${bind(w.name)}, ${bind(w.sealedSeed)}, ${bind(w.mnemonicLength)}::integer, ${bind(w.imported ?? false)}::boolean FROM ${gate}
           RETURNING id)`,
      `new_wallet_accounts AS (
           INSERT INTO wallet_accounts (id, organization_id, wallet_id, curve, path_format, path, address_format, address, public_key, name, sealed_private_key)
           SELECT u.* FROM new_wallet, unnest(${ACCOUNT_COLUMNS.map((k) => `${bind(accountColumn(accounts, k))}::text[]`).join(', ')}) AS u
           RETURNING 1)`,
    ],
  };
}

/**
 * Inserts accounts in one statement (unnest over column arrays): Prisma's createMany spent ~50 ms
 * of its own CPU on 100 rows where this takes ~10 ms (tools/bench create-wallet-accounts).
 */
async function insertAccounts(db: TDb, accounts: TNewWalletAccount[]): Promise<void> {
  if (accounts.length === 0) return;
  const col = (k: (typeof ACCOUNT_COLUMNS)[number]) => accountColumn(accounts, k);
  await db.$executeRaw`
    INSERT INTO wallet_accounts (id, organization_id, wallet_id, curve, path_format, path, address_format, address, public_key, name, sealed_private_key)
    SELECT * FROM unnest(
      ${col('id')}::text[], ${col('organizationId')}::text[], ${col('walletId')}::text[], ${col('curve')}::text[],
      ${col('pathFormat')}::text[], ${col('path')}::text[], ${col('addressFormat')}::text[], ${col('address')}::text[],
      ${col('publicKey')}::text[], ${col('name')}::text[], ${col('sealedPrivateKey')}::text[])`;
}

export function walletRepository(db: TDb, sql?: TSql) {
  return {
    async create(w: TNewWallet, accounts: TNewWalletAccount[]): Promise<Wallet> {
      const wallet = await db.wallet.create({ data: { ...w, imported: w.imported ?? false } });
      await insertAccounts(db, accounts);
      return wallet;
    },
    async addAccounts(accounts: TNewWalletAccount[]): Promise<void> {
      await insertAccounts(db, accounts);
    },
    /** Records that a wallet's seed left the vault (export): it may then be deleted without the flag. */
    async markExported(organizationId: string, id: string): Promise<void> {
      await db.wallet.updateMany({ where: { organizationId, id, deletedAt: null }, data: { exported: true, updatedAt: new Date() } });
    },
    async rename(organizationId: string, id: string, name: string): Promise<void> {
      await db.wallet.updateMany({ where: { organizationId, id, deletedAt: null }, data: { name, updatedAt: new Date() } });
    },
    /**
     * Soft-deletes wallets and their accounts. The accounts' sealed keys are cleared at once; the
     * wallets' sealed seeds stay only until purged.
     */
    async softDelete(organizationId: string, ids: string[], at: Date): Promise<void> {
      await db.wallet.updateMany({ where: { organizationId, id: { in: ids }, deletedAt: null }, data: { deletedAt: at, updatedAt: at } });
      await db.walletAccount.updateMany({
        where: { organizationId, walletId: { in: ids }, deletedAt: null },
        data: { deletedAt: at, updatedAt: at, sealedPrivateKey: null },
      });
    },
    async findAccount(organizationId: string, walletId: string, by: { address?: string | undefined; path?: string | undefined }): Promise<WalletAccount | null> {
      return db.walletAccount.findFirst({
        where: { organizationId, walletId, deletedAt: null, ...(by.address !== undefined ? { address: { in: addressSpellings(by.address) } } : {}), ...(by.path !== undefined ? { path: by.path } : {}) },
        orderBy: { id: 'asc' },
      });
    },
    /** The live account with this address anywhere in the organization (Ethereum addresses in any case: addressSpellings). */
    async findAccountByAddress(organizationId: string, address: string): Promise<WalletAccount | null> {
      return db.walletAccount.findFirst({ where: { organizationId, address: { in: addressSpellings(address) }, deletedAt: null }, orderBy: { id: 'asc' } });
    },
    /**
     * The live account with this address (the oldest, as `findAccountByAddress`) in a live wallet,
     * with what opens its private key, in one query (a signature used to read the account, then the
     * wallet). The seed is returned only for accounts that have no sealed key of their own.
     */
    async findAccountKeySource(organizationId: string, address: string): Promise<TAccountKeySource | null> {
      // On the signing path: plain SQL when outside a transaction (see TSql).
      const rows = await rawRows<TAccountKeySource>(
        db,
        sql,
        `SELECT a.id, a.wallet_id AS "walletId", a.curve, a.path, a.address, a.public_key AS "publicKey",
                a.sealed_private_key AS "sealedPrivateKey",
                CASE WHEN a.sealed_private_key IS NULL THEN w.sealed_seed END AS "sealedSeed"
         FROM wallet_accounts a
         JOIN wallets w ON w.organization_id = a.organization_id AND w.id = a.wallet_id AND w.deleted_at IS NULL
         WHERE a.organization_id = $1 AND a.address IN ($2, $3, $4) AND a.deleted_at IS NULL
         ORDER BY a.id
         LIMIT 1`,
        [organizationId, ...addressSpellings(address)],
        'account-key-source',
      );
      return rows[0] ?? null;
    },
    async markAccountExported(organizationId: string, id: string): Promise<void> {
      await db.walletAccount.updateMany({ where: { organizationId, id, deletedAt: null }, data: { exported: true, updatedAt: new Date() } });
    },
    async findAccountsByIds(organizationId: string, ids: string[]): Promise<WalletAccount[]> {
      return db.walletAccount.findMany({ where: { organizationId, id: { in: ids }, deletedAt: null } });
    },
    /** Soft-deletes accounts, clearing their sealed keys (the wallet's seed still derives them). */
    async softDeleteAccounts(organizationId: string, ids: string[], at: Date): Promise<void> {
      await db.walletAccount.updateMany({ where: { organizationId, id: { in: ids }, deletedAt: null }, data: { deletedAt: at, updatedAt: at, sealedPrivateKey: null } });
    },
    async findById(organizationId: string, id: string): Promise<Wallet | null> {
      return db.wallet.findFirst({ where: { organizationId, id, deletedAt: null } });
    },
    async findByIds(organizationId: string, ids: string[]): Promise<Wallet[]> {
      return db.wallet.findMany({ where: { organizationId, id: { in: ids }, deletedAt: null } });
    },
    async list(organizationId: string): Promise<Wallet[]> {
      return db.wallet.findMany({ where: { organizationId, deletedAt: null }, orderBy: { id: 'asc' } });
    },
    /** Oldest first: the derivation order. */
    async listAccounts(q: TAccountListQuery): Promise<WalletAccount[]> {
      const plan = planPage('asc', q);
      const rows = await db.walletAccount.findMany({
        where: {
          organizationId: q.organizationId,
          deletedAt: null,
          ...(q.walletId !== undefined ? { walletId: q.walletId } : {}),
          ...(plan.idFilter ? { id: plan.idFilter } : {}),
        },
        orderBy: { id: plan.queryDirection },
        take: plan.take,
      });
      return finishPage(plan, rows);
    },
  };
}
export type TWalletRepository = ReturnType<typeof walletRepository>;
