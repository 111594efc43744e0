/**
 * The admin app: the dashboard at `/`, its tRPC backend at `/trpc`, and `/healthz`. Every tRPC
 * call but the sign-in preliminaries is stamped (see trpc/init.ts); the stamp signs the exact
 * bytes handed to the engine — a POST's body, or for the SSE subscription (an EventSource sends no
 * headers) its `input` query parameter, with the stamp in tRPC's connection parameters.
 */
import type { THeaders } from '@latchkey/activity-engine';
import { createHttpServer, type THttpServerOptions, type TMetrics } from '@latchkey/http';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { adminRouter, type TAdminRouter } from './router.js';
import { registerDashboard } from './static/serve-dashboard.js';
import type { TAdminContext, TAdminServices } from './trpc/context.js';
import { adminErrorShape, appErrorOf } from './trpc/errors.js';

export interface TAdminOptions {
  logger: Logger;
  services: TAdminServices;
  /** The built dashboard's folder; undefined: `/` explains how to build it. */
  dashboardDir?: string | undefined;
  /** The process' metrics (`GET /metrics`); absent: none. */
  metrics?: TMetrics;
  /**
   * The public API's rate limits (LATCHKEY_RATE_LIMIT_*), per client address and per verified
   * credential: the sign-in procedures answer strangers, so they are limited like the API.
   */
  rateLimits?: THttpServerOptions['rateLimits'];
  trustedProxies?: THttpServerOptions['trustedProxies'];
}

export function buildAdmin(o: TAdminOptions): FastifyInstance {
  const app = createHttpServer({
    logger: o.logger,
    ready: o.services.ping,
    ...(o.metrics ? { metrics: o.metrics } : {}),
    ...(o.rateLimits ? { rateLimits: o.rateLimits } : {}),
    ...(o.trustedProxies ? { trustedProxies: o.trustedProxies } : {}),
  });
  registerDashboard(app, o.dashboardDir);
  void app.register(async (scope) => {
    const trpcOptions: FastifyTRPCPluginOptions<TAdminRouter>['trpcOptions'] = {
      router: adminRouter,
      allowMethodOverride: true,
      createContext: ({ req, info }): TAdminContext => {
        const headers: THeaders = { ...req.headers };
        let raw = typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : Buffer.alloc(0);
        if (req.method === 'GET') {
          raw = Buffer.from(new URL(req.url, 'http://admin.invalid').searchParams.get('input') ?? '', 'utf8');
          const stamp = info.connectionParams?.['x-stamp'];
          if (stamp) headers['x-stamp'] = stamp;
        }
        return { services: o.services, headers, raw };
      },
      responseMeta: ({ errors }) => (errors[0] ? { status: adminErrorShape(errors[0]).data.httpStatus } : {}),
      onError: ({ error, req }) => {
        const { appError, unexpected } = appErrorOf(error);
        if (unexpected) req.log.error({ err: error.cause ?? error }, 'unhandled error in an admin procedure');
        else req.log.info({ code: appError.code, status: appError.httpStatus }, appError.message);
      },
    };
    await scope.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions });
  });
  return app;
}
