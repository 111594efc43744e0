/**
 * update_root_quorum — the root users and how many of them must approve an activity to bypass
 * policies. Every member must be a live user of this organization and the threshold at most the
 * member count. Result: an empty object.
 */
import { AppError, ZUpdateRootQuorumIntentSchema, type TUpdateRootQuorumIntent, UPDATE_ROOT_QUORUM_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const updateRootQuorum: TActivityDefinition<TUpdateRootQuorumIntent, Record<string, never>> = {
  ...UPDATE_ROOT_QUORUM_ACTIVITY,
  onFailure: 'reject',
  params: ZUpdateRootQuorumIntentSchema,
  validate(p) {
    const members = new Set(p.userIds);
    if (members.size !== p.userIds.length) throw new AppError('BAD_REQUEST', 'userIds: a user is listed twice', { field: 'userIds' });
    if (p.threshold > members.size) {
      throw new AppError('BAD_REQUEST', `threshold: ${p.threshold} is more than the ${members.size} member(s) of the quorum`, { field: 'threshold' });
    }
  },
  async handle(ctx, p) {
    const found = await ctx.tx.users.findByIds(ctx.organizationId, p.userIds);
    const missing = p.userIds.filter((id) => !found.some((u) => u.id === id));
    if (missing.length) throw new AppError('BAD_REQUEST', `userIds: not users of this organization: ${missing.join(', ')}`, { field: 'userIds', userIds: missing });
    await ctx.tx.organizations.setRootQuorum(ctx.organizationId, p.threshold, p.userIds, ctx.now);
    await ctx.tx.notifyChange('organization', ctx.organizationId);
    return {};
  },
};
