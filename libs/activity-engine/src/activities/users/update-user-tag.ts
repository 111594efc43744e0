/**
 * User tags: create_user_tag, update_user_tag (rename, add and remove users) and delete_user_tags
 * (whose result also lists the users that carried the tags). Tag names are unique in an
 * organization.
 */
import { ZUpdateUserTagIntentSchema, type TUpdateUserTagIntent, type TUpdateUserTagResult, UPDATE_USER_TAG_ACTIVITY } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUsersExist, assertUserTagsExist } from './users-shared.js';
import { uniqueName } from './user-tags-shared.js';

export const updateUserTag: TActivityDefinition<TUpdateUserTagIntent, TUpdateUserTagResult> = {
  ...UPDATE_USER_TAG_ACTIVITY,
  params: ZUpdateUserTagIntentSchema,
  async handle(ctx, p) {
    await assertUserTagsExist(ctx, [p.userTagId]);
    const add = [...new Set(p.addUserIds)];
    await assertUsersExist(ctx, add);
    if (p.newUserTagName !== undefined) {
      try {
        await ctx.tx.users.renameTag(ctx.organizationId, p.userTagId, p.newUserTagName, ctx.now);
      } catch (e) {
        if (isUniqueViolation(e)) throw uniqueName(p.newUserTagName);
        throw e;
      }
    }
    await ctx.tx.users.tagUsers(ctx.organizationId, p.userTagId, add, [...new Set(p.removeUserIds)]);
    return { userTagId: p.userTagId };
  },
};
