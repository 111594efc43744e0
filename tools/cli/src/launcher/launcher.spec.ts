/**
 * The launcher as `npm start` runs it (the built CLI, a fresh data folder, free ports): the apps
 * start while the database does (held until it is ready: holdForLauncher), a crashed app is restarted while the others
 * keep serving, a stale latchkey.pid naming an unrelated process neither blocks the start nor gets
 * that process touched, and SIGTERM still stops all.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '@latchkey/persistence';
import { createTestDatabase, makeTestDataDir, type TTestDatabase } from '@latchkey/persistence/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLauncherLock, isLauncherCommandLine } from './launcher-pid-file.js';
import { createRestartBackoff } from './restart-backoff.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'main.mjs');
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('restart backoff', () => {
  it('doubles from 0.5 s to a 30 s cap, and starts again after a minute of uptime', () => {
    const b = createRestartBackoff();
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(() => b.next(100))).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(b.next(59_999)).toBe(30_000);
    expect(b.next(60_000)).toBe(500);
    expect(b.next(10)).toBe(1000);
  });
});

describe('latchkey.pid', () => {
  it('recognises the launcher command line, as npm start and the testkit run it', () => {
    expect(isLauncherCommandLine(['node', 'tools/cli/dist/main.mjs', 'start'])).toBe(true);
    expect(isLauncherCommandLine(['/usr/bin/node', '/srv/latchkey/tools/cli/dist/main.mjs', 'start'])).toBe(true);
    expect(isLauncherCommandLine(['/usr/bin/node', '/srv/latchkey/tools/cli/dist/main.mjs', 'migrate'])).toBe(false);
    expect(isLauncherCommandLine(['sleep', '60'])).toBe(false);
    expect(isLauncherCommandLine(['vim', 'tools/cli/dist/main.mjs'])).toBe(false);
  });

  it('is free when its pid is gone or belongs to another program', async () => {
    const dir = await makeTestDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'latchkey.pid');
    expect(await checkLauncherLock(file)).toEqual({ state: 'free' });
    const s = spawn('sleep', ['600'], { stdio: 'ignore' });
    cleanups.push(() => void s.kill('SIGKILL'));
    await new Promise((r) => s.once('spawn', r));
    await writeFile(file, `${s.pid}\n`);
    expect(await checkLauncherLock(file)).toMatchObject({ state: 'free', stale: expect.stringContaining('another program (sleep)') });
    await writeFile(file, '999999999\n');
    expect(await checkLauncherLock(file)).toMatchObject({ state: 'free', stale: expect.stringContaining('gone') });
  });
});

/** Direct children of `ppid` whose command line contains `needle`. */
async function childPids(ppid: number, needle: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent !== ppid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(needle)) out.push(Number(name));
  }
  return out;
}

/** When a process started (ms since the epoch, to the kernel's clock tick), from /proc. */
async function processStartMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const bootS = Number(/^btime (\d+)$/m.exec(await readFile('/proc/stat', 'utf8'))![1]);
  const ticksPerS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return bootS * 1000 + (startTicks / ticksPerS) * 1000;
}

