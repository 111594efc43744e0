/**
 * The admin tRPC router: one router per area of the dashboard, each a list of procedures that
 * call the engine or a read model. Its type is the contract the dashboard and the tests share.
 */
import { activitiesRouter } from './routers/activities.router.js';
import { authRouter } from './routers/auth.router.js';
import { gasRouter } from './routers/gas.router.js';
import { overviewRouter } from './routers/overview.router.js';
import { policiesRouter } from './routers/policies.router.js';
import { sessionRouter } from './routers/session.router.js';
import { tvcRouter } from './routers/tvc.router.js';
import { usersRouter } from './routers/users.router.js';
import { walletsRouter } from './routers/wallets.router.js';
import { webhooksRouter } from './routers/webhooks.router.js';
import { publicProcedure, router } from './trpc/init.js';

export const adminRouter = router({
  /** Liveness of the admin app and its database (unauthenticated, like /healthz). */
  health: publicProcedure.query(async ({ ctx }) => {
    await ctx.services.ping();
    return { status: 'ok' as const };
  }),
  session: sessionRouter,
  overview: overviewRouter,
  activities: activitiesRouter,
  users: usersRouter,
  wallets: walletsRouter,
  policies: policiesRouter,
  auth: authRouter,
  webhooks: webhooksRouter,
  gas: gasRouter,
  tvc: tvcRouter,
});

export type TAdminRouter = typeof adminRouter;
