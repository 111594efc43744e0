/**
 * An engine on a fresh, migrated database with a bootstrapped root organization, and helpers
 * that stamp requests the way the Turnkey client does (P-256 X-Stamp over the exact body).
 */
import { createKeyVault, generateMasterKey, generateP256KeyPair, signP256, type TKeyVault } from '@latchkey/crypto';
import { createStore, openDatabase, runMigrations, type TDatabase, type TStore } from '@latchkey/persistence';
import { createTestDatabase, type TTestDatabase } from '@latchkey/persistence/testing';
import type { TActivity } from '@latchkey/domain';
import { createEngine, createRootOrganization, ensureServerKeys, unconfiguredServices, type TEngine, type TEngineServices } from '../index.js';

export interface TKeyPair {
  publicKey: string;
  privateKey: string;
}

export interface TFixture {
  store: TStore;
  vault: TKeyVault;
  engine: TEngine;
  root: { organizationId: string; userId: string } & TKeyPair;
  stamp(body: string, kp?: TKeyPair): Record<string, string>;
  /** Submits `{type, timestampMs: now, organizationId: root's, parameters}` to `path`. */
  submit(path: string, type: string, parameters: object, kp?: TKeyPair): Promise<TActivity>;
  query<T>(path: string, body: object, kp?: TKeyPair): Promise<T>;
  close(): Promise<void>;
}

export async function createFixture(opts: { services?: Partial<TEngineServices> } = {}): Promise<TFixture> {
  const testDb: TTestDatabase = await createTestDatabase();
  await runMigrations(testDb.url);
  const db: TDatabase = openDatabase(testDb.url);
  const store = createStore(db.prisma, db.sql);
  const vault = createKeyVault(generateMasterKey());
  await ensureServerKeys(store, vault);
  const kp = generateP256KeyPair();
  const boot = await store.transaction((tx) => createRootOrganization(tx, { organizationName: 'Root organization', userName: 'root', apiPublicKey: kp.publicKey, apiKeyName: 'bootstrap' }));
  const root = { organizationId: boot.organizationId, userId: boot.userId, publicKey: kp.publicKey, privateKey: kp.privateKey };
  const engine = createEngine({ store, vault, timestampWindowMs: 300_000, ...(opts.services ? { services: { ...unconfiguredServices(), ...opts.services } } : {}) });
  const stamp = (body: string, key: TKeyPair = root) => {
    const json = JSON.stringify({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(key.privateKey, Buffer.from(body)) });
    return { 'x-stamp': Buffer.from(json).toString('base64url') };
  };
  return {
    store,
    vault,
    engine,
    root,
    stamp,
    async submit(path, type, parameters, key = root) {
      const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: root.organizationId, parameters });
      return (await engine.submit(path, stamp(body, key), Buffer.from(body))).activity;
    },
    async query<T>(path: string, body: object, key: TKeyPair = root) {
      const text = JSON.stringify({ organizationId: root.organizationId, ...body });
      return (await engine.query(path, stamp(text, key), Buffer.from(text))) as T;
    },
    async close() {
      await db.close();
      await testDb.drop();
    },
  };
}
