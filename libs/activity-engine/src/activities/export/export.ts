/**
 * export_wallet, export_wallet_account and export_private_key: the secret leaves the vault only as
 * an HPKE bundle encrypted to the caller's `targetPublicKey`, inside an envelope signed by the
 * server's signer key; the wallet, account or key is then marked exported. Policy: WALLET or
 * PRIVATE_KEY / EXPORT.
 */
import { BundleError, createExportBundle } from '@latchkey/crypto';
import {
  AppError,
  ZExportPrivateKeyIntentSchema,
  ZExportWalletAccountIntentSchema,
  ZExportWalletIntentSchema,
  type TExportPrivateKeyIntent,
  type TExportPrivateKeyResult,
  type TExportWalletAccountIntent,
  type TExportWalletAccountResult,
  type TExportWalletIntent,
  type TExportWalletResult,
} from '@latchkey/domain';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';
import { privateKeyAad } from '../create-private-keys/create-private-keys.js';
import { openAccountKey, openWalletSeed } from '../wallet-accounts.js';
import { withBundleSigner } from './bundle-signer.js';

/** Seals `plaintext` to the target, wiping it afterwards. */
async function bundle(ctx: TActivityContext, plaintext: Uint8Array, targetPublicKey: string): Promise<string> {
  try {
    return await withBundleSigner(ctx, (signer) => createExportBundle({ plaintext, targetPublicKey, organizationId: ctx.organizationId, signer }));
  } catch (e) {
    if (e instanceof BundleError) throw new AppError('BAD_REQUEST', e.message, { field: 'targetPublicKey' });
    throw e;
  } finally {
    plaintext.fill(0);
  }
}

export const exportWallet: TActivityDefinition<TExportWalletIntent, TExportWalletResult> = {
  path: 'export_wallet',
  versions: [{ type: 'ACTIVITY_TYPE_EXPORT_WALLET', intentKey: 'exportWalletIntent', resultKey: 'exportWalletResult' }],
  resource: 'WALLET',
  action: 'EXPORT',
  params: ZExportWalletIntentSchema,
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

export const exportWalletAccount: TActivityDefinition<TExportWalletAccountIntent, TExportWalletAccountResult> = {
  path: 'export_wallet_account',
  versions: [{ type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', intentKey: 'exportWalletAccountIntent', resultKey: 'exportWalletAccountResult' }],
  resource: 'WALLET',
  action: 'EXPORT',
  params: ZExportWalletAccountIntentSchema,
  async handle(ctx, p) {
    // The account's sealed key, or (accounts derived before migration 0009) its wallet's seed.
    const account = await ctx.tx.wallets.findAccountKeySource(ctx.organizationId, p.address);
    if (!account) throw new AppError('NOT_FOUND', `wallet account not found: ${p.address}`, { address: p.address });
    const exportBundle = await bundle(ctx, openAccountKey(ctx.vault, account), p.targetPublicKey);
    await ctx.tx.wallets.markAccountExported(ctx.organizationId, account.id);
    return { address: account.address, exportBundle };
  },
};

export const exportPrivateKey: TActivityDefinition<TExportPrivateKeyIntent, TExportPrivateKeyResult> = {
  path: 'export_private_key',
  versions: [{ type: 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', intentKey: 'exportPrivateKeyIntent', resultKey: 'exportPrivateKeyResult' }],
  resource: 'PRIVATE_KEY',
  action: 'EXPORT',
  params: ZExportPrivateKeyIntentSchema,
  async handle(ctx, p) {
    const key = await ctx.tx.privateKeys.findById(ctx.organizationId, p.privateKeyId);
    if (!key) throw new AppError('NOT_FOUND', `private key not found: ${p.privateKeyId}`, { privateKeyId: p.privateKeyId });
    const exportBundle = await bundle(ctx, ctx.vault.open(key.sealedPrivateKey, privateKeyAad(key.id)), p.targetPublicKey);
    await ctx.tx.privateKeys.markExported(ctx.organizationId, key.id);
    return { privateKeyId: key.id, exportBundle };
  },
};
