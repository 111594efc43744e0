/**
 * The admin tRPC router. One procedure file per concern will live under `procedures/` as the
 * dashboard grows; procedures call library functions, never Prisma.
 */
import { initTRPC } from '@trpc/server';

export interface TAdminContext {
  ping: () => Promise<void>;
}

const t = initTRPC.context<TAdminContext>().create();

export const adminRouter = t.router({
  /** Liveness of the admin app and its database. */
  health: t.procedure.query(async ({ ctx }) => {
    await ctx.ping();
    return { status: 'ok' as const };
  }),
});

export type TAdminRouter = typeof adminRouter;
