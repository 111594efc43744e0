/**
 * Issue 17 finding 4, the limits: the real launcher started with tiny rates through the
 * environment (LATCHKEY_RATE_LIMIT_KEY_RPS=1, so a burst of 2; LATCHKEY_RATE_LIMIT_IP_RPS=10, a
 * burst of 20 — every request here comes from 127.0.0.1), then once more with both at 0.
 *
 * - Past its burst a credential gets 429 RESOURCE_EXHAUSTED with Retry-After and a message naming
 *   the limit, and is served again once the bucket has refilled.
 * - Someone who only names that credential's public key (a bad signature) spends nothing of it.
 * - Past the per-IP burst even unstamped requests get 429 naming the address; it refills too.
 * - 0 disables both.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorResponse, rawRequest, type TRawResponse } from './e2e-helpers.js';

let lk: TLatchkey;
let stamper: ApiKeyStamper;
let body: string;

beforeAll(async () => {
  lk = await startLatchkey({ apps: ['public-api'], env: { LATCHKEY_RATE_LIMIT_KEY_RPS: '1', LATCHKEY_RATE_LIMIT_IP_RPS: '10' } });
  stamper = new ApiKeyStamper({ apiPublicKey: lk.bootstrap.apiPublicKey, apiPrivateKey: lk.bootstrap.apiPrivateKey! });
  body = JSON.stringify({ organizationId: lk.bootstrap.organizationId });
});

afterAll(async () => {
  await lk?.stop();
});

async function whoami(baseUrl: string, opts: { forged?: boolean } = {}): Promise<TRawResponse> {
  const { stampHeaderName, stampHeaderValue } = await stamper.stamp(opts.forged ? '{"organizationId":"elsewhere"}' : body);
  return rawRequest(`${baseUrl}/public/v1/query/whoami`, { body, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fieldsOf = (res: TRawResponse) => (res.json as { details: Array<{ fields?: Record<string, unknown> }> }).details[0]?.fields;

describe('rate limits (LATCHKEY_RATE_LIMIT_KEY_RPS=1, LATCHKEY_RATE_LIMIT_IP_RPS=10)', () => {
  it('429 for a credential past its burst, with Retry-After and the limit named; served again after the refill; strangers naming its key spend nothing', async () => {
    await sleep(2100); // both buckets full, whatever start-up spent
    expect((await whoami(lk.baseUrl)).status).toBe(200);
    expect((await whoami(lk.baseUrl)).status).toBe(200);
    const limited = await whoami(lk.baseUrl);
    const err = expectErrorResponse(limited, 429, 8, 'RESOURCE_EXHAUSTED');
    expect(err.message).toMatch(/^rate limit exceeded: one credential \(API key [^)]+\) may make 1 requests per second \(bursts of 2\)/);
    expect(fieldsOf(limited)).toMatchObject({ limit: 'credential', ratePerSecond: 1, burst: 2 });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);

    await sleep(retryAfter * 1000 + 100);
    expect((await whoami(lk.baseUrl)).status).toBe(200);

    // Bad signatures under the same public key: refused as such, and the bucket is not touched.
    await sleep(2100);
    for (let i = 0; i < 5; i++) expectErrorResponse(await whoami(lk.baseUrl, { forged: true }), 401, 16, 'SIGNATURE_INVALID');
    expect((await whoami(lk.baseUrl)).status).toBe(200);
    expect((await whoami(lk.baseUrl)).status).toBe(200);
  });

  it('429 for a client address past its burst, stamped or not, naming the address; served again after the refill', async () => {
    await sleep(2100);
    const statuses: number[] = [];
    let limited: TRawResponse | undefined;
    for (let i = 0; i < 25 && !limited; i++) {
      const res = await rawRequest(`${lk.baseUrl}/public/v1/query/whoami`, { body, headers: { 'content-type': 'application/json' } });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    // 20 (the burst) plus what refilled meanwhile were refused for the missing stamp, then 429.
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(20);
    const err = expectErrorResponse(limited!, 429, 8, 'RESOURCE_EXHAUSTED');
    expect(err.message).toMatch(/^rate limit exceeded: one client address \(127\.0\.0\.1\) may make 10 requests per second \(bursts of 20\)/);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await sleep(Number(limited!.headers.get('retry-after')) * 1000 + 100);
    expect((await whoami(lk.baseUrl)).status).toBe(200);
  });
});

describe('rate limits at 0', () => {
  it('LATCHKEY_RATE_LIMIT_KEY_RPS=0 and LATCHKEY_RATE_LIMIT_IP_RPS=0 disable both', async () => {
    const off = await startLatchkey({ apps: ['public-api'], env: { LATCHKEY_RATE_LIMIT_KEY_RPS: '0', LATCHKEY_RATE_LIMIT_IP_RPS: '0' } });
    try {
      const s = new ApiKeyStamper({ apiPublicKey: off.bootstrap.apiPublicKey, apiPrivateKey: off.bootstrap.apiPrivateKey! });
      const b = JSON.stringify({ organizationId: off.bootstrap.organizationId });
      const stamped = await Promise.all(Array.from({ length: 300 }, () => s.stamp(b)));
      const statuses = await Promise.all(
        stamped.map(({ stampHeaderName, stampHeaderValue }) =>
          rawRequest(`${off.baseUrl}/public/v1/query/whoami`, { body: b, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((x) => x !== 200)).toEqual([]);
    } finally {
      await off.stop();
    }
  });
});
