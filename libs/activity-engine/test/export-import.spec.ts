/**
 * Export and import through the real client's crypto (`@turnkey/crypto`): what Latchkey exports
 * decrypts with the client's decryptExportBundle, and what the client encrypts to Latchkey's import
 * bundle imports — both with the server's signer key as `dangerouslyOverrideSignerPublicKey`.
 */
import { decryptExportBundle, encryptPrivateKeyToBundle, encryptWalletToBundle, generateP256KeyPair } from '@turnkey/crypto';
import { publicKeyForCurve } from '@latchkey/crypto';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerPublicKeys } from '../src/index.js';
import { createFixture, type TFixture } from '../src/testing/fixture.js';

let f: TFixture;
let signerPublicKey: string;
beforeAll(async () => {
  f = await createFixture();
  signerPublicKey = (await loadServerPublicKeys(f.store)).signerPublicKey;
});
afterAll(async () => {
  await f?.close();
  await stopTestPostgres();
});

const eth = (i: number) => ({ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${i}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
const result = <T>(a: { result: Record<string, unknown> }, key: string) => a.result[key] as T;

describe('export and import with the real client', () => {
  it('exports a wallet mnemonic the client decrypts, and marks the wallet exported', async () => {
    const created = result<{ walletId: string }>(await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'exp', accounts: [eth(0)] }), 'createWalletResult');
    const target = generateP256KeyPair();
    const a = await f.submit('export_wallet', 'ACTIVITY_TYPE_EXPORT_WALLET', { walletId: created.walletId, targetPublicKey: target.publicKeyUncompressed });
    expect(a.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const { exportBundle } = result<{ exportBundle: string }>(a, 'exportWalletResult');
    const mnemonic = await decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId: f.root.organizationId, dangerouslyOverrideSignerPublicKey: signerPublicKey, returnMnemonic: true });
    expect(mnemonic.split(' ')).toHaveLength(12);
    expect((await f.query<{ wallet: { exported: boolean } }>('get_wallet', { walletId: created.walletId })).wallet.exported).toBe(true);
    // The client refuses it when it pins another signer key.
    await expect(decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId: f.root.organizationId, returnMnemonic: true })).rejects.toThrow();
  });

  it('imports a wallet the client encrypted and derives the same accounts', async () => {
    const init = await f.submit('init_import_wallet', 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', { userId: f.root.userId });
    const { importBundle } = result<{ importBundle: string }>(init, 'initImportWalletResult');
    const mnemonic = generateMnemonic(wordlist, 128);
    const encryptedBundle = await encryptWalletToBundle({ mnemonic, importBundle, userId: f.root.userId, organizationId: f.root.organizationId, dangerouslyOverrideSignerPublicKey: signerPublicKey });
    const imported = await f.submit('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', { userId: f.root.userId, walletName: 'imp', encryptedBundle, accounts: [eth(0)] });
    expect(imported.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const { walletId, addresses } = result<{ walletId: string; addresses: string[] }>(imported, 'importWalletResult');
    expect((await f.query<{ wallet: { imported: boolean } }>('get_wallet', { walletId })).wallet.imported).toBe(true);
    // Export it back: the same mnemonic comes out.
    const target = generateP256KeyPair();
    const exp = await f.submit('export_wallet', 'ACTIVITY_TYPE_EXPORT_WALLET', { walletId, targetPublicKey: target.publicKey });
    const out = await decryptExportBundle({
      exportBundle: result<{ exportBundle: string }>(exp, 'exportWalletResult').exportBundle,
      embeddedKey: target.privateKey,
      organizationId: f.root.organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: true,
    });
    expect(out).toBe(mnemonic);
    expect(addresses[0]).toMatch(/^0x/);
    // The target was one-time: the same bundle cannot be imported twice.
    const again = await f.submit('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', { userId: f.root.userId, walletName: 'imp2', encryptedBundle, accounts: [] });
    expect(again.status).toBe('ACTIVITY_STATUS_FAILED');
  });

  it('imports and exports a private key', async () => {
    const init = await f.submit('init_import_private_key', 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY', { userId: f.root.userId });
    const { importBundle } = result<{ importBundle: string }>(init, 'initImportPrivateKeyResult');
    const secret = 'ab'.repeat(32);
    const encryptedBundle = await encryptPrivateKeyToBundle({
      privateKey: secret,
      keyFormat: 'HEXADECIMAL',
      importBundle,
      userId: f.root.userId,
      organizationId: f.root.organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
    });
    const imported = await f.submit('import_private_key', 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', {
      userId: f.root.userId, privateKeyName: 'imported-key', encryptedBundle, curve: 'CURVE_SECP256K1', addressFormats: ['ADDRESS_FORMAT_ETHEREUM'],
    });
    expect(imported.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const { privateKeyId } = result<{ privateKeyId: string }>(imported, 'importPrivateKeyResult');
    const key = (await f.query<{ privateKey: { publicKey: string; imported: boolean } }>('get_private_key', { privateKeyId })).privateKey;
    expect(key.imported).toBe(true);
    expect(key.publicKey).toBe(Buffer.from(publicKeyForCurve('CURVE_SECP256K1', Buffer.from(secret, 'hex'))).toString('hex'));
    const target = generateP256KeyPair();
    const exp = await f.submit('export_private_key', 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', { privateKeyId, targetPublicKey: target.publicKeyUncompressed });
    const hex = await decryptExportBundle({
      exportBundle: result<{ exportBundle: string }>(exp, 'exportPrivateKeyResult').exportBundle,
      embeddedKey: target.privateKey,
      organizationId: f.root.organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: false,
    });
    expect(hex.replace(/^0x/, '')).toBe(secret);
  });

  it('refuses an import for another user and a bundle that opens with no target of this user', async () => {
    const other = await f.submit('init_import_wallet', 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', { userId: 'someone-else' });
    expect(other.status).toBe('ACTIVITY_STATUS_FAILED');
    const bogus = JSON.stringify({ encappedPublic: '04' + 'ab'.repeat(64), ciphertext: 'cd'.repeat(40) });
    const refused = await f.submit('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', { userId: f.root.userId, walletName: 'nope', encryptedBundle: bogus, accounts: [] });
    expect(refused.status).toBe('ACTIVITY_STATUS_FAILED');
  });

  it('exports a wallet account key the client decrypts', async () => {
    const created = result<{ addresses: string[] }>(await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'acct-exp', accounts: [eth(3)] }), 'createWalletResult');
    const target = generateP256KeyPair();
    const exp = await f.submit('export_wallet_account', 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', { address: created.addresses[0], targetPublicKey: target.publicKeyUncompressed });
    expect(exp.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const hex = await decryptExportBundle({
      exportBundle: result<{ exportBundle: string }>(exp, 'exportWalletAccountResult').exportBundle,
      embeddedKey: target.privateKey,
      organizationId: f.root.organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: false,
    });
    const { computeAddress } = await import('ethers');
    expect(computeAddress('0x' + hex.replace(/^0x/, ''))).toBe(created.addresses[0]);
  });
});
