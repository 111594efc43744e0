/**
 * Private key tags: create_private_key_tag, update_private_key_tag (rename, add and remove keys)
 * and delete_private_key_tags (whose result also lists the keys that carried the tags).
 */
import { AppError, ZUpdatePrivateKeyTagIntentSchema, type TUpdatePrivateKeyTagIntent, type TUpdatePrivateKeyTagResult, UPDATE_PRIVATE_KEY_TAG_ACTIVITY } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertKeysExist, uniqueName } from './private-key-tags-shared.js';

export const updatePrivateKeyTag: TActivityDefinition<TUpdatePrivateKeyTagIntent, TUpdatePrivateKeyTagResult> = {
  ...UPDATE_PRIVATE_KEY_TAG_ACTIVITY,
  params: ZUpdatePrivateKeyTagIntentSchema,
  async handle(ctx, p) {
    const [tag] = await ctx.tx.privateKeys.findTags(ctx.organizationId, [p.privateKeyTagId]);
    if (!tag) throw new AppError('NOT_FOUND', `private key tag not found: ${p.privateKeyTagId}`, { privateKeyTagId: p.privateKeyTagId });
    await assertKeysExist(ctx.tx, ctx.organizationId, [...new Set(p.addPrivateKeyIds)]);
    if (p.newPrivateKeyTagName !== undefined && p.newPrivateKeyTagName !== tag.name) {
      try {
        await ctx.tx.privateKeys.renameTag(ctx.organizationId, tag.id, p.newPrivateKeyTagName);
      } catch (e) {
        if (isUniqueViolation(e)) throw uniqueName(p.newPrivateKeyTagName);
        throw e;
      }
    }
    await ctx.tx.privateKeys.tagKeys(ctx.organizationId, tag.id, [...new Set(p.addPrivateKeyIds)], [...new Set(p.removePrivateKeyIds)]);
    return { privateKeyTagId: tag.id };
  },
};
