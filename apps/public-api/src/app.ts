/**
 * The public API: Turnkey's wire protocol. Routes only hand the raw request to the engine and
 * serialise what comes back; every rule lives in @latchkey/activity-engine.
 */
import type { TEngine, TServerPublicKeys } from '@latchkey/activity-engine';
import { createHttpServer } from '@latchkey/http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerPublicV1Routes } from './routes/public-v1.js';
import { registerWellKnownRoute } from './routes/well-known.js';

export interface TPublicApiOptions {
  engine: TEngine;
  serverKeys: TServerPublicKeys;
  logger: Logger;
  /** The issuer URL of Latchkey's own OIDC tokens (TConfig.publicUrl). */
  issuer: string;
  ready?: () => Promise<void>;
}

export function buildPublicApi(o: TPublicApiOptions): FastifyInstance {
  const app = createHttpServer({ logger: o.logger, ...(o.ready ? { ready: o.ready } : {}) });
  registerPublicV1Routes(app, o.engine);
  registerWellKnownRoute(app, o.serverKeys, o.issuer);
  return app;
}
