/**
 * Operability (issue 17): `/metrics` on each app's own port and the OpenAPI document, against a
 * real Latchkey (all four apps, LATCHKEY_METRICS_TOKEN set) driven by the unmodified
 * `@turnkey/sdk-server`, and a real webhook receiver that accepts one endpoint's deliveries and
 * fails the other's.
 * - Requests are counted by route pattern and status — never the raw URL, an organization or a key.
 * - An activity moves `latchkey_activities_total{type,status}`; webhook attempts and failures, the
 *   pool, the outbox and the auth cache are there, on the app that owns them.
 * - `/metrics` asks every client for the bearer token when one is configured.
 * - `/openapi.json` is a valid OpenAPI 3.1 document (the official schema) whose paths are exactly
 *   the routes and operations served: each documented operation answers (never "no such endpoint").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ACTIVITY_DEFINITIONS, QUERY_DEFINITIONS } from '@latchkey/activity-engine';
import { freePort } from '@latchkey/persistence';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, uniqueName, waitForHealthz } from './e2e-helpers.js';
import { policyE2e } from './policy-e2e-helpers.js';

const TOKEN = 'e2e-metrics-token-0123456789';
let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let workerUrl: string;
let receiver: Server;
let receiverUrl: string;
/** Every delivery the receiver answered: its path and the activity in its body. */
const received: { path: string; activityId: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', activityId: (JSON.parse(Buffer.concat(chunks).toString()) as { id?: string }).id ?? '' });
      res.writeHead(req.url === '/fail' ? 500 : 200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const workerPort = await freePort();
  workerUrl = `http://127.0.0.1:${workerPort}`;
  latchkey = await startLatchkey({
    apps: ['public-api', 'auth-proxy', 'admin', 'webhook-worker'],
    // Four apps on a busy two-core machine take a while to come up.
    timeoutMs: 240_000,
    env: {
      LATCHKEY_METRICS_TOKEN: TOKEN,
      LATCHKEY_WEBHOOK_WORKER_PORT: String(workerPort),
      LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      LATCHKEY_WEBHOOK_RETRY_BASE_MS: '20',
      LATCHKEY_WEBHOOK_RETRY_MAX_MS: '40',
      LATCHKEY_WEBHOOK_MAX_ATTEMPTS: '2',
      LATCHKEY_WEBHOOK_POLL_MS: '200',
    },
  });
  e2e = policyE2e(latchkey);
  // startLatchkey resolves once the apps clients call are up; the worker starts just after them.
  await waitForHealthz(workerUrl, { name: 'the webhook worker', timeoutMs: 120_000, output: () => latchkey.output() });
}, 300_000);

afterAll(async () => {
  await latchkey?.stop();
  await new Promise((r) => receiver?.close(r));
});

async function scrape(base: string): Promise<string> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

