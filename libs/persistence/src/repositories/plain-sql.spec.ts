/**
 * The statements that skip Prisma on the signing path (TSql) answer exactly as their Prisma
 * versions do: the same rows in the same shape, the same conflict handling. Each is run on the
 * store bound to plain SQL and on the same store's transaction binding (which goes through Prisma).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../database.js';
import { runMigrations } from '../migrations/run-migrations.js';
import { createStore, type TRepositories, type TStore } from '../store.js';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '../testing/index.js';

let t: TTestDatabase;
let db: TDatabase;
let store: TStore;
const ORG = 'org-plain-sql';

beforeAll(async () => {
  t = await createTestDatabase();
  await runMigrations(t.url);
  db = openDatabase(t.url, { max: 4 });
  store = createStore(db.prisma, db.sql);
});

afterAll(async () => {
  await db?.close();
  await t?.drop();
  await stopTestPostgres();
});

let n = 0;
const activity = (fingerprint: string) => ({
  id: `act-${++n}`,
  organizationId: ORG,
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
  status: 'ACTIVITY_STATUS_COMPLETED',
  intent: { signRawPayloadIntentV2: { signWith: '0xabc', payload: 'ü "quoted" \\ text' } },
  result: { signRawPayloadResult: { r: '01', s: '02', v: '00' } },
  failure: null,
  fingerprint,
  createdByUserId: 'user-1',
  createdAt: new Date('2026-11-24T04:00:00.123Z'),
});

/** Both bindings: plain SQL (the store itself) and Prisma (inside a transaction, rolled back). */
async function onBoth<T>(fn: (repos: TRepositories) => Promise<T>): Promise<{ plain: T; prisma: T }> {
  const plain = await fn(store);
  let prisma: T | undefined;
  await store
    .transaction(async (tx) => {
      prisma = await fn(tx);
      throw new Error('rollback');
    })
    .catch((e: unknown) => {
      if (!(e instanceof Error) || e.message !== 'rollback') throw e;
    });
  return { plain, prisma: prisma as T };
}

describe('plain SQL on the signing path', () => {
  it('inserts an activity with its outbox event in one statement, and nothing at all on a fingerprint conflict', async () => {
    // The organization has no webhook endpoint: its events are stored already processed (migration 0027).
    const events = async () => (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $1`, [ORG])).rows[0]!.n;
    const before = await events();
    const a = activity('sha256:one');
    expect(await store.activities.insertWithEvent(a, { eventType: 'ACTIVITY_UPDATES', payload: { activity: { id: a.id } } })).toBe(true);
    expect(await events()).toBe(before + 1);
    // Same fingerprint, another id: refused without an error, and without an event.
    const again = { ...a, id: 'act-other' };
    expect(await store.activities.insertWithEvent(again, { eventType: 'ACTIVITY_UPDATES', payload: {} })).toBe(false);
    expect(await events()).toBe(before + 1);
    expect(await store.activities.findById(ORG, 'act-other')).toBeNull();

    // The Prisma binding (in a transaction) behaves the same.
    const both = await onBoth((r) => r.activities.insertWithEvent(activity('sha256:one'), { eventType: 'ACTIVITY_UPDATES', payload: {} }));
    expect(both).toEqual({ plain: false, prisma: false });
  });

  it('reads an activity by fingerprint in the shape Prisma gives', async () => {
    const a = activity('sha256:two');
    await store.activities.insert(a);
    const { plain, prisma } = await onBoth((r) => r.activities.findByFingerprint(ORG, 'sha256:two'));
    expect(plain).toEqual(prisma);
    expect(plain).toMatchObject({ id: a.id, intent: a.intent, result: a.result, failure: null, createdAt: a.createdAt, updatedAt: a.createdAt });
    expect(plain?.createdAt).toBeInstanceOf(Date);
    expect(await onBoth((r) => r.activities.findByFingerprint(ORG, 'sha256:none'))).toEqual({ plain: null, prisma: null });
  });

  it('finds an account key source and a private key (by id and by address) the same way on both bindings', async () => {
    await store.wallets.create({ id: 'w1', organizationId: ORG, name: 'w', sealedSeed: 'sealed-seed', mnemonicLength: 12 }, [
      { id: 'acc1', organizationId: ORG, walletId: 'w1', curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM', address: '0xAcc1', publicKey: '02ab', sealedPrivateKey: 'sealed-key' },
    ]);
    const account = await onBoth((r) => r.wallets.findAccountKeySource(ORG, '0xAcc1'));
    expect(account.plain).toEqual(account.prisma);
    expect(account.plain).toMatchObject({ id: 'acc1', walletId: 'w1', sealedPrivateKey: 'sealed-key', sealedSeed: null });
    expect(await onBoth((r) => r.wallets.findAccountKeySource(ORG, '0xNobody'))).toEqual({ plain: null, prisma: null });

    await store.privateKeys.create({ id: 'pk1', organizationId: ORG, name: 'k', curve: 'CURVE_SECP256K1', publicKey: '03cd', sealedPrivateKey: 'sealed-pk', addresses: [{ format: 'ADDRESS_FORMAT_ETHEREUM', address: '0xKey1' }], tagIds: [] });
    for (const ref of ['pk1', '0xKey1']) {
      const key = await onBoth((r) => r.privateKeys.findSigningKey(ORG, ref));
      expect(key.plain).toEqual(key.prisma);
      expect(key.plain).toEqual({ id: 'pk1', curve: 'CURVE_SECP256K1', publicKey: '03cd', sealedPrivateKey: 'sealed-pk' });
    }
    await store.privateKeys.softDelete(ORG, ['pk1'], new Date());
    expect(await onBoth((r) => r.privateKeys.findSigningKey(ORG, 'pk1'))).toEqual({ plain: null, prisma: null });
  });
});
