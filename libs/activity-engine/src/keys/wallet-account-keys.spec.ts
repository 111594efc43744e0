/**
 * Wallet-account keys sealed at rest (migration 0009): every stored account carries its private key
 * sealed to its own id, signing and export open that key instead of re-deriving it, accounts
 * derived before 0009 (no sealed key) still sign and export from the wallet's seed, and deleting an
 * account or its wallet clears the sealed key. Checked against a real database, with the raw rows
 * read over SQL (deleted rows included), and every signature checked with ethers.
 */
import { SeedDeriver, createKeyVault, generateMasterKey, generateP256KeyPair as generateApiKey, publicKeyForCurve, signP256, type TKeyVault } from '@latchkey/crypto';
import type { TActivity, TWalletAccountParams } from '@latchkey/domain';
import { createStore, openDatabase, runMigrations, type TDatabase, type TStore } from '@latchkey/persistence';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '@latchkey/persistence/testing';
import { decryptExportBundle, generateP256KeyPair } from '@turnkey/crypto';
import { Signature, computeAddress, hashMessage, recoverAddress } from 'ethers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRootOrganization, ensureServerKeys } from '../index.js';
import { createEngine } from '../engine/engine.js';
import { loadServerPublicKeys } from './server-keys.js';
import { deriveAccounts, openWalletSeed } from './wallet-accounts.js';
import { walletAccountKeyAad } from './vault-aad.js';

interface TRawAccount {
  id: string;
  address: string;
  public_key: string;
  sealed_private_key: string | null;
  deleted_at: Date | null;
}

let testDb: TTestDatabase;
let db: TDatabase;
let sql: pg.Client;
let vault: TKeyVault;
let organizationId: string;
let signerPublicKey: string;
let submit: (path: string, type: string, parameters: object) => Promise<TActivity>;
let store: TStore;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await runMigrations(testDb.url);
  db = openDatabase(testDb.url);
  store = createStore(db.prisma);
  vault = createKeyVault(generateMasterKey());
  await ensureServerKeys(store, vault);
  signerPublicKey = (await loadServerPublicKeys(store)).signerPublicKey;
  const apiKey = generateApiKey();
  organizationId = (await store.transaction((tx) => createRootOrganization(tx, { organizationName: 'Root organization', userName: 'root', apiPublicKey: apiKey.publicKey, apiKeyName: 'bootstrap' }))).organizationId;
  const engine = createEngine({ store, vault, timestampWindowMs: 300_000 });
  submit = async (path, type, parameters) => {
    const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId, parameters });
    const stamp = JSON.stringify({ publicKey: apiKey.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(apiKey.privateKey, Buffer.from(body)) });
    return (await engine.submit(path, { 'x-stamp': Buffer.from(stamp).toString('base64url') }, Buffer.from(body))).activity;
  };
  sql = new pg.Client({ connectionString: testDb.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await db?.close();
  await testDb?.drop();
  await stopTestPostgres();
});

