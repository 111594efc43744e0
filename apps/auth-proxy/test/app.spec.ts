import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildAuthProxy } from '../src/app.js';

const proxy = () => buildAuthProxy({ logger: pino({ level: 'silent' }), ready: async () => undefined });

describe('auth proxy', () => {
  it('answers /healthz', async () => {
    const r = await proxy().inject({ method: 'GET', url: '/healthz' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok' });
  });

  it('answers flows it does not serve yet with a JSON 404, not a crash', async () => {
    const r = await proxy().inject({ method: 'POST', url: '/v1/signup', payload: '{}', headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': 'x' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ code: 5 });
  });

  it('lets browsers send the proxy config header', async () => {
    const r = await proxy().inject({ method: 'OPTIONS', url: '/v1/otp_init', headers: { origin: 'https://app.example' } });
    expect(r.statusCode).toBe(204);
    expect(String(r.headers['access-control-allow-headers'])).toContain('x-auth-proxy-config-id');
  });
});