/** The environment a process was started with (what the launcher gave it, whatever it changed since). */
async function initialEnvironment(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')).split('\0');
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, output: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the launcher', () => {
  it('restarts a crashed app while the others keep serving, ignores a stale latchkey.pid, and stops everything on SIGTERM', async () => {
    expect(existsSync(CLI), `${CLI} is missing: build first (node tools/build-app.mjs --all)`).toBe(true);
    const dataDir = await makeTestDataDir('latchkey-launcher-');
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    delete env['DATABASE_URL'];
    if (process.env['DATABASE_URL']) {
      const db: TTestDatabase = await createTestDatabase();
      cleanups.push(() => db.drop());
      env['DATABASE_URL'] = db.url;
    }
    const [api, proxy, admin, workerPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    Object.assign(env, {
      LATCHKEY_HOST: '127.0.0.1',
      LATCHKEY_PUBLIC_API_PORT: String(api),
      LATCHKEY_AUTH_PROXY_PORT: String(proxy),
      LATCHKEY_ADMIN_PORT: String(admin),
      LATCHKEY_WEBHOOK_WORKER_PORT: String(workerPort),
      LATCHKEY_DATA_DIR: dataDir,
      LATCHKEY_LOG_LEVEL: 'info',
    });
    const publicApi = `http://127.0.0.1:${api}`;
    const authProxy = `http://127.0.0.1:${proxy}`;

    // A launcher killed with SIGKILL long ago; its pid now belongs to an unrelated process.
    // (it lives longer than the slowest start this test has to survive: a busy CI machine's)
    const stranger = spawn('sleep', ['600'], { stdio: 'ignore' });
    cleanups.push(() => void stranger.kill('SIGKILL'));
    await new Promise((r) => stranger.once('spawn', r));
    await writeFile(join(dataDir, 'latchkey.pid'), `${stranger.pid}\n`);

    let out = '';
    const launcher: ChildProcess = spawn(process.execPath, [CLI, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    launcher.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    const output = () => out;
    const exited = new Promise<number | null>((res) => launcher.once('exit', (code) => res(code)));
    cleanups.push(() => {
      if (launcher.exitCode === null) launcher.kill('SIGKILL');
    });

    await until(
      'the public API',
      () => {
        if (launcher.exitCode !== null) throw new Error(`the launcher exited with ${launcher.exitCode}:\n${out}`);
        return healthy(publicApi);
      },
      90_000,
      output,
    );
    expect(stranger.exitCode === null && stranger.signalCode === null, 'the unrelated process was left alone').toBe(true);
    expect(out).toMatch(/ignoring a stale .*latchkey\.pid: pid \d+ now belongs to another program \(sleep\)/);
    expect(Number((await readFile(join(dataDir, 'latchkey.pid'), 'utf8')).trim())).toBe(launcher.pid);

    // Every app clients talk to was started before the database was ready, held until it was; the
    // auth proxy, which needs no database, not held. The webhook worker, which serves no client,
    // was started once they were all ready (`Latchkey is running`) — which the launcher may say a
    // moment after the public API answers, while the admin app still starts: wait for the line.
    await until('the launcher to say Latchkey is running', () => out.includes('Latchkey is running'), 60_000, output);
    const logged = (text: string) => {
      const line = out.split('\n').find((l) => l.startsWith('{') && l.includes(text));
      expect(line, `the launcher logs "${text}"`).toBeDefined();
      return (JSON.parse(line!) as { time: number }).time;
    };
    const dbReadyMs = logged('PostgreSQL ready');
    const runningMs = logged('Latchkey is running');
    const startedMs: Record<string, number> = {};
    for (const app of ['public-api', 'auth-proxy', 'admin', 'webhook-worker']) {
      const [pid] = await childPids(launcher.pid!, `${app}/dist/main.mjs`);
      expect(pid, `${app} runs`).toBeDefined();
      startedMs[app] = await processStartMs(pid!);
      if (app !== 'webhook-worker') expect(startedMs[app], `${app} started before the database was ready`).toBeLessThan(dbReadyMs);
      expect((await initialEnvironment(pid!)).includes('LATCHKEY_LAUNCHER_HOLD=1'), `${app} held`).toBe(app !== 'auth-proxy');
    }
    // processStartMs is early by the boot time's lost fraction of a second, the same for every
    // process: the gap between two starts is exact (to a clock tick, 10 ms). The public API was
    // forked before the database was ready and the worker after `Latchkey is running`, so the
    // gap is at least the time between those two lines.
    expect(startedMs['webhook-worker']! - startedMs['public-api']!, 'the worker started after the other apps were ready').toBeGreaterThanOrEqual(runningMs - dbReadyMs - 10);

    // A second launcher on the same data folder is refused: this lock is real.
    const second = spawn(process.execPath, [CLI, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let secondOut = '';
    second.stderr!.on('data', (b: Buffer) => (secondOut += b.toString()));
    expect(await new Promise((res) => second.once('exit', res))).not.toBe(0);
    expect(secondOut).toContain(`already running from ${dataDir} (pid ${launcher.pid})`);

    // Keep asking the public API while the worker crashes and comes back: it must always answer.
    let probing = true;
    const failures: number[] = [];
    const prober = (async () => {
      while (probing) {
        if (!(await healthy(publicApi))) failures.push(Date.now());
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const [worker] = await childPids(launcher.pid!, 'webhook-worker/dist/main.mjs');
    expect(worker).toBeDefined();
    process.kill(worker!, 'SIGKILL');
    await until('the worker restart warning', () => /webhook-worker exited unexpectedly \(code null, signal SIGKILL\); restarting in 500 ms/.test(out), 15_000, output);
    await until('the worker ready again', () => out.includes('webhook-worker is ready again'), 30_000, output);
    const [worker2] = await childPids(launcher.pid!, 'webhook-worker/dist/main.mjs');
    expect(worker2).toBeDefined();
    expect(worker2).not.toBe(worker);
    // A restart is an ordinary start: the database is up by then.
    const restartedWith = await initialEnvironment(worker2!);
    expect(restartedWith).not.toContain('LATCHKEY_LAUNCHER_HOLD=1');
    expect(restartedWith.some((v) => v.startsWith('DATABASE_URL=postgres')), 'the restart has the database from the beginning').toBe(true);
    probing = false;
    await prober;
    expect(failures, 'the public API answered throughout').toEqual([]);

    // The public API itself: back on its port, while the auth proxy serves meanwhile.
    const [apiPid] = await childPids(launcher.pid!, 'public-api/dist/main.mjs');
    process.kill(apiPid!, 'SIGKILL');
    await until('the public API down', async () => !(await healthy(publicApi)), 10_000, output);
    expect(await healthy(authProxy)).toBe(true);
    await until('the public API back', () => healthy(publicApi), 30_000, output);
    expect(out).toMatch(/public-api exited unexpectedly \(code null, signal SIGKILL\); restarting in \d+ ms/);

    // A clean shutdown still stops everything, then the database, and exits 0.
    const apps = [...(await childPids(launcher.pid!, '/dist/main.mjs'))];
    expect(apps).toHaveLength(4);
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of apps) expect(existsSync(`/proc/${pid}/cmdline`) && (await readFile(`/proc/${pid}/cmdline`, 'utf8')) !== '', `app ${pid} stopped`).toBe(false);
    expect(existsSync(join(dataDir, 'latchkey.pid'))).toBe(false);
    const afterStop = out.slice(out.indexOf('"msg":"stopping"'));
    expect(afterStop).toContain('"msg":"stopped"');
    expect(afterStop, 'no restart during a shutdown').not.toContain('exited unexpectedly');
  }, 180_000);
});
