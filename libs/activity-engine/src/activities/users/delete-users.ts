/**
 * create_users (V3, V4), update_user and delete_users. New users get their API keys and user tags
 * in the same transaction. A root quorum member cannot be deleted (the quorum would lose a voter
 * behind its back); deleting a user deletes its credentials, and every process's auth cache hears
 * of it.
 */
import { AppError, ZDeleteUsersIntentSchema, type TDeleteUsersIntent, type TDeleteUsersResult, DELETE_USERS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUsersExist } from './users-shared.js';
import { exposeParams } from '@latchkey/policy';

export const deleteUsers: TActivityDefinition<TDeleteUsersIntent, TDeleteUsersResult> = {
  ...DELETE_USERS_ACTIVITY,
  params: ZDeleteUsersIntentSchema,
  policyParams: exposeParams({ userIds: 'user_ids' }),
  async handle(ctx, p) {
    const userIds = [...new Set(p.userIds)];
    await assertUsersExist(ctx, userIds);
    const quorum = new Set((await ctx.tx.organizations.rootQuorumMembers(ctx.organizationId)).map((m) => m.userId));
    const roots = userIds.filter((id) => quorum.has(id));
    if (roots.length) {
      throw new AppError('BAD_REQUEST', `a root quorum member cannot be deleted: ${roots.join(', ')}; take them out of the root quorum first (update_root_quorum)`, { userIds: roots });
    }
    await ctx.tx.users.softDelete(ctx.organizationId, userIds, ctx.now);
    await ctx.tx.credentials.deleteCredentialsOfUsers(ctx.organizationId, userIds, ctx.now);
    for (const id of userIds) {
      await ctx.tx.notifyChange('user', id);
      await ctx.tx.notifyChange('credential', id);
    }
    return { userIds };
  },
};