const eth = (i: number): TWalletAccountParams => ({ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${i}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
const sol = (i: number): TWalletAccountParams => ({ curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/501'/${i}'/0'`, addressFormat: 'ADDRESS_FORMAT_SOLANA' });
const result = <T>(a: TActivity, key: string) => {
  expect(a.status, JSON.stringify(a.failure)).toBe('ACTIVITY_STATUS_COMPLETED');
  return a.result[key as keyof typeof a.result] as T;
};
const rows = async (where: string, value: string | string[]) =>
  (await sql.query<TRawAccount>(`SELECT id, address, public_key, sealed_private_key, deleted_at FROM wallet_accounts WHERE ${where} ORDER BY id`, [value])).rows;

async function newWallet(name: string, accounts: object[]): Promise<{ walletId: string; addresses: string[] }> {
  return result(await submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: name, accounts }), 'createWalletResult');
}

/** Signs a digest with `address` through the engine and returns the address ethers recovers. */
async function signAndRecover(address: string): Promise<string> {
  const digest = hashMessage(`sealed keys ${address}`);
  const sig = result<{ r: string; s: string; v: string }>(
    await submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { signWith: address, payload: digest.slice(2), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' }),
    'signRawPayloadResult',
  );
  return recoverAddress(digest, Signature.from({ r: `0x${sig.r}`, s: `0x${sig.s}`, v: parseInt(sig.v, 16) + 27 }));
}

/** Exports an account's key through the engine and decrypts it as the Turnkey client does. */
async function exportAccountKey(address: string): Promise<string> {
  const target = generateP256KeyPair();
  const { exportBundle } = result<{ exportBundle: string }>(
    await submit('export_wallet_account', 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', { address, targetPublicKey: target.publicKeyUncompressed }),
    'exportWalletAccountResult',
  );
  const hex = await decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId, dangerouslyOverrideSignerPublicKey: signerPublicKey, returnMnemonic: false });
  return hex.replace(/^0x/, '');
}

describe('wallet-account keys sealed at rest', () => {
  it('seals each stored account key to its own id, on every curve, and nothing for persist: false', async () => {
    const w = await newWallet('sealed', [eth(0), sol(0)]);
    const more = result<{ addresses: string[] }>(
      await submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId: w.walletId, accounts: [eth(1), eth(2)] }),
      'createWalletAccountsResult',
    );
    const preview = result<{ addresses: string[] }>(
      await submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId: w.walletId, accounts: [eth(3)], persist: false }),
      'createWalletAccountsResult',
    );
    const stored = await rows('wallet_id = $1', w.walletId);
    expect(stored.map((r) => r.address)).toEqual([...w.addresses, ...more.addresses]);
    expect(stored.map((r) => r.address)).not.toContain(preview.addresses[0]);
    const curves = ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_SECP256K1', 'CURVE_SECP256K1'] as const;
    for (const [i, row] of stored.entries()) {
      expect(row.sealed_private_key).toMatch(/^v1\./);
      const key = vault.open(row.sealed_private_key!, walletAccountKeyAad(row.id));
      // The sealed key is the account's: it gives the stored public key.
      expect(Buffer.from(publicKeyForCurve(curves[i]!, key)).toString('hex')).toBe(row.public_key);
      // Bound to its own row: it does not open as another account's.
      expect(() => vault.open(row.sealed_private_key!, walletAccountKeyAad(stored[(i + 1) % stored.length]!.id))).toThrow(/failed authentication/);
    }
  });

  it('signs and exports with the sealed key, which is the key the mnemonic derives', async () => {
    const w = await newWallet('sealed-sign', [eth(0)]);
    const address = w.addresses[0]!;
    expect(await signAndRecover(address)).toBe(address);
    const exported = await exportAccountKey(address);
    expect(computeAddress(`0x${exported}`)).toBe(address);
    const wallet = (await store.wallets.findById(organizationId, w.walletId))!;
    const derived = SeedDeriver.fromMnemonic(openWalletSeed(vault, wallet)).derive('CURVE_SECP256K1', eth(0).path).privateKey;
    expect(exported).toBe(Buffer.from(derived).toString('hex'));
  });

  it('opens only the sealed key once there is one: a sealed key bound to another row fails the signature', async () => {
    const w = await newWallet('sealed-bound', [eth(0), eth(1)]);
    const [a, b] = await rows('wallet_id = $1', w.walletId);
    // Swap in b's sealed key: if signing re-derived or ignored the binding, it would still sign.
    await sql.query('UPDATE wallet_accounts SET sealed_private_key = $1 WHERE id = $2', [b!.sealed_private_key, a!.id]);
    const failed = await submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
      signWith: a!.address, payload: '00'.repeat(32), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP',
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(String(failed)).toMatch(/failed authentication/);
  });

  it('still signs and exports accounts derived before migration 0009, from the wallet seed', async () => {
    const w = await newWallet('legacy', [eth(0)]);
    const wallet = (await store.wallets.findById(organizationId, w.walletId))!;
    // A row as 0009 found it: derived and stored without a sealed key.
    const [legacy] = await deriveAccounts(undefined, openWalletSeed(vault, wallet), organizationId, w.walletId, [eth(7)]);
    expect(legacy!.sealedPrivateKey).toBeNull();
    await store.wallets.addAccounts([legacy!]);
    expect((await rows('id = $1', legacy!.id))[0]!.sealed_private_key).toBeNull();
    expect(await signAndRecover(legacy!.address)).toBe(legacy!.address);
    expect(computeAddress(`0x${await exportAccountKey(legacy!.address)}`)).toBe(legacy!.address);
  });

  it('clears the sealed key of a deleted account, and of every account of a deleted wallet', async () => {
    const w = await newWallet('delete-keys', [eth(0), eth(1)]);
    const [first, second] = await rows('wallet_id = $1', w.walletId);
    const one = await submit('delete_wallet_accounts', 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', { walletAccountIds: [first!.id], deleteWithoutExport: true });
    expect(one.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const [deleted, kept] = await rows('wallet_id = $1', w.walletId);
    expect(deleted).toMatchObject({ id: first!.id, sealed_private_key: null });
    expect(deleted!.deleted_at).not.toBeNull();
    expect(kept).toMatchObject({ id: second!.id, deleted_at: null, sealed_private_key: second!.sealed_private_key });
    // A deleted account no longer signs.
    const refused = await submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
      signWith: first!.address, payload: '00'.repeat(32), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    expect(refused.failure?.message).toMatch(/nothing to sign with/);

    const all = await submit('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', { walletIds: [w.walletId], deleteWithoutExport: true });
    expect(all.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await rows('wallet_id = $1', w.walletId)).map((r) => r.sealed_private_key)).toEqual([null, null]);
  });
});
