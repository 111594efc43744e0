/** `POST /public/v1/query/<name>` and `POST /public/v1/submit/<name>`. */
import type { TEngine } from '@latchkey/activity-engine';
import { rawBody } from '@latchkey/http';
import type { FastifyInstance } from 'fastify';

export function registerPublicV1Routes(app: FastifyInstance, engine: TEngine): void {
  // The engine's promise is the handler's answer as it is (no async wrapper: one promise less per request).
  app.post<{ Params: { name: string } }>('/public/v1/query/:name', (req) => engine.query(req.params.name, req.headers, rawBody(req.body)));
  app.post<{ Params: { name: string } }>('/public/v1/submit/:name', (req) => engine.submit(req.params.name, req.headers, rawBody(req.body)));
}
