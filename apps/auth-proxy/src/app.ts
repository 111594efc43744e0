/**
 * The auth proxy (managed login/signup for frontends). This issue gives it its process, its
 * health check and the shared error shape; its `/v1/*` flows arrive with the identity issue.
 */
import { createHttpServer } from '@latchkey/http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export function buildAuthProxy(o: { logger: Logger; ready?: () => Promise<void> }): FastifyInstance {
  return createHttpServer({ logger: o.logger, allowHeaders: ['x-auth-proxy-config-id', 'x-captcha-token'], ...(o.ready ? { ready: o.ready } : {}) });
}
