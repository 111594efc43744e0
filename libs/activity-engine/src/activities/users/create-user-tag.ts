/**
 * User tags: create_user_tag, update_user_tag (rename, add and remove users) and delete_user_tags
 * (whose result also lists the users that carried the tags). Tag names are unique in an
 * organization.
 */
import { newId } from '@latchkey/crypto';
import { ZCreateUserTagIntentSchema, type TCreateUserTagIntent, type TCreateUserTagResult, CREATE_USER_TAG_ACTIVITY } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUsersExist } from './users-shared.js';
import { uniqueName } from './user-tags-shared.js';

export const createUserTag: TActivityDefinition<TCreateUserTagIntent, TCreateUserTagResult> = {
  ...CREATE_USER_TAG_ACTIVITY,
  params: ZCreateUserTagIntentSchema,
  async handle(ctx, p) {
    const userIds = [...new Set(p.userIds)];
    await assertUsersExist(ctx, userIds);
    const id = newId();
    try {
      await ctx.tx.users.createTag({ id, organizationId: ctx.organizationId, name: p.userTagName, createdAt: ctx.now }, userIds);
    } catch (e) {
      if (isUniqueViolation(e)) throw uniqueName(p.userTagName);
      throw e;
    }
    return { userTagId: id, userIds };
  },
};
