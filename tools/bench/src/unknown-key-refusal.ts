/**
 * Refusing a stranger against serving a customer (issue 17 §4), on one real Latchkey with rate
 * limits off (they would flatter the figures: a flood would be answered 429 instead):
 *
 * - `whoami`: stamped `POST /public/v1/query/whoami` by the bootstrap root key (served, 200);
 * - `unknown key`: the same request stamped by one self-made key no organization holds (refused,
 *   401 PUBLIC_KEY_NOT_FOUND) — after the first, a cached miss;
 * - `unknown keys, each new`: stamped by BENCH_UNKNOWN_KEYS different self-made keys, more than
 *   are refused per miss TTL, so most refusals look the key up in the database;
 * - `whoami under attack`: whoami with BENCH_CONNECTIONS connections while BENCH_ATTACK_CONNECTIONS
 *   more send unknown-key stamps at the same time.
 *
 * Goals: unknown-key refusals per second ≥ whoami per second; whoami under attack ≥ 0.8 × alone.
 * Rounds alternate the loads to spread drift over all of them. Every whoami must be a 200 and every
 * refusal a 401, else exit 1.
 *
 * Run from tools/bench: `node --conditions=@latchkey/source --import tsx src/unknown-key-refusal.ts`
 * (`npm run -w @latchkey/bench bench:refusal` from the root, after `node tools/build-app.mjs --all`).
 * Environment: BENCH_DURATION_S (10), BENCH_WARMUP_S (3), BENCH_CONNECTIONS (50),
 * BENCH_ATTACK_CONNECTIONS (25), BENCH_ROUNDS (2), BENCH_STAMPS (200), BENCH_UNKNOWN_KEYS (3000),
 * BENCH_LATCHKEY_LOG_LEVEL (warn). LATCHKEY_RATE_LIMIT_KEY_RPS / _IP_RPS default to 0 (off) here.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import autocannon from 'autocannon';
import { describeMachine, intFromEnv, loadAvg1m, printMachine, printTable, withLatchkey } from './bench-support.js';

const WHOAMI_PATH = '/public/v1/query/whoami';

const settings = {
  durationS: intFromEnv('BENCH_DURATION_S', 10),
  warmupS: intFromEnv('BENCH_WARMUP_S', 3),
  connections: intFromEnv('BENCH_CONNECTIONS', 50),
  attackConnections: intFromEnv('BENCH_ATTACK_CONNECTIONS', 25),
  rounds: intFromEnv('BENCH_ROUNDS', 2),
  stamps: intFromEnv('BENCH_STAMPS', 200),
  unknownKeys: intFromEnv('BENCH_UNKNOWN_KEYS', 3000),
  latchkeyLogLevel: process.env['BENCH_LATCHKEY_LOG_LEVEL'] || 'warn',
};

// Limits off unless the caller says otherwise: this bench measures what a refusal costs.
process.env['LATCHKEY_RATE_LIMIT_KEY_RPS'] ??= '0';
process.env['LATCHKEY_RATE_LIMIT_IP_RPS'] ??= '0';

interface TRequest {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
}

interface TRun {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses whose status was not the expected one. */
  unexpected: number;
  errors: number;
  statusCodes: Record<string, number>;
}

async function stamped(stampers: ApiKeyStamper[], body: string, count: number): Promise<TRequest[]> {
  const out: TRequest[] = [];
  for (let i = 0; i < count; i++) {
    const { stampHeaderName, stampHeaderValue } = await stampers[i % stampers.length]!.stamp(body);
    out.push({ method: 'POST', path: WHOAMI_PATH, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue }, body });
  }
  return out;
}

const selfMadeStamper = () => {
  const { publicKey, privateKey } = generateP256KeyPair();
  return new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey });
};

async function load(url: string, requests: TRequest[], connections: number, durationS: number, expected: number): Promise<TRun> {
  const r = await autocannon({ url, connections, duration: durationS, requests });
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]));
  const good = statusCodes[String(expected)] ?? 0;
  const all = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return { rps: good / r.duration, p50Ms: r.latency.p50, p99Ms: r.latency.p99, unexpected: all - good, errors: r.errors, statusCodes };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

type TLoad = 'whoami' | 'unknown key' | 'unknown keys, each new' | 'whoami under attack' | 'the attack (unknown key)';

