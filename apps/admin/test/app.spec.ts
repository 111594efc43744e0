import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildAdmin } from '../src/app.js';

describe('admin', () => {
  it('serves the tRPC health procedure and /healthz', async () => {
    const app = buildAdmin({ logger: pino({ level: 'silent' }), ping: async () => undefined });
    const r = await app.inject({ method: 'GET', url: '/trpc/health' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ result: { data: { status: 'ok' } } });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('reports a database outage through tRPC as an error, not a crash', async () => {
    const app = buildAdmin({
      logger: pino({ level: 'silent' }),
      ping: async () => {
        throw new Error('down');
      },
    });
    const r = await app.inject({ method: 'GET', url: '/trpc/health' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toHaveProperty('error');
  });

  it('answers unknown procedures with 404', async () => {
    const app = buildAdmin({ logger: pino({ level: 'silent' }), ping: async () => undefined });
    expect((await app.inject({ method: 'GET', url: '/trpc/nope' })).statusCode).toBe(404);
  });
});
