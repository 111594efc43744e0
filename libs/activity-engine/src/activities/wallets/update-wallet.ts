/** update_wallet — renames a wallet (names stay unique among live wallets). Policy: WALLET / UPDATE. */
import { AppError, ZUpdateWalletIntentSchema, type TUpdateWalletIntent, type TUpdateWalletResult } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { walletNameTaken } from '../../keys/wallet-accounts.js';

export const updateWallet: TActivityDefinition<TUpdateWalletIntent, TUpdateWalletResult> = {
  path: 'update_wallet',
  versions: [{ type: 'ACTIVITY_TYPE_UPDATE_WALLET', intentKey: 'updateWalletIntent', resultKey: 'updateWalletResult' }],
  resource: 'WALLET',
  action: 'UPDATE',
  params: ZUpdateWalletIntentSchema,
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
