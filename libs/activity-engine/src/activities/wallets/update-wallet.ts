/** update_wallet — renames a wallet (names stay unique among live wallets). */
import { AppError, ZUpdateWalletIntentSchema, type TUpdateWalletIntent, type TUpdateWalletResult, UPDATE_WALLET_ACTIVITY } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { walletNameTaken } from '../../keys/wallet-accounts.js';
import { exposeParams } from '@latchkey/policy';
import { walletFacts } from '../../engine/policy-context.js';

export const updateWallet: TActivityDefinition<TUpdateWalletIntent, TUpdateWalletResult> = {
  ...UPDATE_WALLET_ACTIVITY,
  params: ZUpdateWalletIntentSchema,
  policyParams: exposeParams({ walletId: 'wallet_id' }),
  policyFacts: (db, org, p) => walletFacts(db, org, p.walletId),
  async handle(ctx, p) {
    const wallet = await ctx.tx.wallets.findById(ctx.organizationId, p.walletId);
    if (!wallet) throw new AppError('NOT_FOUND', `wallet not found: ${p.walletId}`, { walletId: p.walletId });
    if (p.walletName !== undefined && p.walletName !== wallet.name) {
      try {
        await ctx.tx.wallets.rename(ctx.organizationId, wallet.id, p.walletName);
      } catch (e) {
        if (isUniqueViolation(e)) throw walletNameTaken(p.walletName);
        throw e;
      }
    }
    return { walletId: wallet.id };
  },
};
