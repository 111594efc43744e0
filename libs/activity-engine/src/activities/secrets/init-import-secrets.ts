/**
 * init_import_secrets — hands the caller `numSecrets` one-time P-256 targets, each inside an
 * envelope signed by the server's signer key and bound to the organization (`@turnkey/crypto`
 * `encryptSecretToBundle` checks both). The private halves are sealed by the vault and bound to
 * the calling user: only that user's import_secrets can use them, once each, within the hour.
 */
import { createSecretTargetMessage, generateP256KeyPair, newId } from '@latchkey/crypto';
import { INIT_IMPORT_SECRETS_ACTIVITY, ZInitImportSecretsIntentSchema, type TInitImportSecretsIntent, type TInitImportSecretsResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { withBundleSigner } from '../../keys/bundle-signer.js';
import { IMPORT_TARGET_TTL_MS } from '../../keys/import-targets.js';
import { importTargetAad } from '../../keys/vault-aad.js';

export const initImportSecrets: TActivityDefinition<TInitImportSecretsIntent, TInitImportSecretsResult> = {
  ...INIT_IMPORT_SECRETS_ACTIVITY,
  onFailure: 'reject',
  params: ZInitImportSecretsIntentSchema,
  async handle(ctx, p) {
    const targets: string[] = [];
    for (let i = 0; i < p.numSecrets; i++) {
      const id = newId();
      const target = generateP256KeyPair();
      const secret = Buffer.from(target.privateKey, 'hex');
      try {
        await ctx.tx.importTargets.create({
          id,
          organizationId: ctx.organizationId,
          userId: ctx.principal.userId,
          kind: 'SECRET',
          publicKey: target.publicKeyUncompressed.toLowerCase(),
          sealedPrivateKey: ctx.vault.seal(secret, importTargetAad(id)),
          expiresAt: new Date(ctx.now.getTime() + IMPORT_TARGET_TTL_MS),
        });
      } finally {
        secret.fill(0);
      }
      targets.push(target.publicKeyUncompressed.toLowerCase());
    }
    const enclaveTargetMessages = await withBundleSigner(ctx, (signer) =>
      targets.map((targetPublicKeyUncompressedHex) => createSecretTargetMessage({ organizationId: ctx.organizationId, targetPublicKeyUncompressedHex, signer })),
    );
    return { enclaveTargetMessages };
  },
};
