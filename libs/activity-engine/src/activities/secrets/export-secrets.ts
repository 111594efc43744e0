/**
 * export_secrets — each named secret leaves the vault only as an HPKE bundle encrypted to its
 * param's `targetPublicKey`, inside an envelope signed by the server's signer key (the export
 * bundle of the private keys; `@turnkey/crypto` `decryptSecretBundle` opens it). Every id must be
 * a secret of the organization (404 naming the first missing, nothing exported); the secrets are
 * then marked exported.
 */
import { AppError, EXPORT_SECRETS_ACTIVITY, ZExportSecretsIntentSchema, type TExportSecretsIntent, type TExportSecretsResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { bundle } from '../../keys/export-bundles.js';
import { secretAad } from '../../keys/vault-aad.js';

export const exportSecrets: TActivityDefinition<TExportSecretsIntent, TExportSecretsResult> = {
  ...EXPORT_SECRETS_ACTIVITY,
  onFailure: 'reject',
  params: ZExportSecretsIntentSchema,
  async handle(ctx, p) {
    const ids = [...new Set(p.secrets.map((s) => s.secretId))];
    const found = new Map((await ctx.tx.secrets.findMany(ctx.organizationId, ids)).map((s) => [s.id, s]));
    const missing = p.secrets.findIndex((s) => !found.has(s.secretId));
    if (missing >= 0) {
      const secretId = p.secrets[missing]!.secretId;
      throw new AppError('NOT_FOUND', `secrets.${missing}.secretId: secret not found: ${secretId}`, { field: `secrets.${missing}.secretId`, secretId });
    }
    const secretPayloads: string[] = [];
    for (const [i, s] of p.secrets.entries()) {
      const row = found.get(s.secretId)!;
      try {
        secretPayloads.push(await bundle(ctx, ctx.vault.open(row.sealedSecret, secretAad(row.id)), s.targetPublicKey));
      } catch (e) {
        if (e instanceof AppError && e.fields?.['field'] === 'targetPublicKey') throw new AppError(e.code, `secrets.${i}.targetPublicKey: ${e.message}`, { field: `secrets.${i}.targetPublicKey` });
        throw e;
      }
    }
    await ctx.tx.secrets.markExported(ctx.organizationId, ids, ctx.now);
    return { secretPayloads };
  },
};
