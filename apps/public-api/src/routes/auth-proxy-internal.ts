/**
 * `POST /internal/v1/auth_proxy_config`: the auth proxy process reads a config and its proxy user's
 * sealed key here (the reader checks that the request is sealed by this installation's master key).
 * Not under /public: no Turnkey client calls it.
 */
import type { TAuthProxyRuntimeReader } from '@latchkey/activity-engine';
import { AUTH_PROXY_INTERNAL_PATH } from '@latchkey/domain';
import { rawBody } from '@latchkey/http';
import type { FastifyInstance } from 'fastify';

export function registerAuthProxyInternalRoute(app: FastifyInstance, read: TAuthProxyRuntimeReader): void {
  app.post(AUTH_PROXY_INTERNAL_PATH, async (req) => read(req.headers, rawBody(req.body)));
}
