/**
 * The HTTP plumbing every Latchkey app shares: a fastify instance that keeps request bodies as
 * raw bytes (stamps are verified over them before any parsing), one error handler that is the
 * only writer of error responses (`{code, message, details}`), a JSON 404 for unknown routes,
 * request ids on every log line, permissive CORS for stamp-authenticated browser clients,
 * `GET /healthz` (alive: the database answers) and `GET /readyz` (ready to serve: for the public API,
 * the database answers and its migrations are this build's). A database that cannot be reached is a
 * 503 UNAVAILABLE with Retry-After (the client should come back), not a 500 (a bug); every 503 and
 * every 429 carries Retry-After. Rate limits (rate-limit.ts) and `/metrics` (metrics.ts) are
 * installed here when configured.
 */
import { randomUUID } from 'node:crypto';
import { AppError, ERROR_TABLE, isAppError, type TErrorCode } from '@latchkey/domain';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { registerRateLimits, type TRateLimitOptions } from './rate-limit.js';
import { registerMetrics, type TMetrics } from './metrics.js';
import { lazyChildLoggerFactory } from './request-logger.js';

export interface THttpServerOptions {
  logger: Logger;
  /** Liveness probe behind `/healthz` (e.g. a database ping). */
  ready?: () => Promise<void>;
  /**
   * Readiness probe behind `/readyz`: throws an Error whose message is the reason it is not ready
   * (said in the 503). Absent: `/readyz` answers as `/healthz`.
   */
  readiness?: () => Promise<void>;
  /** Per-IP and per-credential limits (absent or empty: none). */
  rateLimits?: TRateLimitOptions;
  /**
   * Addresses or CIDRs of proxies whose X-Forwarded-For is believed for the client address
   * (`req.ip`, which the per-IP limit keys on). Empty or absent: the socket peer is the client.
   */
  trustedProxies?: string[];
  /** Extra headers browsers may send (CORS). */
  allowHeaders?: string[];
  bodyLimit?: number;
  /** The process' metrics: the request histogram and `GET /metrics` (metrics.ts). Absent: neither. */
  metrics?: TMetrics;
}

/**
 * Seconds a client is told to wait after a 503: long enough for a database restart or failover
 * not to be hammered by every client at once, short enough that a blip costs little.
 */
export const RETRY_AFTER_SECONDS = 5;

/**
 * Where the client address (`req.ip`: the socket peer, or the X-Forwarded-For entry of a trusted
 * proxy — the address the per-IP limit counts) is put on every request's headers, for the
 * engine's IP allowlists. A registry symbol, declared by name on both sides (as ADMIT_CREDENTIAL),
 * so it cannot be forged by a header and the engine imports nothing from here.
 */
export const CLIENT_ADDRESS: unique symbol = Symbol.for('latchkey.clientAddress') as never;

const BASE_ALLOWED_HEADERS = ['content-type', 'x-stamp', 'x-stamp-webauthn', 'x-stamp-attested', 'x-session', 'x-client-version', 'x-request-id'];

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
    // req.log is made on first use: most requests log nothing (request-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    ...(opts.trustedProxies && opts.trustedProxies.length > 0 ? { trustProxy: opts.trustedProxies } : {}),
  };
  const app = Fastify(fastifyOpts) as unknown as FastifyInstance;

  // Bodies stay raw bytes whatever their content type; routes verify then parse them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const allowHeaders = [...BASE_ALLOWED_HEADERS, ...(opts.allowHeaders ?? [])].join(', ');
  // Synchronous hook: it runs on every request. CORS headers only when a browser sends Origin.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    (req.headers as Record<symbol, unknown>)[CLIENT_ADDRESS] = req.ip;
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
    let databaseDown = false;
    if (isAppError(err)) appErr = err;
    else {
      const status = (err as { statusCode?: unknown }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        appErr = new AppError(codeForStatus(status), (err as Error).message);
      } else if (isDatabaseUnavailable(err)) {
        // Expected while PostgreSQL restarts: a warning, and the detail stays in the log.
        databaseDown = true;
        req.log.warn({ err }, 'database unavailable');
        appErr = new AppError('UNAVAILABLE', 'temporarily unavailable: the database cannot be reached; retry later');
      } else {
        req.log.error({ err }, 'unhandled error');
        appErr = new AppError('INTERNAL', 'internal server error');
      }
    }
    const status = ERROR_TABLE[appErr.code].httpStatus;
    if (status >= 500 && !databaseDown) req.log.error({ code: appErr.code }, appErr.message);
    // A flood of 429s must not become a flood of log lines.
    else if (status === 429) req.log.debug({ code: appErr.code, status }, appErr.message);
    else if (status < 500) req.log.info({ code: appErr.code, status }, appErr.message);
    // 503 is "come back later" (RFC 9110 §15.6.4): say when. A 429 says when its bucket has a token.
    if (status === 503) void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    if (status === 429) {
      const wait = appErr.fields?.['retryAfterSeconds'];
      void reply.header('retry-after', String(typeof wait === 'number' ? wait : 1));
    }
    void reply.code(status).header('content-type', 'application/json; charset=utf-8').send(appErr.toBody());
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

  app.get('/readyz', async (_req, reply) => {
    try {
      await (opts.readiness ?? opts.ready)?.();
    } catch (e) {
      throw new AppError('UNAVAILABLE', `not ready: ${opts.readiness ? (e as Error).message : 'the database is unreachable'}`);
    }
    return reply.send({ status: 'ready' });
  });

  if (opts.rateLimits) registerRateLimits(app, opts.rateLimits);
  if (opts.metrics) registerMetrics(app, opts.metrics);

  return app;
}

/** The raw request body (a Buffer; empty when none was sent). */
export function rawBody(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}
