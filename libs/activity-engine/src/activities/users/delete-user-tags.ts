/**
 * User tags: create_user_tag, update_user_tag (rename, add and remove users) and delete_user_tags
 * (whose result also lists the users that carried the tags). Tag names are unique in an
 * organization.
 */
import { ZDeleteUserTagsIntentSchema, type TDeleteUserTagsIntent, type TDeleteUserTagsResult, DELETE_USER_TAGS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUserTagsExist } from './users-shared.js';

export const deleteUserTags: TActivityDefinition<TDeleteUserTagsIntent, TDeleteUserTagsResult> = {
  ...DELETE_USER_TAGS_ACTIVITY,
  params: ZDeleteUserTagsIntentSchema,
  async handle(ctx, p) {
    const userTagIds = [...new Set(p.userTagIds)];
    await assertUserTagsExist(ctx, userTagIds);
    const userIds = await ctx.tx.users.deleteTags(ctx.organizationId, userTagIds);
    return { userTagIds, userIds };
  },
};