/** Sum of the samples of `name` whose labels include all of `labels` (0 when none). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const inside = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => inside.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const REQUESTS = 'latchkey_http_request_duration_seconds_count';

describe('/metrics', () => {
  it('counts whoami under its route pattern and status, and names no organization, user or key', async () => {
    const before = await scrape(latchkey.baseUrl);
    const sdk = e2e.sdk(e2e.rootKey);
    for (let i = 0; i < 3; i++) await sdk.getWhoami({});
    const after = await scrape(latchkey.baseUrl);
    const labels = { service: 'public-api', method: 'POST', route: '/public/v1/query/:name', status: '200' };
    expect(value(after, REQUESTS, labels) - value(before, REQUESTS, labels)).toBe(3);
    expect(after).not.toMatch(/route="[^"]*whoami/);
    for (const secret of [e2e.orgId, e2e.rootKey.publicKey, TOKEN]) expect(after).not.toContain(secret);
    // Served from the auth cache once warm: the organization and key maps are hit.
    expect(value(after, 'latchkey_auth_cache_lookups_total', { cache: 'organizations', result: 'hit' })).toBeGreaterThan(value(before, 'latchkey_auth_cache_lookups_total', { cache: 'organizations', result: 'hit' }));
    expect(value(after, 'latchkey_auth_cache_lookups_total', { cache: 'api_keys', result: 'hit' })).toBeGreaterThanOrEqual(2);
  });

  it('counts a refusal under its status, and an unknown path as unmatched, never its URL', async () => {
    const before = await scrape(latchkey.baseUrl);
    const unstamped = await rawRequest(`${latchkey.baseUrl}/public/v1/query/whoami`, { body: JSON.stringify({ organizationId: e2e.orgId }), headers: { 'content-type': 'application/json' } });
    expect(unstamped.status).toBe(401);
    const nowhere = await rawRequest(`${latchkey.baseUrl}/no-such-thing-${Date.now()}`, { method: 'GET' });
    expect(nowhere.status).toBe(404);
    const after = await scrape(latchkey.baseUrl);
    const refused = { route: '/public/v1/query/:name', status: '401' };
    expect(value(after, REQUESTS, refused) - value(before, REQUESTS, refused)).toBe(1);
    expect(value(after, REQUESTS, { route: 'unmatched', status: '404' }) - value(before, REQUESTS, { route: 'unmatched', status: '404' })).toBe(1);
    expect(after).not.toContain('no-such-thing');
  });

  it('counts an activity by type and status; the worker counts delivered and failed webhook attempts', async () => {
    const sdk = e2e.sdk(e2e.rootKey);
    await sdk.createWebhookEndpoint({ name: 'ok', url: `${receiverUrl}/ok`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{}' }] });
    await sdk.createWebhookEndpoint({ name: 'fail', url: `${receiverUrl}/fail`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{}' }] });
    const created = { type: 'ACTIVITY_TYPE_CREATE_WALLET', status: 'ACTIVITY_STATUS_COMPLETED' };
    const before = await scrape(latchkey.baseUrl);
    const workerBefore = await scrape(workerUrl);
    const wallet = await sdk.createWallet({ walletName: uniqueName('metrics'), accounts: [] });
    const after = await scrape(latchkey.baseUrl);
    expect(value(after, 'latchkey_activities_total', created) - value(before, 'latchkey_activities_total', created)).toBe(1);
    // One event, two endpoints: a 2xx for one; for the other a 5xx retried once, then given up on.
    const attempts = (t: string, outcome: string, status_class: string) => value(t, 'latchkey_webhook_attempts_total', { outcome, status_class });
    const grew = (after: string, outcome: string, status_class: string) => attempts(after, outcome, status_class) - attempts(workerBefore, outcome, status_class);
    // This wallet's event reaches both endpoints: once on /ok, twice (first try and retry) on /fail.
    const deliveries = (path: string) => received.filter((r) => r.path === path && r.activityId === wallet.activity.id).length;
    await until('both endpoints to receive the wallet event', async () => deliveries('/ok') === 1 && deliveries('/fail') === 2);
    // The endpoints' own creation events may still be in flight when `workerBefore` is read, so the
    // counters can move in any order (one run saw the earlier event's give-up before this wallet's
    // 2xx): wait for all three outcomes, not for the last one expected.
    let workerAfter = '';
    await until('the worker to record the deliveries', async () => {
      workerAfter = await scrape(workerUrl);
      return grew(workerAfter, 'delivered', '2xx') >= 1 && grew(workerAfter, 'retry', '5xx') >= 1 && grew(workerAfter, 'dead', '5xx') >= 1;
    });
    expect(grew(workerAfter, 'delivered', '2xx')).toBeGreaterThanOrEqual(1);
    expect(grew(workerAfter, 'retry', '5xx')).toBeGreaterThanOrEqual(1);
    expect(grew(workerAfter, 'dead', '5xx')).toBeGreaterThanOrEqual(1);
    expect(workerAfter).toMatch(/^latchkey_webhook_attempts_total\{outcome="delivered",status_class="2xx",service="webhook-worker"\} \d+$/m);
  });

  it('reports the pool and the outbox on scrape, from the public API and the worker', async () => {
    for (const [base, service] of [[latchkey.baseUrl, 'public-api'], [workerUrl, 'webhook-worker']] as const) {
      const text = await scrape(base);
      expect(value(text, 'latchkey_db_pool_max', { service })).toBeGreaterThan(0);
      expect(text).toMatch(new RegExp(`^latchkey_db_pool_connections\\{state="idle",service="${service}"\\} \\d+$`, 'm'));
      expect(text).toMatch(new RegExp(`^latchkey_outbox_depth\\{service="${service}"\\} \\d+$`, 'm'));
      expect(text).toMatch(new RegExp(`^latchkey_outbox_oldest_age_seconds\\{service="${service}"\\} [\\d.e+-]+$`, 'm'));
    }
    expect((await fetch(`${workerUrl}/healthz`)).status).toBe(200);
  });

  it('is served by every app on its own port, each asking for the bearer token', async () => {
    for (const [base, service] of [[latchkey.baseUrl, 'public-api'], [latchkey.authProxyUrl, 'auth-proxy'], [latchkey.adminUrl, 'admin'], [workerUrl, 'webhook-worker']] as const) {
      const refused = await fetch(`${base}/metrics`);
      expect(refused.status, service).toBe(401);
      expect(((await refused.json()) as { message: string }).message).toMatch(/Authorization: Bearer/);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status, service).toBe(401);
      const text = await scrape(base);
      expect(text, service).toMatch(new RegExp(`^latchkey_process_resident_memory_bytes\\{service="${service}"\\} \\d+`, 'm'));
      expect(text).not.toContain(TOKEN);
    }
  });
});

describe('/openapi.json', () => {
  type TDoc = { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
  let doc: TDoc;

  beforeAll(async () => {
    const res = await fetch(`${latchkey.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as TDoc;
  });

  it('is a valid OpenAPI 3.1 document (the official schema, every $ref resolved)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents every activity and query the engine serves, and the app’s own routes', () => {
    const paths = Object.keys(doc.paths);
    for (const d of ACTIVITY_DEFINITIONS) expect(paths).toContain(`/public/v1/submit/${d.path}`);
    for (const q of QUERY_DEFINITIONS) expect(paths).toContain(`/public/v1/query/${q.path}`);
    for (const p of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/.well-known/latchkey.json', '/public/v1/discovery/webhooks/jwks']) expect(paths).toContain(p);
  });

  it('every documented path is served: a stamped POST is never "unknown", a GET never 404', async () => {
    const stamper = new ApiKeyStamper({ apiPublicKey: e2e.rootKey.publicKey, apiPrivateKey: e2e.rootKey.privateKey });
    // The control: an undocumented engine path is refused as unknown, so the check below can fail.
    const control = JSON.stringify({ organizationId: e2e.orgId });
    const { stampHeaderName, stampHeaderValue } = await stamper.stamp(control);
    const unknown = await rawRequest(`${latchkey.baseUrl}/public/v1/query/no_such_query`, { body: control, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
    expect(unknown.status).toBe(404);
    for (const [path, item] of Object.entries(doc.paths)) {
      if (item['get']) {
        const res = await fetch(`${latchkey.baseUrl}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.status, path).not.toBe(404);
      }
      if (item['post'] && path.startsWith('/public/v1/')) {
        // An empty body aimed at our organization: refused as a bad request, never as an unknown endpoint.
        const body = JSON.stringify({ organizationId: e2e.orgId });
        const s = await stamper.stamp(body);
        const res = await rawRequest(`${latchkey.baseUrl}${path}`, { body, headers: { 'content-type': 'application/json', [s.stampHeaderName]: s.stampHeaderValue } });
        expect(res.status, `${path}: ${res.text}`).toBeLessThan(500);
        expect(res.text, path).not.toMatch(/unknown (query|activity) endpoint|no such endpoint/);
      }
    }
  });
});
