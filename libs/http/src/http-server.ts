/**
 * The HTTP plumbing every Latchkey app shares: a fastify instance that keeps request bodies as
 * raw bytes (stamps are verified over them before any parsing), one error handler that is the
 * only writer of error responses (`{code, message, details}`), a JSON 404 for unknown routes,
 * request ids on every log line, permissive CORS for stamp-authenticated browser clients, and
 * `GET /healthz`.
 */
import { randomUUID } from 'node:crypto';
import { AppError, ERROR_TABLE, isAppError, type TErrorCode } from '@latchkey/domain';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

export interface THttpServerOptions {
  logger: Logger;
  /** Readiness probe behind `/healthz` (e.g. a database ping). */
  ready?: () => Promise<void>;
  /** Extra headers browsers may send (CORS). */
  allowHeaders?: string[];
  bodyLimit?: number;
}

const BASE_ALLOWED_HEADERS = ['content-type', 'x-stamp', 'x-stamp-webauthn', 'x-stamp-attested', 'x-client-version', 'x-request-id'];

/** Maps a framework error (bad content length, body too large…) onto our codes by status. */
function codeForStatus(status: number): TErrorCode {
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}

export function createHttpServer(opts: THttpServerOptions): FastifyInstance {
  const fastifyOpts: FastifyServerOptions = {
    loggerInstance: opts.logger,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    return503OnClosing: true,
  };
  const app = Fastify(fastifyOpts) as unknown as FastifyInstance;

  // Bodies stay raw bytes whatever their content type; routes verify then parse them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const allowHeaders = [...BASE_ALLOWED_HEADERS, ...(opts.allowHeaders ?? [])].join(', ');
  // Synchronous hook: it runs on every request. CORS headers only when a browser sends Origin.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    const origin = req.headers.origin;
    if (origin !== undefined) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    if (req.method === 'OPTIONS') {
      reply
        .header('access-control-allow-origin', origin ?? '*')
        .header('access-control-allow-methods', 'GET, POST, OPTIONS')
        .header('access-control-allow-headers', allowHeaders)
        .header('access-control-max-age', '600')
        .code(204)
        .send();
      return;
    }
    done();
  });

  app.setErrorHandler((err: unknown, req, reply) => {
    let appErr: AppError;
    if (isAppError(err)) appErr = err;
    else {
      const status = (err as { statusCode?: unknown }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        appErr = new AppError(codeForStatus(status), (err as Error).message);
      } else {
        req.log.error({ err }, 'unhandled error');
        appErr = new AppError('INTERNAL', 'internal server error');
      }
    }
    if (appErr.httpStatus >= 500) req.log.error({ code: appErr.code }, appErr.message);
    else req.log.info({ code: appErr.code, status: appErr.httpStatus }, appErr.message);
    void reply.code(ERROR_TABLE[appErr.code].httpStatus).header('content-type', 'application/json; charset=utf-8').send(appErr.toBody());
  });

  app.setNotFoundHandler((req, reply) => {
    const e = new AppError('NOT_FOUND', `no such endpoint: ${req.method} ${req.url.split('?')[0]}`);
    void reply.code(404).send(e.toBody());
  });

  app.get('/healthz', async (_req, reply) => {
    try {
      await opts.ready?.();
    } catch {
      throw new AppError('UNAVAILABLE', 'not ready: the database is unreachable');
    }
    return reply.send({ status: 'ok' });
  });

  return app;
}

/** The raw request body (a Buffer; empty when none was sent). */
export function rawBody(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}
