/**
 * The auth proxy (notes §A): frontends built on `@turnkey/core` / `@turnkey/react-wallet-kit` sign
 * up and log in through it with no API key in the browser. It is an HTTP client of the public API:
 * it opens no database and no engine; each call becomes a stamped activity of the config's proxy
 * user (routes/v1.ts).
 */
import { createHttpServer, type TMetrics } from '@latchkey/http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { CAPTCHA_HEADER, CONFIG_ID_HEADER } from './guards.js';
import { registerProxyV1Routes, type TProxyDeps } from './routes/v1.js';

export function buildAuthProxy(o: { logger: Logger; ready?: () => Promise<void>; deps?: TProxyDeps; trustedProxies?: string[]; metrics?: TMetrics }): FastifyInstance {
  const app = createHttpServer({
    logger: o.logger,
    // A preflight carries no config id: it is answered for any origin; the request that follows is where the config's origins hold.
    allowHeaders: [CONFIG_ID_HEADER, CAPTCHA_HEADER],
    ...(o.ready ? { ready: o.ready } : {}),
    ...(o.trustedProxies ? { trustedProxies: o.trustedProxies } : {}),
    ...(o.metrics ? { metrics: o.metrics } : {}),
  });
  if (o.deps) registerProxyV1Routes(app, o.deps);
  return app;
}
