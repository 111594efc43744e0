import { createConnection, createServer } from 'node:net';
import { AppError } from '@latchkey/domain';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { createHttpServer, rawBody, RETRY_AFTER_SECONDS } from './http-server.js';

const logger = pino({ level: 'silent' });

function app(ready?: () => Promise<void>) {
  const a = createHttpServer({ logger, bodyLimit: 64, ...(ready ? { ready } : {}) });
  a.post('/echo', async (req) => ({ bytes: rawBody(req.body).toString('hex') }));
  a.post('/app-error', async () => {
    throw new AppError('PUBLIC_KEY_NOT_FOUND', 'could not find public key', { publicKey: '02ab' });
  });
  a.post('/crash', async () => {
    throw new Error('secret detail: 0xdeadbeef');
  });
  return a;
}

describe('http server plumbing', () => {
  it('keeps the body as the exact raw bytes, whatever the content type', async () => {
    const body = '{"b":1,  "a":2}';
    for (const ct of ['application/json', 'text/plain', 'application/octet-stream']) {
      const r = await app().inject({ method: 'POST', url: '/echo', payload: body, headers: { 'content-type': ct } });
      expect(r.json()).toEqual({ bytes: Buffer.from(body).toString('hex') });
    }
  });

  it('writes AppErrors as {code, message, details} with the mapped status', async () => {
    const r = await app().inject({ method: 'POST', url: '/app-error' });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({
      code: 16,
      message: 'could not find public key',
      details: [{ '@type': 'type.googleapis.com/errors.v1.TurnkeyErrorDetail', turnkeyErrorCode: 'PUBLIC_KEY_NOT_FOUND', latchkeyErrorCode: 'PUBLIC_KEY_NOT_FOUND', fields: { publicKey: '02ab' } }],
    });
  });

  it('hides the detail of unexpected faults behind a generic 500', async () => {
    const r = await app().inject({ method: 'POST', url: '/crash' });
    expect(r.statusCode).toBe(500);
    expect(r.body).not.toContain('deadbeef');
    expect(r.json()).toMatchObject({ code: 13, message: 'internal server error' });
  });

  it('answers framework errors and unknown routes in the same JSON shape, never redirecting', async () => {
    const big = await app().inject({ method: 'POST', url: '/echo', payload: 'x'.repeat(65), headers: { 'content-type': 'application/json' } });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 3 });
    for (const [method, url] of [['POST', '/nope'], ['GET', '/echo'], ['POST', '/echo/']] as const) {
      const r = await app().inject({ method, url });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json()).toMatchObject({ code: 5, details: [{ turnkeyErrorCode: 'NOT_FOUND' }] });
    }
  });

  it('answers CORS preflights with the stamp headers allowed', async () => {
    const r = await app().inject({ method: 'OPTIONS', url: '/echo', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(String(r.headers['access-control-allow-headers'])).toContain('x-stamp-webauthn');
  });

  it('reports readiness on /healthz', async () => {
    expect((await app(async () => undefined).inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const down = await app(async () => {
      throw new Error('connection refused');
    }).inject({ method: 'GET', url: '/healthz' });
    expect(down.statusCode).toBe(503);
    expect(down.body).not.toContain('connection refused');
  });
});

/** A real socket error: connecting to a port nobody listens on. */
async function refusedConnection(): Promise<Error> {
  const port = await new Promise<number>((res) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => res(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
  return await new Promise<Error>((res) => createConnection({ host: '127.0.0.1', port }).once('error', res));
}

/** pg's DatabaseError for a server ErrorResponse (the fields the recogniser and Prisma's adapter read). */
function pgServerError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'error', code, severity: 'FATAL', length: 116 });
}

/**
 * Prisma 7's wrapping through @prisma/adapter-pg, as captured from real failures: a model query on
 * a server that refuses connections (P1001), and a raw query whose connection was terminated (P2010).
 */
function prismaError(code: string, cause: Record<string, unknown>): Error {
  const driverAdapterError = Object.assign(new Error(String(cause['kind'])), { name: 'DriverAdapterError', cause });
  return Object.assign(new Error('Invalid `prisma.organization.findFirst()` invocation'), { name: 'PrismaClientKnownRequestError', code, clientVersion: '7.10.0', meta: { driverAdapterError } });
}

describe('database unavailable', () => {
  it('answers 503 UNAVAILABLE with Retry-After, without the detail, for every shape of a database that is down', async () => {
    const refused = await refusedConnection();
    expect((refused as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    const cases: [string, unknown][] = [
      ['pg: ECONNREFUSED', refused],
      ['pg: ECONNRESET', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' })],
      ['pg: 57P01 admin_shutdown', pgServerError('57P01', 'terminating connection due to administrator command')],
      ['pg: 57P03 cannot_connect_now', pgServerError('57P03', 'the database system is starting up')],
      ['pg: 08006 connection_failure', pgServerError('08006', 'connection failure')],
      ['pg: socket ended', new Error('Connection terminated unexpectedly')],
      ['pg: reused broken client', new Error('Client has encountered a connection error and is not queryable')],
      ['prisma P1001', prismaError('P1001', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 })],
      ['prisma P2010 / 57P01', prismaError('P2010', { originalCode: '57P01', originalMessage: 'terminating connection due to administrator command', kind: 'postgres', code: '57P01', severity: 'FATAL' })],
      ['prisma P2010 / ConnectionClosed', prismaError('P2010', { kind: 'ConnectionClosed' })],
      ['wrapped by the caller', new Error('outbox batch failed', { cause: new Error('retrying', { cause: refused }) })],
      ['an AggregateError (both address families refused)', new AggregateError([refused, refused], 'connect failed')],
    ];
    for (const [what, fault] of cases) {
      const a = createHttpServer({ logger });
      a.post('/db', async () => {
        throw fault;
      });
      const r = await a.inject({ method: 'POST', url: '/db' });
      expect(r.statusCode, what).toBe(503);
      expect(r.headers['retry-after'], what).toBe(String(RETRY_AFTER_SECONDS));
      expect(r.json(), what).toMatchObject({ code: 14, details: [{ turnkeyErrorCode: 'UNAVAILABLE' }] });
      expect(r.body, what).not.toMatch(/127\.0\.0\.1|administrator|5432/);
    }
  });

  it('leaves other database errors as 500 INTERNAL', () => {
    const others: [string, unknown][] = [
      ['unique violation', prismaError('P2010', { originalCode: '23505', kind: 'UniqueConstraintViolation' })],
      ['syntax error', pgServerError('42601', 'syntax error at or near "SELEC"')],
      ['a bug', new Error('boom')],
      ['a coded error whose message merely looks like a drop', Object.assign(new Error('Connection terminated unexpectedly'), { code: 'XX000' })],
      ['not an object', 'Connection terminated'],
    ];
    for (const [what, e] of others) expect(isDatabaseUnavailable(e), what).toBe(false);
  });

  it('stops at cycles in cause chains', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });

  it('says when to retry on a failed readiness probe', async () => {
    const down = await app(async () => {
      throw new Error('connection refused');
    }).inject({ method: 'GET', url: '/healthz' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
  });
});
