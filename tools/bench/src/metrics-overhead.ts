/**
 * What `/metrics` costs the hot path: stamped `whoami` throughput of two Latchkeys started the same
 * way, one with LATCHKEY_METRICS=on (the request histogram's onResponse hook, the activity
 * observer, the gauges) and one with LATCHKEY_METRICS=off, in alternating rounds so that the
 * machine's drift falls on both, reported as the ratio on / off (1.00: free). While the "on"
 * instance is loaded, a scraper reads its /metrics every second, as Prometheus would. First, the
 * hook's own CPU cost per request, measured in-process (hookCostMicros).
 *
 * Run from tools/bench: `node --conditions=@latchkey/source --import tsx src/metrics-overhead.ts`
 * (`npm run bench:metrics`). Environment: BENCH_DURATION_S (8), BENCH_WARMUP_S (3),
 * BENCH_CONNECTIONS (50), BENCH_ROUNDS (3), BENCH_STAMPS (200).
 */
import os from 'node:os';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { createHttpServer, createMetrics } from '@latchkey/http';
import autocannon from 'autocannon';
import pino from 'pino';
import { describeMachine, intFromEnv, printMachine, printTable } from './bench-support.js';

const WHOAMI_PATH = '/public/v1/query/whoami';
const settings = {
  durationS: intFromEnv('BENCH_DURATION_S', 8),
  warmupS: intFromEnv('BENCH_WARMUP_S', 3),
  connections: intFromEnv('BENCH_CONNECTIONS', 50),
  rounds: intFromEnv('BENCH_ROUNDS', 3),
  stamps: intFromEnv('BENCH_STAMPS', 200),
};

type TRequest = { method: 'POST'; path: string; headers: Record<string, string>; body: string };

async function stamped(l: TLatchkey): Promise<TRequest[]> {
  const { apiPublicKey, apiPrivateKey, organizationId } = l.bootstrap;
  if (!apiPrivateKey) throw new Error('bootstrap.json has no apiPrivateKey');
  const stamper = new ApiKeyStamper({ apiPublicKey, apiPrivateKey });
  const body = JSON.stringify({ organizationId });
  const out: TRequest[] = [];
  for (let i = 0; i < settings.stamps; i++) {
    const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
    out.push({ method: 'POST', path: WHOAMI_PATH, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue }, body });
  }
  return out;
}

/** Requests answered 200 per second; throws on any other answer (a failing server measures nothing). */
async function load(url: string, requests: TRequest[], durationS: number): Promise<number> {
  const r = await autocannon({ url, connections: settings.connections, duration: durationS, requests });
  const codes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([c, s]) => [c, s.count]));
  const ok = codes['200'] ?? 0;
  const all = Object.values(codes).reduce((a, b) => a + b, 0);
  if (ok !== all || r.errors > 0) throw new Error(`${url}: statuses ${JSON.stringify(codes)}, ${r.errors} errors`);
  return ok / r.duration;
}

/**
 * The hook alone, without a network or a database: CPU time per request of a fastify built by
 * createHttpServer with and without metrics, answering a stub on the public API's route pattern
 * through `inject`, in alternating batches. CPU time (user + system of this process) suffers far
 * less than throughput from other work on the machine.
 */
async function hookCostMicros(): Promise<{ on: number; off: number }> {
  const logger = pino({ level: 'silent' });
  const build = (withMetrics: boolean) => {
    const app = createHttpServer({ logger, ...(withMetrics ? { metrics: createMetrics({ service: 'bench' }) } : {}) });
    app.post('/public/v1/query/:name', async () => ({ organizationId: 'o', organizationName: 'n', userId: 'u', username: 'x' }));
    return app;
  };
  const apps = { on: build(true), off: build(false) };
  await Promise.all([apps.on.ready(), apps.off.ready()]);
  const perRequest: { on: number[]; off: number[] } = { on: [], off: [] };
  const batch = 4000;
  for (let i = 0; i < 6; i++) {
    for (const which of i % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const t0 = process.cpuUsage();
      for (let n = 0; n < batch; n++) await apps[which].inject({ method: 'POST', url: '/public/v1/query/whoami', payload: '{}', headers: { 'content-type': 'application/json' } });
      const d = process.cpuUsage(t0);
      if (i > 0) perRequest[which].push((d.user + d.system) / batch);
    }
  }
  await Promise.all([apps.on.close(), apps.off.close()]);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { on: median(perRequest.on), off: median(perRequest.off) };
}

async function main(): Promise<number> {
  const machine = describeMachine();
  printMachine(machine);
  const hook = await hookCostMicros();
  console.log(`the hook alone (inject, no network, no database): ${hook.on.toFixed(1)} µs CPU per request with metrics, ${hook.off.toFixed(1)} without: +${(hook.on - hook.off).toFixed(1)} µs`);
  const limits = { LATCHKEY_RATE_LIMIT_KEY_RPS: '0', LATCHKEY_RATE_LIMIT_IP_RPS: '0', LATCHKEY_LOG_LEVEL: 'warn' };
  const started: TLatchkey[] = [];
  try {
    const [on, off] = await Promise.all([
      startLatchkey({ apps: ['public-api'], timeoutMs: 300_000, env: { ...limits, LATCHKEY_METRICS: 'on' } }),
      startLatchkey({ apps: ['public-api'], timeoutMs: 300_000, env: { ...limits, LATCHKEY_METRICS: 'off' } }),
    ]);
    started.push(on, off);
    if ((await fetch(`${on.baseUrl}/metrics`)).status !== 200) throw new Error('the "on" instance serves no /metrics');
    if ((await fetch(`${off.baseUrl}/metrics`)).status !== 404) throw new Error('the "off" instance serves /metrics');
    const reqs = { on: await stamped(on), off: await stamped(off) };
    await load(on.baseUrl, reqs.on, settings.warmupS);
    await load(off.baseUrl, reqs.off, settings.warmupS);
    const rps: { on: number[]; off: number[] } = { on: [], off: [] };
    let scrapes = 0;
    for (let i = 0; i < settings.rounds; i++) {
      // Alternate which goes first, so a drift within a round pair falls on both.
      const order = i % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
      for (const which of order) {
        const l = which === 'on' ? on : off;
        const scraper = which === 'on' ? setInterval(() => void fetch(`${on.baseUrl}/metrics`).then((r) => r.text()).then(() => scrapes++), 1000) : undefined;
        try {
          rps[which].push(await load(l.baseUrl, reqs[which], settings.durationS));
        } finally {
          clearInterval(scraper);
        }
        console.log(`round ${i + 1} metrics ${which}: ${rps[which].at(-1)!.toFixed(0)} req/s`);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratio = mean(rps.on) / mean(rps.off);
    printTable([
      ['instance', ...rps.on.map((_, i) => `round ${i + 1}`), 'mean req/s'],
      ['metrics on', ...rps.on.map((x) => x.toFixed(0)), mean(rps.on).toFixed(0)],
      ['metrics off', ...rps.off.map((x) => x.toFixed(0)), mean(rps.off).toFixed(0)],
    ]);
    console.log(`\nratio = on / off = ${ratio.toFixed(2)} (${scrapes} scrapes during the "on" rounds; load average ${os.loadavg()[0]!.toFixed(1)} at the end)`);
    console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'metrics-overhead', date: new Date().toISOString(), machine, settings, hookCpuMicros: hook, rps, ratio: Number(ratio.toFixed(2)), scrapes })}`);
    return 0;
  } catch (e) {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return 1;
  } finally {
    await Promise.allSettled(started.map((l) => l.stop()));
  }
}

process.exit(await main());
