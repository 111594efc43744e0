/** The admin app: tRPC over fastify at `/trpc`, plus `/healthz`. */
import { createHttpServer } from '@latchkey/http';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { adminRouter, type TAdminContext } from './router.js';

export function buildAdmin(o: { logger: Logger; ping: () => Promise<void> }): FastifyInstance {
  const app = createHttpServer({ logger: o.logger, ready: o.ping });
  // tRPC parses its own JSON bodies: give it a parser in this encapsulated scope only.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, body === '' ? undefined : JSON.parse(body as string));
      } catch {
        const err = new Error('request body is not valid JSON') as Error & { statusCode: number };
        err.statusCode = 400;
        done(err, undefined);
      }
    });
    await scope.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: { router: adminRouter, createContext: (): TAdminContext => ({ ping: o.ping }) },
    });
  });
  return app;
}
