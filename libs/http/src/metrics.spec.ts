import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.js';
import { createMetrics } from './metrics.js';

const logger = pino({ level: 'silent' });
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

/** A real server on a loopback port with one parameterised route. */
async function start(token?: string) {
  const metrics = createMetrics({ service: 'spec', token });
  const app = createHttpServer({ logger, metrics });
  app.get<{ Params: { name: string } }>('/things/:name', async (req) => ({ name: req.params.name }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  stops.push(() => app.close());
  const addr = app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return { app, metrics, base };
}

/** The value of one sample line (`name{labels} value`) of the exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => inside.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('/metrics', () => {
  it('counts requests by route pattern and status, never by raw URL', async () => {
    const { base } = await start();
    for (const n of ['alice', 'bob', 'carol']) expect((await fetch(`${base}/things/${n}`)).status).toBe(200);
    expect((await fetch(`${base}/no/such/${Math.random()}`)).status).toBe(404);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(sample(text, 'latchkey_http_request_duration_seconds_count', { route: '/things/:name', status: '200', method: 'GET', service: 'spec' })).toBe(3);
    expect(sample(text, 'latchkey_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBe(1);
    for (const raw of ['alice', 'bob', 'carol', '/no/such']) expect(text).not.toContain(raw);
    // The default process metrics are there too.
    expect(text).toMatch(/^latchkey_process_resident_memory_bytes\{service="spec"\} \d+/m);
  });

  it('reads a gauge on scrape, not before', async () => {
    const { metrics, base } = await start();
    let reads = 0;
    metrics.gauge({ name: 'spec_depth', help: 'read on scrape', collect() { reads++; this.set(41 + reads); } });
    expect(reads).toBe(0);
    await fetch(`${base}/things/x`);
    expect(reads).toBe(0);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(reads).toBe(1);
    expect(text).toMatch(/^spec_depth\{service="spec"\} 42$/m);
  });

  it('with a token, asks every client for it (401 naming the header) and serves it to the bearer', async () => {
    const token = 'a-metrics-token-of-some-length';
    const { base } = await start(token);
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    const body = (await none.json()) as { message: string; details: Array<{ fields?: Record<string, unknown> }> };
    expect(body.message).toMatch(/Authorization: Bearer/);
    expect(body.details[0]!.fields).toEqual({ field: 'authorization' });
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: token } })).status).toBe(401);
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await ok.text()).not.toContain(token);
  });

  it('without a token, refuses a client that is not on loopback, whatever X-Forwarded-For says', async () => {
    const { app } = await start();
    const far = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(far.statusCode).toBe(403);
    expect(far.json().message).toMatch(/LATCHKEY_METRICS_TOKEN/);
    const near = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::ffff:127.0.0.1' });
    expect(near.statusCode).toBe(200);
  });
});
