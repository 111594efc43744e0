/**
 * Rows staged into an activity's own statement (create_wallet's wallet and accounts) are written
 * with the activity, its outbox event and its audit link, or not at all: a repeat of the same
 * fingerprint inserts nothing, and a taken wallet name fails the whole statement.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../database.js';
import { createStore, type TStore } from '../store.js';
import { openMigratedTestDatabase, type TMigratedTestDatabase } from '../testing/migrated-test-database.js';
import type { TNewActivity } from './activity-repository.js';
import { newWalletStatementRows, type TNewWallet, type TNewWalletAccount } from './wallet-repository.js';

let t: TMigratedTestDatabase;
let store: TStore;
let admin: pg.Client;

beforeAll(async () => {
  t = await openMigratedTestDatabase(4);
  store = createStore(t.db.prisma, t.db.sql);
  admin = new pg.Client({ connectionString: t.db.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await t?.close();
});

const ORG = 'org-staged';
const EVENT = { eventType: 'ACTIVITY_UPDATES', payload: { activity: { id: 'x' } } };
let n = 0;
function activity(fingerprint: string): TNewActivity {
  n++;
  return {
    id: `act-${n}`,
    organizationId: ORG,
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    status: 'ACTIVITY_STATUS_COMPLETED',
    intent: { createWalletIntent: { walletName: 'w' } },
    result: { createWalletResult: { walletId: `w-${n}`, addresses: [] } },
    fingerprint,
    createdByUserId: 'user-1',
    createdAt: new Date(Date.UTC(2026, 11, 1, 12, 0, 0, n)),
  };
}
const wallet = (id: string, name: string, mnemonicLength = 12): TNewWallet => ({ id, organizationId: ORG, name, sealedSeed: `sealed-seed-of-${id}`, mnemonicLength, imported: false });
const account = (walletId: string, i: number, name: string | null = null): TNewWalletAccount => ({
  id: `${walletId}-a${i}`,
  organizationId: ORG,
  walletId,
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: `m/44'/60'/0'/0/${i}`,
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
  address: `0x${String(i).padStart(40, '0')}-${walletId}`,
  publicKey: `02${String(i).padStart(64, '0')}`,
  name,
  sealedPrivateKey: `sealed-key-${i}, "quoted" {braces}`,
});

const count = async (sql: string, ...values: unknown[]) => Number((await admin.query<{ n: string }>(sql, values)).rows[0]!.n);
const written = async (activityId: string, walletId: string) => ({
  activity: await count('SELECT count(*) AS n FROM activities WHERE id = $1', activityId),
  audit: await count('SELECT count(*) AS n FROM audit_log_entries WHERE activity_id = $1', activityId),
  wallet: await count('SELECT count(*) AS n FROM wallets WHERE id = $1', walletId),
  accounts: await count('SELECT count(*) AS n FROM wallet_accounts WHERE wallet_id = $1', walletId),
});

describe('insertWithEvent with staged rows', () => {
  it('writes the wallet and its accounts, as given, with the activity, its event and its audit link', async () => {
    const a = activity('fp-1');
    const events = await count('SELECT count(*) AS n FROM outbox_events');
    const accounts = [account('w-one', 0, 'first'), account('w-one', 1)];
    expect(await store.activities.insertWithEvent(a, EVENT, newWalletStatementRows(wallet('w-one', 'one', 24), accounts))).toBe(true);
    expect(await written(a.id, 'w-one')).toEqual({ activity: 1, audit: 1, wallet: 1, accounts: 2 });
    expect(await count('SELECT count(*) AS n FROM outbox_events')).toBe(events + 1);
    const w = (await admin.query('SELECT name, sealed_seed, mnemonic_length, imported, exported, deleted_at FROM wallets WHERE id = $1', ['w-one'])).rows[0];
    expect(w).toEqual({ name: 'one', sealed_seed: 'sealed-seed-of-w-one', mnemonic_length: 24, imported: false, exported: false, deleted_at: null });
    const rows = (await admin.query('SELECT id, organization_id, wallet_id, curve, path_format, path, address_format, address, public_key, name, sealed_private_key FROM wallet_accounts WHERE wallet_id = $1 ORDER BY id', ['w-one'])).rows;
    expect(rows).toEqual(
      accounts.map((x) => ({
        id: x.id,
        organization_id: ORG,
        wallet_id: x.walletId,
        curve: x.curve,
        path_format: x.pathFormat,
        path: x.path,
        address_format: x.addressFormat,
        address: x.address,
        public_key: x.publicKey,
        name: x.name,
        sealed_private_key: x.sealedPrivateKey,
      })),
    );
    // What the repository reads back for signing.
    expect(await store.wallets.findAccountKeySource(ORG, accounts[1]!.address)).toEqual(expect.objectContaining({ id: accounts[1]!.id, walletId: 'w-one', sealedPrivateKey: accounts[1]!.sealedPrivateKey, sealedSeed: null }));
  });

  it('a repeat of the fingerprint inserts nothing at all and says so', async () => {
    const first = activity('fp-2');
    expect(await store.activities.insertWithEvent(first, EVENT, newWalletStatementRows(wallet('w-two', 'two'), [account('w-two', 0)]))).toBe(true);
    const events = await count('SELECT count(*) AS n FROM outbox_events');
    const repeat = activity('fp-2');
    expect(await store.activities.insertWithEvent(repeat, EVENT, newWalletStatementRows(wallet('w-two-again', 'two-again'), [account('w-two-again', 0)]))).toBe(false);
    expect(await written(repeat.id, 'w-two-again')).toEqual({ activity: 0, audit: 0, wallet: 0, accounts: 0 });
    expect(await count('SELECT count(*) AS n FROM outbox_events')).toBe(events);
  });

  it('a live wallet name already taken fails the statement with a unique violation, writing nothing', async () => {
    expect(await store.activities.insertWithEvent(activity('fp-3'), EVENT, newWalletStatementRows(wallet('w-three', 'taken'), []))).toBe(true);
    const events = await count('SELECT count(*) AS n FROM outbox_events');
    const entries = await count('SELECT count(*) AS n FROM audit_log_entries WHERE organization_id = $1', ORG);
    const other = activity('fp-4');
    const e = await store.activities.insertWithEvent(other, EVENT, newWalletStatementRows(wallet('w-four', 'taken'), [account('w-four', 0)])).catch((x: unknown) => x);
    expect(isUniqueViolation(e)).toBe(true);
    expect(await written(other.id, 'w-four')).toEqual({ activity: 0, audit: 0, wallet: 0, accounts: 0 });
    expect(await count('SELECT count(*) AS n FROM outbox_events')).toBe(events);
    expect(await count('SELECT count(*) AS n FROM audit_log_entries WHERE organization_id = $1', ORG)).toBe(entries);
    // The chain goes on unbroken after the refused statement.
    expect(await store.activities.insertWithEvent(activity('fp-5'), EVENT, newWalletStatementRows(wallet('w-five', 'five'), []))).toBe(true);
    const seqs = (await admin.query<{ seq: string }>('SELECT seq::text FROM audit_log_entries WHERE organization_id = $1 ORDER BY seq', [ORG])).rows.map((r) => Number(r.seq));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });

  it('writes the same inside a transaction (through Prisma), where a rollback takes the rows with it', async () => {
    const a = activity('fp-6');
    await store.transaction(async (tx) => {
      expect(await tx.activities.insertWithEvent(a, EVENT, newWalletStatementRows(wallet('w-six', 'six'), [account('w-six', 0), account('w-six', 1)]))).toBe(true);
    });
    expect(await written(a.id, 'w-six')).toEqual({ activity: 1, audit: 1, wallet: 1, accounts: 2 });
    const b = activity('fp-7');
    await expect(
      store.transaction(async (tx) => {
        await tx.activities.insertWithEvent(b, EVENT, newWalletStatementRows(wallet('w-seven', 'seven'), [account('w-seven', 0)]));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await written(b.id, 'w-seven')).toEqual({ activity: 0, audit: 0, wallet: 0, accounts: 0 });
  });
});
