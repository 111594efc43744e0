/** whoami — who the stamp belongs to. Served from the auth cache: no database trip once warm. */
import { AppError, ZWhoamiRequestSchema, type TWhoamiRequest, type TWhoamiResponse } from '@latchkey/domain';
import type { TQueryDefinition } from './query-definition.js';

export const whoami: TQueryDefinition<TWhoamiRequest, TWhoamiResponse> = {
  path: 'whoami',
  request: ZWhoamiRequestSchema,
  loginViaParent: true,
  async handle(ctx) {
    // The signer's organization: usually the target, already loaded by authentication.
    const org = ctx.principal.organizationId === ctx.organization.id ? ctx.organization : await ctx.cache.organization(ctx.principal.organizationId);
    const user = ctx.cache.cached.user(ctx.principal.organizationId, ctx.principal.userId) ?? (await ctx.cache.user(ctx.principal.organizationId, ctx.principal.userId));
    if (!user || !org) throw new AppError('UNAUTHENTICATED', 'the credential no longer belongs to a user');
    return { organizationId: org.id, organizationName: org.name, userId: user.id, username: user.userName };
  },
};
