/**
 * create_wallet_accounts — derives more accounts from an existing wallet's seed (opened from the
 * key vault for this operation only) and stores them, each private key sealed by the vault. With
 * `persist: false` the addresses are returned and nothing is stored (or sealed).
 */
import {
  AppError,
  ZCreateWalletAccountsIntentSchema,
  type TCreateWalletAccountsIntent,
  type TCreateWalletAccountsResult, CREATE_WALLET_ACCOUNTS_ACTIVITY } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deriveAccounts, openWalletSeed, validateAccountParams } from '../../keys/wallet-accounts.js';
import { walletFacts } from '../../engine/policy-context.js';

export const createWalletAccounts: TActivityDefinition<TCreateWalletAccountsIntent, TCreateWalletAccountsResult> = {
  ...CREATE_WALLET_ACCOUNTS_ACTIVITY,
  params: ZCreateWalletAccountsIntentSchema,
  policyFacts: (db, org, p) => walletFacts(db, org, p.walletId),
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
