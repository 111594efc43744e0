import { AppError } from '@latchkey/domain';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createHttpServer, rawBody } from './http-server.js';

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
