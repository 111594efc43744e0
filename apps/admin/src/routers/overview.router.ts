/**
 * Overview: the organization asked about with its sub-organizations (search by name, id or a
 * user's e-mail; paged), users / wallets / last-day activities of each, and activities per hour by
 * status over the last day for the chart.
 */
import { AppError } from '@latchkey/domain';
import { z } from 'zod';
import { orgScoped } from '../trpc/engine-calls.js';
import { router, stampedProcedure } from '../trpc/init.js';

export const overviewRouter = router({
  summary: stampedProcedure
    .input(orgScoped({ search: z.string().max(256).default(''), page: z.number().int().min(0).max(10_000).default(0), pageSize: z.number().int().min(1).max(100).default(20) }))
    .query(async ({ ctx, input }) => {
      const { organization } = await ctx.services.engine.authorizeRead(ctx.headers, ctx.raw);
      if (organization.id !== input.organizationId) throw new AppError('BAD_REQUEST', 'organizationId does not name the organization authenticated against');
      const subs = await ctx.services.overview.searchSubOrganizations(organization.id, input.search.trim(), input.pageSize, input.page * input.pageSize);
      const counts = await ctx.services.overview.counts([organization.id, ...subs.rows.map((r) => r.organizationId)]);
      const byId = new Map(counts.map((c) => [c.organizationId, c]));
      const zero = { users: 0, wallets: 0, activities24h: 0 };
      const { organizationId: _, ...own } = byId.get(organization.id) ?? { organizationId: '', ...zero };
      return {
        organization: { organizationId: organization.id, name: organization.name, ...own },
        subOrganizations: {
          total: subs.total,
          page: input.page,
          pageSize: input.pageSize,
          rows: subs.rows.map((r) => {
            const c = byId.get(r.organizationId);
            return { organizationId: r.organizationId, name: r.name, createdAt: r.createdAt.toISOString(), users: c?.users ?? 0, wallets: c?.wallets ?? 0, activities24h: c?.activities24h ?? 0 };
          }),
        },
        activitiesPerHour: await ctx.services.overview.activitiesPerHour(organization.id, 24),
      };
    }),
});
