/**
 * update_user_name — renames one user of the organization (the single-field form of update_user,
 * governed the same way: resource USER, action UPDATE). An unknown user is a 404 and nothing is
 * written; whoami's cached user row is dropped on every process.
 */
import { UPDATE_USER_NAME_ACTIVITY, ZUpdateUserNameIntentSchema, type TUpdateUserNameIntent, type TUpdateUserNameResult } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUserExists } from '../../identity/add-user-credentials.js';

export const updateUserName: TActivityDefinition<TUpdateUserNameIntent, TUpdateUserNameResult> = {
  ...UPDATE_USER_NAME_ACTIVITY,
  onFailure: 'reject',
  params: ZUpdateUserNameIntentSchema,
  policyParams: exposeParams({ userId: 'user_id', userName: 'user_name' }),
  async handle(ctx, p) {
    await assertUserExists(ctx, p.userId);
    await ctx.tx.users.update(ctx.organizationId, p.userId, { userName: p.userName }, ctx.now);
    await ctx.tx.notifyChange('user', p.userId);
    return { userId: p.userId };
  },
};
