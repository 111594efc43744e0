/**
 * create_wallet_accounts — derives more accounts from an existing wallet's seed (opened from the
 * key vault for this operation only) and stores them, each private key sealed by the vault. With
 * `persist: false` the addresses are returned and nothing is stored (or sealed). Policy: WALLET /
 * CREATE.
 */
import {
  AppError,
  ZCreateWalletAccountsIntentSchema,
  type TCreateWalletAccountsIntent,
  type TCreateWalletAccountsResult,
} from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deriveAccounts, openWalletSeed, validateAccountParams } from '../../keys/wallet-accounts.js';

export const createWalletAccounts: TActivityDefinition<TCreateWalletAccountsIntent, TCreateWalletAccountsResult> = {
  path: 'create_wallet_accounts',
  versions: [{ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', intentKey: 'createWalletAccountsIntent', resultKey: 'createWalletAccountsResult' }],
  resource: 'WALLET',
  action: 'CREATE',
  params: ZCreateWalletAccountsIntentSchema,
  validate: (p) => validateAccountParams(p.accounts),
  async handle(ctx, p) {
    const wallet = await ctx.tx.wallets.findById(ctx.organizationId, p.walletId);
    if (!wallet) throw new AppError('NOT_FOUND', `wallet not found: ${p.walletId}`, { walletId: p.walletId });
    const accounts = await deriveAccounts(ctx.services.derivation, openWalletSeed(ctx.vault, wallet), ctx.organizationId, wallet.id, p.accounts, p.persist ? ctx.vault : undefined);
    if (p.persist) {
      try {
        await ctx.tx.wallets.addAccounts(accounts);
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('BAD_REQUEST', 'the wallet already has an account with this curve, path and address format');
        throw e;
      }
    }
    return { addresses: accounts.map((a) => a.address) };
  },
};
