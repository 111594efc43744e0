/** API keys by public key across organizations, on a real PostgreSQL: the holder probe a stranger's refusal rests on. */
import { newId } from '@latchkey/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../database.js';
import { openMigratedTestDatabase, type TMigratedTestDatabase } from '../testing/migrated-test-database.js';
import { credentialRepository } from './credential-repository.js';

let testDb: TMigratedTestDatabase;
let db: TDatabase;

beforeAll(async () => {
  testDb = await openMigratedTestDatabase(4);
  db = testDb.db;
});
afterAll(() => testDb?.close());

async function organizationWithUser(): Promise<{ organizationId: string; userId: string }> {
  const organizationId = newId();
  const userId = newId();
  await db.sql.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organizationId, `org ${organizationId}`]);
  await db.sql.query('INSERT INTO users (id, organization_id, user_name) VALUES ($1, $2, $3)', [userId, organizationId, 'u']);
  return { organizationId, userId };
}

const hexKey = () => `02${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`;

describe('credential repository: publicKeyHeld', () => {
  it('is true while any organization holds the key live, false once every holder deleted it or for a key nobody has', async () => {
    const repo = credentialRepository(db.prisma);
    const a = await organizationWithUser();
    const b = await organizationWithUser();
    const publicKey = hexKey();
    expect(await repo.publicKeyHeld(publicKey)).toBe(false);
    const key = (o: { organizationId: string; userId: string }) => ({ id: newId(), ...o, name: `k-${newId()}`, publicKey, curve: 'API_KEY_CURVE_P256', credentialType: 'CREDENTIAL_TYPE_API_KEY_P256' });
    const inA = await repo.createApiKey(key(a));
    const inB = await repo.createApiKey(key(b));
    expect(await repo.publicKeyHeld(publicKey)).toBe(true);
    expect(await repo.deleteApiKeys(a.organizationId, a.userId, [inA.id], new Date())).toEqual([inA.id]);
    expect(await repo.publicKeyHeld(publicKey)).toBe(true); // organization b still holds it
    await repo.deleteApiKeys(b.organizationId, b.userId, [inB.id], new Date());
    expect(await repo.publicKeyHeld(publicKey)).toBe(false);
    expect(await repo.publicKeyHeld(hexKey())).toBe(false);
  });

  it('is answered from the partial index on public_key, not a scan of api_keys', async () => {
    // One simple-protocol query, so the setting and the plan are on the same connection; with a
    // few rows a scan would be as good, so scans are priced out to see which index serves.
    const results = (await db.sql.query(`BEGIN; SET LOCAL enable_seqscan = off; EXPLAIN SELECT id FROM api_keys WHERE public_key = '${hexKey()}' AND deleted_at IS NULL LIMIT 1; COMMIT`)) as unknown as Array<{ rows: Array<Record<string, string>> }>;
    expect(results[2]!.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('api_keys_live_public_key_idx');
  });
});
