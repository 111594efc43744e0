/**
 * delete_wallet_accounts — removes accounts from their wallets, clearing their sealed private keys
 * (the wallet's seed remains). Same rule as delete_wallets: an account neither exported itself nor
 * in an exported wallet needs `deleteWithoutExport`. All or nothing.
 */
import { AppError, ZDeleteWalletAccountsIntentSchema, type TDeleteWalletAccountsIntent, type TDeleteWalletAccountsResult, DELETE_WALLET_ACCOUNTS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const deleteWalletAccounts: TActivityDefinition<TDeleteWalletAccountsIntent, TDeleteWalletAccountsResult> = {
  ...DELETE_WALLET_ACCOUNTS_ACTIVITY,
  params: ZDeleteWalletAccountsIntentSchema,
  async handle(ctx, p) {
    const ids = [...new Set(p.walletAccountIds)];
    const accounts = await ctx.tx.wallets.findAccountsByIds(ctx.organizationId, ids);
    const missing = ids.filter((id) => !accounts.some((a) => a.id === id));
    if (missing.length > 0) throw new AppError('NOT_FOUND', `wallet accounts not found: ${missing.join(', ')}`, { walletAccountIds: missing });
    const exportedWallets = new Set((await ctx.tx.wallets.findByIds(ctx.organizationId, [...new Set(accounts.map((a) => a.walletId))])).filter((w) => w.exported).map((w) => w.id));
    const unexported = accounts.filter((a) => !a.exported && !exportedWallets.has(a.walletId)).map((a) => a.id);
    if (unexported.length > 0 && !p.deleteWithoutExport) {
      throw new AppError('BAD_REQUEST', `wallet accounts were never exported, so deleting them would lose their keys: ${unexported.join(', ')}; export them first or set deleteWithoutExport`, {
        walletAccountIds: unexported,
      });
    }
    await ctx.tx.wallets.softDeleteAccounts(ctx.organizationId, ids, ctx.now);
    // Signing caches its key lookups: they must forget these keys.
    await ctx.tx.notifyChange('signer', ctx.organizationId);
    return { walletAccountIds: ids };
  },
};