process.exit(
  await withLatchkey(settings.latchkeyLogLevel, async ({ latchkey, organizationId }) => {
    const machine = describeMachine();
    printMachine(machine);
    console.log(`settings: ${JSON.stringify(settings)}; rate limits: key ${process.env['LATCHKEY_RATE_LIMIT_KEY_RPS']}, ip ${process.env['LATCHKEY_RATE_LIMIT_IP_RPS']}`);
    const body = JSON.stringify({ organizationId });
    const { apiPublicKey, apiPrivateKey } = latchkey.bootstrap;
    const whoami = await stamped([new ApiKeyStamper({ apiPublicKey, apiPrivateKey: apiPrivateKey! })], body, settings.stamps);
    const unknown = await stamped([selfMadeStamper()], body, settings.stamps);
    const t0 = Date.now();
    const many = await stamped(Array.from({ length: settings.unknownKeys }, selfMadeStamper), body, settings.unknownKeys);
    console.log(`stamped ${settings.unknownKeys} requests by as many self-made keys in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const url = latchkey.baseUrl;

    const runs: Record<TLoad, TRun[]> = { whoami: [], 'unknown key': [], 'unknown keys, each new': [], 'whoami under attack': [], 'the attack (unknown key)': [] };
    const once = async (measure: boolean, durationS: number) => {
      const add = (k: TLoad, r: TRun) => measure && runs[k].push(r);
      add('whoami', await load(url, whoami, settings.connections, durationS, 200));
      add('unknown key', await load(url, unknown, settings.connections, durationS, 401));
      add('unknown keys, each new', await load(url, many, settings.connections, durationS, 401));
      const [served, attack] = await Promise.all([load(url, whoami, settings.connections, durationS, 200), load(url, unknown, settings.attackConnections, durationS, 401)]);
      add('whoami under attack', served);
      add('the attack (unknown key)', attack);
    };
    await once(false, settings.warmupS);
    for (let i = 0; i < settings.rounds; i++) {
      await once(true, settings.durationS);
      console.log(`round ${i + 1}: ${Object.entries(runs).map(([k, rs]) => `${k} ${rs.at(-1)!.rps.toFixed(0)} req/s`).join(', ')}`);
    }

    const summary = Object.fromEntries(
      Object.entries(runs).map(([k, rs]) => [k, { rps: mean(rs.map((r) => r.rps)), p50Ms: mean(rs.map((r) => r.p50Ms)), p99Ms: mean(rs.map((r) => r.p99Ms)), unexpected: rs.reduce((a, r) => a + r.unexpected, 0), errors: rs.reduce((a, r) => a + r.errors, 0) }]),
    ) as Record<TLoad, { rps: number; p50Ms: number; p99Ms: number; unexpected: number; errors: number }>;
    console.log('');
    printTable([
      ['load', 'mean req/s', 'p50 ms', 'p99 ms', 'unexpected', 'errors'],
      ...Object.entries(summary).map(([k, s]) => [k, s.rps.toFixed(0), s.p50Ms.toFixed(1), s.p99Ms.toFixed(1), String(s.unexpected), String(s.errors)]),
    ]);
    const refusalRatio = summary['unknown key'].rps / summary.whoami.rps;
    const freshRatio = summary['unknown keys, each new'].rps / summary.whoami.rps;
    const underAttack = summary['whoami under attack'].rps / summary.whoami.rps;
    console.log(`\nunknown-key refusals / whoami = ${refusalRatio.toFixed(2)} (goal ≥ 1); each key new: ${freshRatio.toFixed(2)}`);
    console.log(`whoami under ${settings.attackConnections} attacking connections / alone = ${underAttack.toFixed(2)} (goal ≥ 0.80); p99 ${summary.whoami.p99Ms.toFixed(1)} → ${summary['whoami under attack'].p99Ms.toFixed(1)} ms`);
    const failures = Object.entries(summary)
      .filter(([, s]) => s.unexpected > 0 || s.errors > 0)
      .map(([k, s]) => `${k}: ${s.unexpected} unexpected statuses, ${s.errors} errors`);
    console.log(
      `BENCH_RESULT ${JSON.stringify({ bench: 'unknown-key-refusal', date: new Date().toISOString(), machine: { ...machine, loadAvg1mAtEnd: loadAvg1m() }, settings, summary, refusalRatio: Number(refusalRatio.toFixed(2)), freshRatio: Number(freshRatio.toFixed(2)), underAttack: Number(underAttack.toFixed(2)), ok: failures.length === 0 })}`,
    );
    if (failures.length > 0) {
      console.error(`FAILED: ${failures.join('; ')}`);
      return 1;
    }
    return 0;
  }),
);
