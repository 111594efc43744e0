/**
 * The admin app in process, without a database: health, and that every refusal the transport
 * itself makes (unknown procedure, wrong method, no stamp, a database outage) is rpcStatus-shaped
 * with no stack and no file path. The procedures themselves are tested end to end in test/e2e.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildAdmin } from '../src/app.js';
import type { TAdminServices } from '../src/trpc/context.js';

/** Only `ping` is reached by these requests; anything else would fail the test loudly. */
const services = (ping: () => Promise<void>): TAdminServices =>
  new Proxy({ ping, dataDir: '/nonexistent', publicUrl: 'http://127.0.0.1:1' } as TAdminServices, {
    get(target, key) {
      if (key in target) return target[key as keyof TAdminServices];
      throw new Error(`unexpected use of services.${String(key)}`);
    },
  });
const admin = (ping: () => Promise<void> = async () => undefined) => buildAdmin({ logger: pino({ level: 'silent' }), services: services(ping) });
const noLeak = (text: string) => {
  expect(text).not.toMatch(/file:\/\/|\/work\/|node_modules|\bat [A-Za-z.]+ \(|stack/);
};

describe('admin app', () => {
  it('serves the tRPC health procedure and /healthz', async () => {
    const app = admin();
    const r = await app.inject({ method: 'GET', url: '/trpc/health' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ result: { data: { status: 'ok' } } });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers a database outage as an rpcStatus error without a stack', async () => {
    const app = admin(async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    const r = await app.inject({ method: 'GET', url: '/trpc/health' });
    expect(r.statusCode).toBe(503);
    expect(r.json().error).toMatchObject({ code: 14, data: { latchkeyCode: 'UNAVAILABLE', httpStatus: 503 } });
    noLeak(r.body);
  });

  it('answers an unexpected fault with INTERNAL and no detail', async () => {
    const app = admin(async () => {
      throw new Error('secret detail at /work/main/x.ts');
    });
    const r = await app.inject({ method: 'GET', url: '/trpc/health' });
    expect(r.statusCode).toBe(500);
    expect(r.json().error).toMatchObject({ code: 13, message: 'internal server error' });
    noLeak(r.body);
  });

  it('answers unknown procedures and GET /trpc/ with 404 {code, message}, no stack or path', async () => {
    const app = admin();
    const r = await app.inject({ method: 'POST', url: '/trpc/nope', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toMatchObject({ code: 5, message: 'no such procedure' });
    noLeak(r.body);
    const root = await app.inject({ method: 'GET', url: '/trpc/' });
    expect(root.statusCode).toBe(404);
    expect(root.json().error).toMatchObject({ code: 5, message: 'no such procedure' });
    noLeak(root.body);
  });

  it('refuses an unstamped call before parsing its input, and a GET query carrying no body', async () => {
    const app = admin();
    const r = await app.inject({ method: 'POST', url: '/trpc/wallets.list', payload: '{"organizationId":"x"}', headers: { 'content-type': 'application/json' } });
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toMatchObject({ code: 16, data: { latchkeyCode: 'SIGNATURE_MISSING' } });
    const get = await app.inject({ method: 'GET', url: '/trpc/wallets.list?input=%7B%7D', headers: { 'x-stamp': 'e30' } });
    expect(get.statusCode).toBe(400);
    noLeak(get.body);
  });

  it('answers / with 503 naming the build step when the dashboard is not built', async () => {
    const r = await admin().inject({ method: 'GET', url: '/' });
    expect(r.statusCode).toBe(503);
    expect(r.json().message).toMatch(/npm run build/);
  });
});
