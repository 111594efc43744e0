/** `POST /public/v1/query/<name>` and `POST /public/v1/submit/<name>`. */
import type { TEngine } from '@latchkey/activity-engine';
import { rawBody } from '@latchkey/http';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';

export function registerPublicV1Routes(app: FastifyInstance, engine: TEngine): void {
  // Before the body is read (after the shared hooks: request id, CORS, the per-IP limit): a stamp
  // by a public key the engine already knows nobody holds is refused with the engine's own error.
  const refuseCachedStranger: onRequestHookHandler = (req, _reply, done) => {
    const refusal = engine.refuseCachedStranger(req.headers);
    if (refusal) done(refusal as Error as Parameters<typeof done>[0]);
    else done();
  };
  // The engine's promise is the handler's answer as it is (no async wrapper: one promise less per request).
  app.post<{ Params: { name: string } }>('/public/v1/query/:name', { onRequest: refuseCachedStranger }, (req) => engine.query(req.params.name, req.headers, rawBody(req.body)));
  app.post<{ Params: { name: string } }>('/public/v1/submit/:name', { onRequest: refuseCachedStranger }, (req) => engine.submit(req.params.name, req.headers, rawBody(req.body)));
}
