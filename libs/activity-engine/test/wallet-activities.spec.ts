/** Wallet activities beyond create_wallet, against a real database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { createFixture, type TFixture } from '../src/testing/fixture.js';

let f: TFixture;
beforeAll(async () => {
  f = await createFixture();
});
afterAll(async () => {
  await f?.close();
  await stopTestPostgres();
});

const eth = (i: number) => ({ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${i}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
type TAccount = { walletAccountId: string; address: string; path: string; walletId: string };

async function newWallet(name: string, accounts = [eth(0)]) {
  const a = await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: name, accounts });
  return a.result['createWalletResult'] as { walletId: string; addresses: string[] };
}
const accountsOf = async (walletId: string) => (await f.query<{ accounts: TAccount[] }>('list_wallet_accounts', { walletId, paginationOptions: { limit: '100' } })).accounts;

describe('wallet activities', () => {
  it('create_wallet_accounts derives from the same seed; persist=false stores nothing', async () => {
    const w = await newWallet('more', [eth(0)]);
    const preview = await f.submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId: w.walletId, accounts: [eth(1), eth(2)], persist: false });
    expect(preview.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(await accountsOf(w.walletId)).toHaveLength(1);
    const made = await f.submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId: w.walletId, accounts: [eth(1), eth(2)] });
    const addresses = (made.result['createWalletAccountsResult'] as { addresses: string[] }).addresses;
    expect(addresses).toEqual((preview.result['createWalletAccountsResult'] as { addresses: string[] }).addresses);
    expect((await accountsOf(w.walletId)).map((a) => a.address)).toEqual([w.addresses[0], ...addresses]);
    // The same account twice fails the activity and adds nothing.
    const dup = await f.submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId: w.walletId, accounts: [eth(1)] });
    expect(dup.status).toBe('ACTIVITY_STATUS_FAILED');
    expect(await accountsOf(w.walletId)).toHaveLength(3);
  });

  it('create_wallet_accounts on an unknown wallet is a FAILED activity', async () => {
    const a = await f.submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId: 'nope', accounts: [eth(0)] });
    expect(a.status).toBe('ACTIVITY_STATUS_FAILED');
    expect(a.failure?.message).toMatch(/wallet not found/);
  });

  it('get_wallet_account finds an account by address or by path', async () => {
    const w = await newWallet('lookup', [eth(0), eth(5)]);
    const byAddress = await f.query<{ account: TAccount }>('get_wallet_account', { walletId: w.walletId, address: w.addresses[1] });
    expect(byAddress.account.path).toBe("m/44'/60'/0'/0/5");
    const byPath = await f.query<{ account: TAccount }>('get_wallet_account', { walletId: w.walletId, path: "m/44'/60'/0'/0/0" });
    expect(byPath.account.address).toBe(w.addresses[0]);
    await expect(f.query('get_wallet_account', { walletId: w.walletId, path: "m/44'/60'/0'/0/9" })).rejects.toMatchObject({ httpStatus: 404 });
    await expect(f.query('get_wallet_account', { walletId: w.walletId })).rejects.toMatchObject({ httpStatus: 400 });
  });

  it('update_wallet renames, keeping names unique', async () => {
    const a = await newWallet('before');
    await newWallet('taken');
    const ok = await f.submit('update_wallet', 'ACTIVITY_TYPE_UPDATE_WALLET', { walletId: a.walletId, walletName: 'after' });
    expect(ok.result['updateWalletResult']).toEqual({ walletId: a.walletId });
    expect((await f.query<{ wallet: { walletName: string } }>('get_wallet', { walletId: a.walletId })).wallet.walletName).toBe('after');
    const clash = await f.submit('update_wallet', 'ACTIVITY_TYPE_UPDATE_WALLET', { walletId: a.walletId, walletName: 'taken' });
    expect(clash.status).toBe('ACTIVITY_STATUS_FAILED');
  });

  it('delete_wallets refuses never-exported wallets unless deleteWithoutExport, all or nothing', async () => {
    const a = await newWallet('del-a');
    const b = await newWallet('del-b');
    const refused = await f.submit('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', { walletIds: [a.walletId, b.walletId] });
    expect(refused.status).toBe('ACTIVITY_STATUS_FAILED');
    expect(refused.failure?.message).toMatch(/never exported/);
    expect((await f.query<{ wallets: { walletId: string }[] }>('list_wallets', {})).wallets.map((w) => w.walletId)).toEqual(expect.arrayContaining([a.walletId, b.walletId]));
    const done = await f.submit('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', { walletIds: [a.walletId, b.walletId], deleteWithoutExport: true });
    expect(done.result['deleteWalletsResult']).toEqual({ walletIds: [a.walletId, b.walletId] });
    const left = (await f.query<{ wallets: { walletId: string }[] }>('list_wallets', {})).wallets.map((w) => w.walletId);
    expect(left).not.toContain(a.walletId);
    expect(await accountsOf(b.walletId).catch((e: { httpStatus: number }) => e.httpStatus)).toBe(404);
    // Its name is free again.
    expect((await newWallet('del-a')).walletId).not.toBe(a.walletId);
  });

  it('deletes an exported wallet without the flag', async () => {
    const c = await newWallet('del-exported');
    await f.store.wallets.markExported(f.root.organizationId, c.walletId);
    const done = await f.submit('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', { walletIds: [c.walletId] });
    expect(done.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });

  it('delete_wallet_accounts follows the same export rule', async () => {
    const w = await newWallet('acc-del', [eth(0), eth(1)]);
    const [first] = await accountsOf(w.walletId);
    const refused = await f.submit('delete_wallet_accounts', 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', { walletAccountIds: [first!.walletAccountId] });
    expect(refused.status).toBe('ACTIVITY_STATUS_FAILED');
    const done = await f.submit('delete_wallet_accounts', 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', { walletAccountIds: [first!.walletAccountId], deleteWithoutExport: true });
    expect(done.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await accountsOf(w.walletId)).map((a) => a.walletAccountId)).not.toContain(first!.walletAccountId);
  });
});
