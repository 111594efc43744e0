/**
 * Private key tags: create_private_key_tag, update_private_key_tag (rename, add and remove keys)
 * and delete_private_key_tags (whose result also lists the keys that carried the tags).
 * Policy: PRIVATE_KEY_TAG / CREATE, UPDATE, DELETE.
 */
import { newId } from '@latchkey/crypto';
import {
  AppError,
  ZCreatePrivateKeyTagIntentSchema,
  ZDeletePrivateKeyTagsIntentSchema,
  ZUpdatePrivateKeyTagIntentSchema,
  type TCreatePrivateKeyTagIntent,
  type TCreatePrivateKeyTagResult,
  type TDeletePrivateKeyTagsIntent,
  type TDeletePrivateKeyTagsResult,
  type TUpdatePrivateKeyTagIntent,
  type TUpdatePrivateKeyTagResult,
} from '@latchkey/domain';
import { isUniqueViolation, type TRepositories } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

async function assertKeysExist(tx: TRepositories, organizationId: string, ids: string[]): Promise<void> {
  const found = await tx.privateKeys.findByIds(organizationId, ids);
  const missing = ids.filter((id) => !found.some((k) => k.id === id));
  if (missing.length) throw new AppError('NOT_FOUND', `private keys not found: ${missing.join(', ')}`, { privateKeyIds: missing });
}

const uniqueName = (name: string) => new AppError('BAD_REQUEST', `private key tag name must be unique: ${JSON.stringify(name)} already exists`, { field: 'privateKeyTagName' });

export const createPrivateKeyTag: TActivityDefinition<TCreatePrivateKeyTagIntent, TCreatePrivateKeyTagResult> = {
  path: 'create_private_key_tag',
  versions: [{ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', intentKey: 'createPrivateKeyTagIntent', resultKey: 'createPrivateKeyTagResult' }],
  resource: 'PRIVATE_KEY',
  action: 'CREATE',
  params: ZCreatePrivateKeyTagIntentSchema,
  async handle(ctx, p) {
    const keyIds = [...new Set(p.privateKeyIds)];
    await assertKeysExist(ctx.tx, ctx.organizationId, keyIds);
    const id = newId();
    try {
      await ctx.tx.privateKeys.createTag({ id, organizationId: ctx.organizationId, name: p.privateKeyTagName }, keyIds);
    } catch (e) {
      if (isUniqueViolation(e)) throw uniqueName(p.privateKeyTagName);
      throw e;
    }
    return { privateKeyTagId: id, privateKeyIds: keyIds };
  },
};

export const updatePrivateKeyTag: TActivityDefinition<TUpdatePrivateKeyTagIntent, TUpdatePrivateKeyTagResult> = {
  path: 'update_private_key_tag',
  versions: [{ type: 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG', intentKey: 'updatePrivateKeyTagIntent', resultKey: 'updatePrivateKeyTagResult' }],
  resource: 'PRIVATE_KEY',
  action: 'UPDATE',
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

export const deletePrivateKeyTags: TActivityDefinition<TDeletePrivateKeyTagsIntent, TDeletePrivateKeyTagsResult> = {
  path: 'delete_private_key_tags',
  versions: [{ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS', intentKey: 'deletePrivateKeyTagsIntent', resultKey: 'deletePrivateKeyTagsResult' }],
  resource: 'PRIVATE_KEY',
  action: 'DELETE',
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
