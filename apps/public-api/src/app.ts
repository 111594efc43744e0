/**
 * The public API: Turnkey's wire protocol. Routes only hand the raw request to the engine and
 * serialise what comes back; every rule lives in @latchkey/activity-engine.
 */
import type { TAuthProxyRuntimeReader, TEngine, TServerPublicKeys } from '@latchkey/activity-engine';
import type { TWebhookSigningKeyRepository } from '@latchkey/persistence';
import { createHttpServer, type THttpServerOptions } from '@latchkey/http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerPublicV1Routes } from './routes/public-v1.js';
import { registerWellKnownRoute } from './routes/well-known.js';
import { registerWebhookJwksRoute } from './routes/webhooks-jwks.js';
import { registerAuthProxyInternalRoute } from './routes/auth-proxy-internal.js';
import { publicApiExtraRoutes, registerOpenApi } from './plugins/openapi.js';

export interface TPublicApiOptions {
  engine: TEngine;
  serverKeys: TServerPublicKeys;
  logger: Logger;
  /** The issuer URL of Latchkey's own OIDC tokens (TConfig.publicUrl). */
  issuer: string;
  ready?: () => Promise<void>;
  /** Readiness (/readyz), rate limits and trusted proxies, handed to the HTTP server as they are. */
  http?: Omit<THttpServerOptions, 'logger' | 'ready'>;
  /** The webhook signing keys, published at /public/v1/discovery/webhooks/jwks. */
  webhookKeys?: TWebhookSigningKeyRepository;
  /** What the auth proxy process reads of its configs (`POST /internal/v1/auth_proxy_config`). */
  authProxyRuntime?: TAuthProxyRuntimeReader;
}

export function buildPublicApi(o: TPublicApiOptions): FastifyInstance {
  const app = createHttpServer({ logger: o.logger, ...(o.ready ? { ready: o.ready } : {}), ...o.http });
  registerPublicV1Routes(app, o.engine);
  registerWellKnownRoute(app, o.serverKeys, o.issuer);
  if (o.webhookKeys) registerWebhookJwksRoute(app, o.webhookKeys);
  if (o.authProxyRuntime) registerAuthProxyInternalRoute(app, o.authProxyRuntime);
  registerOpenApi(app, {
    // The public URL clients use: the OIDC issuer is exactly that (TConfig.publicUrl).
    serverUrl: o.issuer,
    extraRoutes: publicApiExtraRoutes({ metrics: o.http?.metrics !== undefined, webhookKeys: o.webhookKeys !== undefined, authProxyRuntime: o.authProxyRuntime !== undefined }),
  });
  return app;
}
