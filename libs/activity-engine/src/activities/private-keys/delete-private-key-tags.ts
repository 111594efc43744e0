/**
 * Private key tags: create_private_key_tag, update_private_key_tag (rename, add and remove keys)
 * and delete_private_key_tags (whose result also lists the keys that carried the tags).
 */
import { AppError, ZDeletePrivateKeyTagsIntentSchema, type TDeletePrivateKeyTagsIntent, type TDeletePrivateKeyTagsResult, DELETE_PRIVATE_KEY_TAGS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const deletePrivateKeyTags: TActivityDefinition<TDeletePrivateKeyTagsIntent, TDeletePrivateKeyTagsResult> = {
  ...DELETE_PRIVATE_KEY_TAGS_ACTIVITY,
  params: ZDeletePrivateKeyTagsIntentSchema,
  async handle(ctx, p) {
    const ids = [...new Set(p.privateKeyTagIds)];
    const tags = await ctx.tx.privateKeys.findTags(ctx.organizationId, ids);
    const missing = ids.filter((id) => !tags.some((t) => t.id === id));
    if (missing.length) throw new AppError('NOT_FOUND', `private key tags not found: ${missing.join(', ')}`, { privateKeyTagIds: missing });
    const privateKeyIds = await ctx.tx.privateKeys.deleteTags(ctx.organizationId, ids);
    return { privateKeyTagIds: ids, privateKeyIds };
  },
};
