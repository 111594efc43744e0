/**
 * export_wallet, export_wallet_account and export_private_key: the secret leaves the vault only as
 * an HPKE bundle encrypted to the caller's `targetPublicKey`, inside an envelope signed by the
 * server's signer key; the wallet, account or key is then marked exported.
 */
import { AppError, ZExportWalletIntentSchema, type TExportWalletIntent, type TExportWalletResult, EXPORT_WALLET_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { openWalletSeed } from '../../keys/wallet-accounts.js';
import { bundle } from '../../keys/export-bundles.js';
import { exposeParams } from '@latchkey/policy';
import { walletFacts } from '../../engine/policy-context.js';

export const exportWallet: TActivityDefinition<TExportWalletIntent, TExportWalletResult> = {
  ...EXPORT_WALLET_ACTIVITY,
  params: ZExportWalletIntentSchema,
  policyParams: exposeParams({ targetPublicKey: 'target_public_key' }),
  policyFacts: (db, org, p) => walletFacts(db, org, p.walletId),
  validate(p) {
    if (p.language !== 'MNEMONIC_LANGUAGE_ENGLISH') throw new AppError('BAD_REQUEST', `only MNEMONIC_LANGUAGE_ENGLISH mnemonics can be exported (got ${p.language})`, { field: 'language' });
  },
  async handle(ctx, p) {
    const wallet = await ctx.tx.wallets.findById(ctx.organizationId, p.walletId);
    if (!wallet) throw new AppError('NOT_FOUND', `wallet not found: ${p.walletId}`, { walletId: p.walletId });
    const exportBundle = await bundle(ctx, new TextEncoder().encode(openWalletSeed(ctx.vault, wallet)), p.targetPublicKey);
    await ctx.tx.wallets.markExported(ctx.organizationId, wallet.id);
    return { walletId: wallet.id, exportBundle };
  },
};
