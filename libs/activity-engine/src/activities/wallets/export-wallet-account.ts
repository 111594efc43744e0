/**
 * export_wallet, export_wallet_account and export_private_key: the secret leaves the vault only as
 * an HPKE bundle encrypted to the caller's `targetPublicKey`, inside an envelope signed by the
 * server's signer key; the wallet, account or key is then marked exported.
 */
import { AppError, ZExportWalletAccountIntentSchema, type TExportWalletAccountIntent, type TExportWalletAccountResult, EXPORT_WALLET_ACCOUNT_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { openAccountKey } from '../../keys/wallet-accounts.js';
import { bundle } from '../../keys/export-bundles.js';
import { exposeParams } from '@latchkey/policy';
import { signerFacts } from '../../engine/policy-context.js';

export const exportWalletAccount: TActivityDefinition<TExportWalletAccountIntent, TExportWalletAccountResult> = {
  ...EXPORT_WALLET_ACCOUNT_ACTIVITY,
  params: ZExportWalletAccountIntentSchema,
  policyParams: exposeParams({ targetPublicKey: 'target_public_key' }),
  policyFacts: (db, org, p) => signerFacts(db, org, p.address),
  async handle(ctx, p) {
    // The account's sealed key, or (accounts derived before migration 0009) its wallet's seed.
    const account = await ctx.tx.wallets.findAccountKeySource(ctx.organizationId, p.address);
    if (!account) throw new AppError('NOT_FOUND', `wallet account not found: ${p.address}`, { address: p.address });
    const exportBundle = await bundle(ctx, openAccountKey(ctx.vault, account), p.targetPublicKey);
    await ctx.tx.wallets.markAccountExported(ctx.organizationId, account.id);
    return { address: account.address, exportBundle };
  },
};
