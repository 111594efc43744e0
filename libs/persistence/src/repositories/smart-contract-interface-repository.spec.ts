/** Smart contract interfaces on a real PostgreSQL: one per (organization, contract address), lookups by address. */
import { newId } from '@latchkey/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../database.js';
import { openMigratedTestDatabase, type TMigratedTestDatabase } from '../testing/migrated-test-database.js';
import { smartContractInterfaceRepository } from './smart-contract-interface-repository.js';

let testDb: TMigratedTestDatabase;
let db: TDatabase;

beforeAll(async () => {
  testDb = await openMigratedTestDatabase(4);
  db = testDb.db;
});
afterAll(() => testDb?.close());

const ETH = 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM';
const row = (organizationId: string, contractAddress: string) => ({ id: newId(), organizationId, contractAddress, type: ETH, interface: '[]', label: 'l', notes: '' });

describe('smart contract interface repository', () => {
  it('refuses a second interface for the same address in one organization, not in another; writes nothing on refusal', async () => {
    const repo = smartContractInterfaceRepository(db.prisma);
    const first = row('org-a', '0xaaaa');
    expect(await repo.create(first, new Date())).toBe(true);
    expect(await repo.create({ ...row('org-a', '0xaaaa'), label: 'second' }, new Date())).toBe(false);
    expect(await repo.create(row('org-b', '0xaaaa'), new Date())).toBe(true);
    expect((await repo.list('org-a')).map((r) => r.label)).toEqual(['l']);
    expect((await repo.findById('org-a', first.id))?.contractAddress).toBe('0xaaaa');
    expect(await repo.findById('org-b', first.id)).toBeNull();
  });

  it('finds by addresses within the organization only, and removes by id', async () => {
    const repo = smartContractInterfaceRepository(db.prisma);
    const r = row('org-c', '0xcccc');
    await repo.create(r, new Date());
    await repo.create(row('org-d', '0xdddd'), new Date());
    expect(await repo.findByAddresses('org-c', [])).toEqual([]);
    expect((await repo.findByAddresses('org-c', ['0xcccc', '0xdddd'])).map((x) => x.contractAddress)).toEqual(['0xcccc']);
    expect(await repo.remove('org-d', r.id)).toBe(false);
    expect(await repo.remove('org-c', r.id)).toBe(true);
    expect(await repo.findByAddresses('org-c', ['0xcccc'])).toEqual([]);
  });

  it('the table refuses a type outside the two Turnkey defines', async () => {
    await expect(db.sql.query(`INSERT INTO smart_contract_interfaces (id, organization_id, contract_address, type, interface, label) VALUES ('x', 'o', 'a', 'TRON', '[]', 'l')`)).rejects.toThrow(/check/i);
  });
});
