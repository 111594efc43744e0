/**
 * create_users (V3, V4), update_user and delete_users. New users get their API keys and user tags
 * in the same transaction. A root quorum member cannot be deleted (the quorum would lose a voter
 * behind its back); deleting a user deletes its credentials, and every process's auth cache hears
 * of it.
 */
import { AppError, type TCreateUsersIntent } from '@latchkey/domain';
import type { TActivityContext } from '../../engine/activity-definition.js';
import { type TLocatedApiKey } from '../../identity/add-user-credentials.js';

/** @throws AppError 404 naming the user tags that do not exist in the organization */
export async function assertUserTagsExist(ctx: TActivityContext, tagIds: readonly string[]): Promise<void> {
  const found = await ctx.tx.users.findTags(ctx.organizationId, [...tagIds]);
  const missing = tagIds.filter((id) => !found.some((t) => t.id === id));
  if (missing.length) throw new AppError('NOT_FOUND', `user tags not found: ${missing.join(', ')}`, { userTagIds: missing });
}

/** @throws AppError 404 naming the users that do not exist in the organization */
export async function assertUsersExist(ctx: TActivityContext, userIds: readonly string[]): Promise<void> {
  const found = await ctx.tx.users.findByIds(ctx.organizationId, [...userIds]);
  const missing = userIds.filter((id) => !found.some((u) => u.id === id));
  if (missing.length) throw new AppError('NOT_FOUND', `users not found: ${missing.join(', ')}`, { userIds: missing });
}

export const apiKeysOf = (p: TCreateUsersIntent): TLocatedApiKey[] =>
  p.users.flatMap((u, i) => u.apiKeys.map((params, j) => ({ path: `users[${i}].apiKeys[${j}]`, params })));
