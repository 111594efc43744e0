/** `POST /public/v1/query/<name>` and `POST /public/v1/submit/<name>`. */
import type { TEngine } from '@latchkey/activity-engine';
import { rawBody } from '@latchkey/http';
import type { FastifyInstance } from 'fastify';

export function registerPublicV1Routes(app: FastifyInstance, engine: TEngine): void {
  app.post<{ Params: { name: string } }>('/public/v1/query/:name', async (req) => engine.query(req.params.name, req.headers, rawBody(req.body)));
  app.post<{ Params: { name: string } }>('/public/v1/submit/:name', async (req) => engine.submit(req.params.name, req.headers, rawBody(req.body)));
}
