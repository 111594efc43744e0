/**
 * import_secrets — opens each `secretPayload` (`@turnkey/crypto` `encryptSecretToBundle`) with the
 * init_import_secrets target its `targetPublicKey` names, which must be an unused, unexpired
 * target of the calling user; spends the target and stores the secret sealed by the vault
 * (`secretAad`). All or nothing: any refusal (400 naming `secrets.<i>.<field>`) writes nothing and
 * leaves every target usable. Error messages never quote a payload or what it opened to.
 */
import { BundleError, assertSecretPlaintext, decompressP256PublicKey, newId, openImportedBundle } from '@latchkey/crypto';
import { AppError, IMPORT_SECRETS_ACTIVITY, ZImportSecretsIntentSchema, type TImportSecretsIntent, type TImportSecretsResult } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { importTargetAad, secretAad } from '../../keys/vault-aad.js';

export const importSecrets: TActivityDefinition<TImportSecretsIntent, TImportSecretsResult> = {
  ...IMPORT_SECRETS_ACTIVITY,
  onFailure: 'reject',
  params: ZImportSecretsIntentSchema,
  validate(p) {
    const names = new Set<string>();
    const targets = new Set<string>();
    p.secrets.forEach((s, i) => {
      if (s.name !== undefined) {
        if (names.has(s.name)) throw new AppError('BAD_REQUEST', `secrets.${i}.name: ${s.name} is given to two secrets of this request`, { field: `secrets.${i}.name` });
        names.add(s.name);
      }
      const target = decompressP256PublicKey(s.targetPublicKey).toLowerCase();
      if (targets.has(target)) throw new AppError('BAD_REQUEST', `secrets.${i}.targetPublicKey: each import target is used once; this one is named twice`, { field: `secrets.${i}.targetPublicKey` });
      targets.add(target);
      const keys = new Set<string>();
      s.staticProperties.forEach((prop, j) => {
        if (keys.has(prop.key)) throw new AppError('BAD_REQUEST', `secrets.${i}.staticProperties.${j}.key: ${prop.key} is listed twice`, { field: `secrets.${i}.staticProperties.${j}.key` });
        keys.add(prop.key);
      });
    });
  },
  async handle(ctx, p) {
    const names = p.secrets.flatMap((s) => (s.name === undefined ? [] : [s.name]));
    const taken = await ctx.tx.secrets.takenNames(ctx.organizationId, names);
    if (taken.length > 0) {
      const i = p.secrets.findIndex((s) => s.name === taken[0]);
      throw new AppError('BAD_REQUEST', `secrets.${i}.name: a secret named ${taken[0]} already exists in this organization`, { field: `secrets.${i}.name` });
    }
    const secretIds: string[] = [];
    for (const [i, s] of p.secrets.entries()) {
      const targetPublicKey = decompressP256PublicKey(s.targetPublicKey).toLowerCase();
      const target = await ctx.tx.importTargets.usableByPublicKey(ctx.organizationId, ctx.principal.userId, 'SECRET', targetPublicKey, ctx.now);
      if (!target) {
        throw new AppError('BAD_REQUEST', `secrets.${i}.targetPublicKey is not an unused import target of this user (expired, used, or made for someone else); call init_import_secrets and encrypt to one of its enclaveTargetMessages`, {
          field: `secrets.${i}.targetPublicKey`,
        });
      }
      const targetKey = ctx.vault.open(target.sealedPrivateKey, importTargetAad(target.id));
      let plaintext: Uint8Array;
      try {
        plaintext = await openImportedBundle(s.secretPayload, targetKey);
        assertSecretPlaintext(plaintext);
      } catch (e) {
        if (e instanceof BundleError) throw new AppError('BAD_REQUEST', `secrets.${i}.secretPayload does not open with its import target: ${e.message}`, { field: `secrets.${i}.secretPayload` });
        throw e;
      } finally {
        targetKey.fill(0);
      }
      try {
        if (!(await ctx.tx.importTargets.use(ctx.organizationId, target.id, ctx.now))) throw new AppError('CONFLICT', `secrets.${i}.targetPublicKey was just used by another import`, { field: `secrets.${i}.targetPublicKey` });
        const id = newId();
        await ctx.tx.secrets.create(
          {
            id,
            organizationId: ctx.organizationId,
            name: s.name ?? null,
            sealedSecret: ctx.vault.seal(plaintext, secretAad(id)),
            staticProperties: s.staticProperties.map((prop) => ({ key: prop.key, value: prop.value })),
            createdByUserId: ctx.principal.userId,
          },
          ctx.now,
        );
        secretIds.push(id);
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('CONFLICT', `secrets.${i}.name: a secret named ${s.name} was just created by another request`, { field: `secrets.${i}.name` });
        throw e;
      } finally {
        plaintext.fill(0);
      }
    }
    return { secretIds };
  },
};
