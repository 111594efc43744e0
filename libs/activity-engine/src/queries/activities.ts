/** get_activity and list_activities (newest first; filters by status, type and — a Latchkey extension — submitting user). */
import {
  AppError,
  parsePagination,
  ZGetActivityRequestSchema,
  ZListActivitiesRequestSchema,
  type TGetActivityRequest,
  type TGetActivityResponse,
  type TListActivitiesRequest,
  type TListActivitiesResponse,
} from '@latchkey/domain';
import { activityForCaller } from '../engine/consensus.js';
import { activityToWire } from '../engine/serialize.js';
import type { TQueryDefinition } from './query-definition.js';

export const getActivity: TQueryDefinition<TGetActivityRequest, TGetActivityResponse> = {
  path: 'get_activity',
  request: ZGetActivityRequestSchema,
  async handle(ctx, req) {
    const a = await ctx.store.activities.findById(ctx.organization.id, req.activityId);
    if (!a) throw new AppError('NOT_FOUND', `activity not found: ${req.activityId}`, { activityId: req.activityId });
    return { activity: await activityForCaller(ctx.consensus, a, ctx.principal.userId, new Date()) };
  },
};

export const listActivities: TQueryDefinition<TListActivitiesRequest, TListActivitiesResponse> = {
  path: 'list_activities',
  request: ZListActivitiesRequestSchema,
  async handle(ctx, req) {
    const page = req.paginationOptions ?? parsePagination(undefined);
    const rows = await ctx.store.activities.list({
      organizationId: ctx.organization.id,
      statuses: req.filterByStatus,
      types: req.filterByType,
      createdByUserIds: req.filterByUserIds,
      ...page,
    });
    const votes = await ctx.store.activities.votesOf(ctx.organization.id, rows.map((r) => r.id));
    const now = new Date();
    return { activities: await Promise.all(rows.map((r) => (votes.has(r.id) ? activityForCaller(ctx.consensus, r, ctx.principal.userId, now, votes.get(r.id)) : activityToWire(r)))) };
  },
};
