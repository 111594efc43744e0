/**
 * export_wallet, export_wallet_account and export_private_key: the secret leaves the vault only as
 * an HPKE bundle encrypted to the caller's `targetPublicKey`, inside an envelope signed by the
 * server's signer key; the wallet, account or key is then marked exported.
 */
import { AppError, ZExportPrivateKeyIntentSchema, type TExportPrivateKeyIntent, type TExportPrivateKeyResult, EXPORT_PRIVATE_KEY_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { privateKeyAad } from '../../keys/vault-aad.js';
import { bundle } from '../../keys/export-bundles.js';
import { exposeParams } from '@latchkey/policy';
import { privateKeyFacts } from '../../engine/policy-context.js';

export const exportPrivateKey: TActivityDefinition<TExportPrivateKeyIntent, TExportPrivateKeyResult> = {
  ...EXPORT_PRIVATE_KEY_ACTIVITY,
  params: ZExportPrivateKeyIntentSchema,
  policyParams: exposeParams({ targetPublicKey: 'target_public_key' }),
  policyFacts: (db, org, p) => privateKeyFacts(db, org, p.privateKeyId),
  async handle(ctx, p) {
    const key = await ctx.tx.privateKeys.findById(ctx.organizationId, p.privateKeyId);
    if (!key) throw new AppError('NOT_FOUND', `private key not found: ${p.privateKeyId}`, { privateKeyId: p.privateKeyId });
    const exportBundle = await bundle(ctx, ctx.vault.open(key.sealedPrivateKey, privateKeyAad(key.id)), p.targetPublicKey);
    await ctx.tx.privateKeys.markExported(ctx.organizationId, key.id);
    return { privateKeyId: key.id, exportBundle };
  },
};
