/**
 * create_read_only_session — a bearer token for the caller's own reads (issue 16 §4): queries of
 * the caller's organization, presented as `X-Session` instead of a stamp, for one hour by
 * default (LATCHKEY_READ_ONLY_SESSION_SECONDS). Only the token's hash is stored
 * (`identity/read-only-sessions.ts`); the token itself is in the result, once.
 */
import { AppError, CREATE_READ_ONLY_SESSION_ACTIVITY, ZCreateReadOnlySessionIntentSchema, type TCreateReadOnlySessionIntent, type TCreateReadOnlySessionResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { newReadOnlySessionToken, readOnlySessionSeconds } from '../../identity/read-only-sessions.js';

export const createReadOnlySession: TActivityDefinition<TCreateReadOnlySessionIntent, TCreateReadOnlySessionResult> = {
  ...CREATE_READ_ONLY_SESSION_ACTIVITY,
  access: { selfService: true },
  onFailure: 'reject',
  params: ZCreateReadOnlySessionIntentSchema,
  async handle(ctx) {
    const [organization, user] = await Promise.all([ctx.tx.organizations.findById(ctx.organizationId), ctx.tx.users.findById(ctx.organizationId, ctx.principal.userId)]);
    if (!organization || !user) throw new AppError('NOT_FOUND', `user not found: ${ctx.principal.userId}`, { userId: ctx.principal.userId });
    const { token, tokenHash } = newReadOnlySessionToken();
    // Whole seconds: the expiry the client is told (`sessionExpiry`, in seconds) is the one enforced.
    const expiresAt = new Date(Math.floor(ctx.now.getTime() / 1000) * 1000 + readOnlySessionSeconds() * 1000);
    await ctx.tx.sessionProfiles.createReadOnlySession({ tokenHash, organizationId: ctx.organizationId, userId: user.id, expiresAt }, ctx.now);
    return {
      organizationId: organization.id,
      organizationName: organization.name,
      userId: user.id,
      username: user.userName,
      session: token,
      sessionExpiry: String(Math.floor(expiresAt.getTime() / 1000)),
    };
  },
};
