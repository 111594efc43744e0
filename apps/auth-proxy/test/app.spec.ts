/** The proxy's HTTP surface in process: health, preflight, the refusals made before anything is forwarded. */
import { AppError } from '@latchkey/domain';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildAuthProxy } from '../src/app.js';
import { createCaptcha, createRateLimiter } from '../src/guards.js';
import { createPublicApiClient } from '../src/public-api-client.js';

const proxy = () =>
  buildAuthProxy({
    logger: pino({ level: 'silent' }),
    ready: async () => undefined,
    deps: {
      // No public API behind this one: every config id is unknown, as the public API would say.
      configs: async (id) => {
        throw new AppError('NOT_FOUND', `auth proxy config not found or disabled: ${id}`, { configId: id });
      },
      api: createPublicApiClient('http://127.0.0.1:9'),
      limits: createRateLimiter(),
      captcha: createCaptcha({ secret: undefined, verifyUrl: 'http://127.0.0.1:9' }),
    },
  });

describe('auth proxy', () => {
  it('answers /healthz', async () => {
    const r = await proxy().inject({ method: 'GET', url: '/healthz' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown config id with a 404 rpcStatus naming it', async () => {
    const r = await proxy().inject({ method: 'POST', url: '/v1/signup_v2', payload: '{}', headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': 'cfg-x' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ code: 5, message: expect.stringContaining('cfg-x') });
  });

  it('requires the config id header, and POST', async () => {
    const r = await proxy().inject({ method: 'POST', url: '/v1/otp_init_v2', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/X-Auth-Proxy-Config-ID/);
    expect((await proxy().inject({ method: 'GET', url: '/v1/otp_init_v2' })).statusCode).toBe(404);
  });

  it('answers any preflight with the headers a browser may send', async () => {
    const r = await proxy().inject({ method: 'OPTIONS', url: '/v1/otp_init', headers: { origin: 'https://app.example' } });
    expect(r.statusCode).toBe(204);
    for (const h of ['content-type', 'x-auth-proxy-config-id', 'x-captcha-token']) expect(String(r.headers['access-control-allow-headers'])).toContain(h);
  });
});
