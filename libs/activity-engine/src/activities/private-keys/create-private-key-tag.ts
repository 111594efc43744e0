/**
 * Private key tags: create_private_key_tag, update_private_key_tag (rename, add and remove keys)
 * and delete_private_key_tags (whose result also lists the keys that carried the tags).
 */
import { newId } from '@latchkey/crypto';
import { ZCreatePrivateKeyTagIntentSchema, type TCreatePrivateKeyTagIntent, type TCreatePrivateKeyTagResult, CREATE_PRIVATE_KEY_TAG_ACTIVITY } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertKeysExist, uniqueName } from './private-key-tags-shared.js';

export const createPrivateKeyTag: TActivityDefinition<TCreatePrivateKeyTagIntent, TCreatePrivateKeyTagResult> = {
  ...CREATE_PRIVATE_KEY_TAG_ACTIVITY,
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
