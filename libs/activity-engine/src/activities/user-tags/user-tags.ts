/**
 * User tags: create_user_tag, update_user_tag (rename, add and remove users) and delete_user_tags
 * (whose result also lists the users that carried the tags). Tag names are unique in an
 * organization. Policy: USER / CREATE, UPDATE, DELETE (user tags are a USER resource).
 */
import { newId } from '@latchkey/crypto';
import {
  AppError,
  ZCreateUserTagIntentSchema,
  ZDeleteUserTagsIntentSchema,
  ZUpdateUserTagIntentSchema,
  type TCreateUserTagIntent,
  type TCreateUserTagResult,
  type TDeleteUserTagsIntent,
  type TDeleteUserTagsResult,
  type TUpdateUserTagIntent,
  type TUpdateUserTagResult,
} from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUsersExist, assertUserTagsExist } from '../users/users.js';

const uniqueName = (name: string) => new AppError('BAD_REQUEST', `user tag name must be unique: ${JSON.stringify(name)} already exists`, { field: 'userTagName' });

export const createUserTag: TActivityDefinition<TCreateUserTagIntent, TCreateUserTagResult> = {
  path: 'create_user_tag',
  versions: [{ type: 'ACTIVITY_TYPE_CREATE_USER_TAG', intentKey: 'createUserTagIntent', resultKey: 'createUserTagResult' }],
  resource: 'USER',
  action: 'CREATE',
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

export const updateUserTag: TActivityDefinition<TUpdateUserTagIntent, TUpdateUserTagResult> = {
  path: 'update_user_tag',
  versions: [{ type: 'ACTIVITY_TYPE_UPDATE_USER_TAG', intentKey: 'updateUserTagIntent', resultKey: 'updateUserTagResult' }],
  resource: 'USER',
  action: 'UPDATE',
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

export const deleteUserTags: TActivityDefinition<TDeleteUserTagsIntent, TDeleteUserTagsResult> = {
  path: 'delete_user_tags',
  versions: [{ type: 'ACTIVITY_TYPE_DELETE_USER_TAGS', intentKey: 'deleteUserTagsIntent', resultKey: 'deleteUserTagsResult' }],
  resource: 'USER',
  action: 'DELETE',
  params: ZDeleteUserTagsIntentSchema,
  async handle(ctx, p) {
    const userTagIds = [...new Set(p.userTagIds)];
    await assertUserTagsExist(ctx, userTagIds);
    const userIds = await ctx.tx.users.deleteTags(ctx.organizationId, userTagIds);
    return { userTagIds, userIds };
  },
};
