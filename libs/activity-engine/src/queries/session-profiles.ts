/**
 * get_session_profile / get_session_profiles: an organization's session profiles as
 * `v1SessionProfile` (issue 16 §4). A sub-organization's login may name its parent's profile, but
 * these queries list the target organization's own, as Turnkey's do.
 */
import {
  AppError,
  ZGetSessionProfileRequestSchema,
  ZGetSessionProfilesRequestSchema,
  toTimestamp,
  type TGetSessionProfileRequest,
  type TGetSessionProfilesRequest,
  type TSessionProfileWire,
} from '@latchkey/domain';
import type { TSessionProfileRow } from '@latchkey/persistence';
import type { TQueryDefinition } from './query-definition.js';

function toWire(row: TSessionProfileRow): TSessionProfileWire {
  return {
    sessionProfileId: row.id,
    sessionProfileName: row.name,
    scope: row.scope,
    ...(row.expirationSeconds !== null ? { expirationSeconds: String(row.expirationSeconds) } : {}),
    ...(row.notes !== '' ? { notes: row.notes } : {}),
    createdAt: toTimestamp(row.createdAt),
    updatedAt: toTimestamp(row.updatedAt),
  };
}

export const getSessionProfile: TQueryDefinition<TGetSessionProfileRequest, { sessionProfile: TSessionProfileWire }> = {
  path: 'get_session_profile',
  request: ZGetSessionProfileRequestSchema,
  async handle(ctx, req) {
    const row = await ctx.store.sessionProfiles.findById([ctx.organization.id], req.sessionProfileId);
    if (!row) throw new AppError('NOT_FOUND', `session profile not found: ${req.sessionProfileId}`, { field: 'sessionProfileId' });
    return { sessionProfile: toWire(row) };
  },
};

export const getSessionProfiles: TQueryDefinition<TGetSessionProfilesRequest, { sessionProfiles: TSessionProfileWire[] }> = {
  path: 'get_session_profiles',
  request: ZGetSessionProfilesRequestSchema,
  async handle(ctx) {
    return { sessionProfiles: (await ctx.store.sessionProfiles.list(ctx.organization.id)).map(toWire) };
  },
};
