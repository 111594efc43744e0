/**
 * delete_wallets — removes wallets and their accounts. The seed rule: a wallet that was never
 * exported is refused unless `deleteWithoutExport` is true (its keys would be lost for good); for
 * exported wallets the flag is ignored. All or nothing.
 */
import { AppError, ZDeleteWalletsIntentSchema, type TDeleteWalletsIntent, type TDeleteWalletsResult, DELETE_WALLETS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { walletsFacts } from '../../engine/policy-context.js';

export const deleteWallets: TActivityDefinition<TDeleteWalletsIntent, TDeleteWalletsResult> = {
  ...DELETE_WALLETS_ACTIVITY,
  params: ZDeleteWalletsIntentSchema,
  policyFacts: (db, org, p) => walletsFacts(db, org, p.walletIds),
  async handle(ctx, p) {
    const ids = [...new Set(p.walletIds)];
    const wallets = await ctx.tx.wallets.findByIds(ctx.organizationId, ids);
    const missing = ids.filter((id) => !wallets.some((w) => w.id === id));
    if (missing.length > 0) throw new AppError('NOT_FOUND', `wallets not found: ${missing.join(', ')}`, { walletIds: missing });
    const unexported = wallets.filter((w) => !w.exported).map((w) => w.id);
    if (unexported.length > 0 && !p.deleteWithoutExport) {
      throw new AppError('BAD_REQUEST', `wallets were never exported, so deleting them would lose their keys: ${unexported.join(', ')}; export them first or set deleteWithoutExport`, {
        walletIds: unexported,
      });
    }
    await ctx.tx.wallets.softDelete(ctx.organizationId, ids, ctx.now);
    // Signing caches its key lookups: they must forget these keys.
    await ctx.tx.notifyChange('signer', ctx.organizationId);
    return { walletIds: ids };
  },
};
