/**
 * The installation's plain-SQL store against the Prisma repositories it stands in for, on a real
 * PostgreSQL: the same rows written, the same objects read back, a rollback leaving nothing.
 */
import { newId } from '@latchkey/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../database.js';
import { createStore, type TStore } from '../store.js';
import { openMigratedTestDatabase, type TMigratedTestDatabase } from '../testing/migrated-test-database.js';
import { installationStore, type TInstallationRepositories, type TInstallationStore } from './installation-repository.js';

let testDb: TMigratedTestDatabase;
let db: TDatabase;
let prismaStore: TStore;
let sqlStore: TInstallationStore;

beforeAll(async () => {
  testDb = await openMigratedTestDatabase(4);
  db = testDb.db;
  prismaStore = createStore(db.prisma);
  sqlStore = installationStore(db);
});
afterAll(() => testDb?.close());

const publicKey = () => `02${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`;

/** A root organization as bootstrap writes one, through `repos`; the ids are fresh each time. */
async function writeRootOrganization(repos: TInstallationRepositories) {
  const organizationId = newId();
  const userId = newId();
  const organization = await repos.organizations.create({ id: organizationId, name: 'Root organization', rootQuorumThreshold: 1 });
  const user = await repos.users.create({ id: userId, organizationId, userName: 'root', userEmail: 'root@example.com' });
  await repos.organizations.addRootQuorumMembers(organizationId, [userId]);
  await repos.organizations.addRootQuorumMembers(organizationId, [userId]); // a repeat is no error
  const apiKey = await repos.credentials.createApiKey({ id: newId(), organizationId, userId, name: 'bootstrap', publicKey: publicKey(), curve: 'API_KEY_CURVE_P256', credentialType: 'CREDENTIAL_TYPE_API_KEY_P256' });
  return { organizationId, userId, organization, user, apiKey };
}

/** A row with its ids, key and clock readings replaced, to compare what two writes stored. */
const shape = (row: object) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, /(^id$|Id$|publicKey|At$)/.test(k) && v !== null ? (v instanceof Date ? 'date' : 'value') : v]));

describe('installation store (plain SQL) and the Prisma repositories', () => {
  it('write the same rows and read back the same objects', async () => {
    const viaSql = await writeRootOrganization(sqlStore);
    const viaPrisma = await writeRootOrganization(prismaStore);
    for (const k of ['organization', 'user', 'apiKey'] as const) {
      expect(Object.keys(viaSql[k]).sort()).toEqual(Object.keys(viaPrisma[k]).sort());
      expect(shape(viaSql[k])).toEqual(shape(viaPrisma[k]));
    }
    // Each store reads what either wrote, identically.
    for (const written of [viaSql, viaPrisma]) {
      const users = await sqlStore.users.listByOrganization(written.organizationId);
      expect(users).toEqual(await prismaStore.users.listByOrganization(written.organizationId));
      expect(users.map((u) => u.id)).toEqual([written.userId]);
      const keys = await sqlStore.credentials.listApiKeysByOrganization(written.organizationId);
      expect(keys).toEqual(await prismaStore.credentials.listApiKeysByOrganization(written.organizationId));
      expect(keys).toEqual([written.apiKey]);
      expect(await sqlStore.credentials.listApiKeysByOrganization(written.organizationId, ['someone-else'])).toEqual([]);
      expect(await sqlStore.credentials.listApiKeysByOrganization(written.organizationId, [written.userId])).toEqual(keys);
    }
    const members = await db.sql.query<{ user_id: string }>('SELECT user_id FROM root_quorum_members WHERE organization_id = $1', [viaSql.organizationId]);
    expect(members.rows).toEqual([{ user_id: viaSql.userId }]);
  });

  it('keeps system state and server keys as the Prisma repository reads them', async () => {
    const key = `state-${newId()}`;
    expect(await sqlStore.system.getState(key)).toBeNull();
    await sqlStore.system.setState(key, 'one');
    await sqlStore.system.setState(key, 'two');
    expect(await prismaStore.system.getState(key)).toBe('two');
    const purpose = `purpose-${newId()}`;
    await sqlStore.system.addServerKey({ purpose, publicKey: '04ab', sealedPrivateKey: 'sealed' });
    const viaSql = await sqlStore.system.serverKeys();
    expect(viaSql).toEqual(await prismaStore.system.serverKeys());
    expect(viaSql.find((k) => k.purpose === purpose)).toMatchObject({ purpose, publicKey: '04ab', sealedPrivateKey: 'sealed' });
    // The store the apps read at start (Prisma's, bound to the pool's plain SQL) answers the same.
    expect(await createStore(db.prisma, db.sql).system.serverKeys()).toEqual(viaSql);
  });

  it('rolls back every write of a transaction that throws, and serialises on the advisory lock', async () => {
    const organizationId = newId();
    await expect(
      sqlStore.transaction(async (tx) => {
        await tx.system.lockForTransaction(424_242);
        await tx.organizations.create({ id: organizationId, name: 'doomed' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await db.sql.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId])).rows).toEqual([]);

    // Two transactions on the same lock: the second starts its work only after the first committed.
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const first = sqlStore.transaction(async (tx) => {
      await tx.system.lockForTransaction(424_243);
      locked();
      order.push('first in');
      await held;
      order.push('first out');
    });
    await new Promise<void>((r) => (locked = r));
    const second = sqlStore.transaction(async (tx) => {
      await tx.system.lockForTransaction(424_243);
      order.push('second in');
    });
    await new Promise((r) => setTimeout(r, 100));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
  });
});
