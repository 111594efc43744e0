import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.js';
import { ADMIT_CREDENTIAL, TokenBuckets, clientKey, type TAdmitCredential } from './rate-limit.js';

const logger = pino({ level: 'silent' });

describe('TokenBuckets', () => {
  it('admits a burst, then the rate, and says how long to wait', () => {
    let t = 0;
    const b = new TokenBuckets({ ratePerSecond: 2, burst: 4 }, 100, () => t);
    for (let i = 0; i < 4; i++) expect(b.take('k')).toBe(0);
    expect(b.take('k')).toBe(1); // half a second to the next token, rounded up to a whole second
    t = 500;
    expect(b.take('k')).toBe(0);
    expect(b.take('k')).toBeGreaterThan(0);
    t = 10_000;
    for (let i = 0; i < 4; i++) expect(b.take('k')).toBe(0); // refilled to the burst, no further
    expect(b.take('k')).toBeGreaterThan(0);
    expect(b.take('other')).toBe(0); // keys are independent
  });

  it('tells a slow rate its real wait', () => {
    const b = new TokenBuckets({ ratePerSecond: 0.1, burst: 1 }, 100, () => 0);
    expect(b.take('k')).toBe(0);
    expect(b.take('k')).toBe(10);
  });

  it('keeps at most maxTracked buckets, and sweeps full ones', () => {
    let t = 0;
    const b = new TokenBuckets({ ratePerSecond: 1, burst: 1 }, 3, () => t);
    for (const k of ['a', 'b', 'c', 'd', 'e']) b.take(k);
    expect(b.size).toBe(3);
    t = 20_000;
    b.take('f');
    expect(b.size).toBe(1);
  });
});

describe('clientKey', () => {
  it('keys IPv4 by address, IPv6 by /64, IPv4-mapped as IPv4', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

function app(rateLimits: Parameters<typeof createHttpServer>[0]['rateLimits'], trustedProxies?: string[]) {
  const a = createHttpServer({ logger, ...(rateLimits ? { rateLimits } : {}), ...(trustedProxies ? { trustedProxies } : {}) });
  a.post('/x', async (req) => {
    const admit = (req.headers as Record<symbol, unknown>)[ADMIT_CREDENTIAL] as TAdmitCredential | undefined;
    admit?.('api-key:k1', 'API key k1');
    return { ok: true, hook: admit !== undefined };
  });
  return a;
}

describe('registerRateLimits', () => {
  it('answers 429 RESOURCE_EXHAUSTED naming the per-IP limit, with Retry-After, once the burst is spent', async () => {
    const a = app({ perIp: { ratePerSecond: 1, burst: 2 } });
    expect((await a.inject({ method: 'POST', url: '/x' })).statusCode).toBe(200);
    expect((await a.inject({ method: 'POST', url: '/x' })).statusCode).toBe(200);
    const r = await a.inject({ method: 'POST', url: '/x' });
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.json()).toMatchObject({ code: 8, details: [{ turnkeyErrorCode: 'RESOURCE_EXHAUSTED', latchkeyErrorCode: 'RATE_LIMITED', fields: { limit: 'ip', ratePerSecond: 1, burst: 2 } }] });
    expect(r.json().message).toMatch(/one client address \(127\.0\.0\.1\) may make 1 requests per second \(bursts of 2\)/);
    // Another client is not affected.
    expect((await a.inject({ method: 'POST', url: '/x', remoteAddress: '198.51.100.1' })).statusCode).toBe(200);
  });

  it('charges the credential only through the hook authentication calls, and names the credential', async () => {
    const a = app({ perCredential: { ratePerSecond: 1, burst: 1 } });
    const first = await a.inject({ method: 'POST', url: '/x' });
    expect(first.json()).toEqual({ ok: true, hook: true });
    const r = await a.inject({ method: 'POST', url: '/x', remoteAddress: '198.51.100.2' });
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.json().message).toMatch(/one credential \(API key k1\)/);
  });

  it('installs nothing when both limits are off (0 in the configuration)', async () => {
    const a = app({});
    for (let i = 0; i < 50; i++) expect((await a.inject({ method: 'POST', url: '/x' })).json()).toEqual({ ok: true, hook: false });
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const a = app({ perIp: { ratePerSecond: 1, burst: 1 } }, ['10.0.0.0/8']);
    const viaProxy = (client: string) => a.inject({ method: 'POST', url: '/x', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': client } });
    expect((await viaProxy('203.0.113.1')).statusCode).toBe(200);
    expect((await viaProxy('203.0.113.2')).statusCode).toBe(200); // another client behind the same proxy
    expect((await viaProxy('203.0.113.1')).statusCode).toBe(429);
    // From an untrusted peer the header is ignored: the peer is the client.
    const direct = (client: string) => a.inject({ method: 'POST', url: '/x', remoteAddress: '192.0.2.9', headers: { 'x-forwarded-for': client } });
    expect((await direct('203.0.113.50')).statusCode).toBe(200);
    expect((await direct('203.0.113.51')).statusCode).toBe(429);
  });
});

describe('/readyz', () => {
  it('is 200 when ready, 503 with the reason and Retry-After when not, distinct from /healthz', async () => {
    let reason: string | undefined = 'migrations pending: 0042_x';
    const a = createHttpServer({
      logger,
      ready: async () => undefined,
      readiness: async () => {
        if (reason) throw new Error(reason);
      },
    });
    expect((await a.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const down = await a.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toMatchObject({ code: 14, message: 'not ready: migrations pending: 0042_x' });
    reason = undefined;
    expect((await a.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});
