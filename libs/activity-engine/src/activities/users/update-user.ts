/**
 * create_users (V3, V4), update_user and delete_users. New users get their API keys and user tags
 * in the same transaction. A root quorum member cannot be deleted (the quorum would lose a voter
 * behind its back); deleting a user deletes its credentials, and every process's auth cache hears
 * of it.
 */
import { ZUpdateUserIntentSchema, type TUpdateUserIntent, type TUpdateUserResult, UPDATE_USER_ACTIVITY } from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUserExists } from '../../identity/add-user-credentials.js';
import { assertUserTagsExist } from './users-shared.js';

export const updateUser: TActivityDefinition<TUpdateUserIntent, TUpdateUserResult> = {
  ...UPDATE_USER_ACTIVITY,
  params: ZUpdateUserIntentSchema,
  async handle(ctx, p) {
    await assertUserExists(ctx, p.userId);
    const tagIds = [...new Set(p.userTagIds)];
    await assertUserTagsExist(ctx, tagIds);
    const changes: Parameters<TRepositories['users']['update']>[2] = {};
    if (p.userName !== undefined) changes.userName = p.userName;
    if (p.userEmail !== undefined) changes.userEmail = p.userEmail === '' ? null : p.userEmail;
    if (p.userPhoneNumber !== undefined) changes.userPhoneNumber = p.userPhoneNumber === '' ? null : p.userPhoneNumber;
    await ctx.tx.users.update(ctx.organizationId, p.userId, changes, ctx.now);
    if (tagIds.length) await ctx.tx.users.setUserTags(ctx.organizationId, p.userId, tagIds);
    // whoami answers from the cached user row; the name may have changed.
    await ctx.tx.notifyChange('user', p.userId);
    return { userId: p.userId };
  },
};
