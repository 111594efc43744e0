/**
 * The `latchkey` bin of @latchkey/testkit, for test suites in any language:
 *
 *   npx latchkey start --ephemeral [--seed fixed] [--apps LIST] [--env NAME=VALUE]...
 *
 * starts a throw-away instance (startLatchkey), prints ONE line of JSON on stdout once it is ready
 * (the connection: URLs, the root organization, its API key pair, the server keys), then one JSON
 * line per e-mail or SMS the instance sends (`{"message": {...}}`), and runs until SIGINT, SIGTERM
 * or its stdin closes (when stdin is a pipe); then it stops the instance and removes everything it made. Logs go to
 * stderr. Every other command line is handed to the full Latchkey CLI (`latchkey start`,
 * `latchkey migrate`, …) unchanged.
 *
 * Exit codes, as the CLI's: 0 done, 1 failed, 2 called wrongly.
 */
import { spawn } from 'node:child_process';
import { fstatSync } from 'node:fs';
import { locateRuntime } from '../latchkey-runtime.js';
import { LATCHKEY_APPS, startLatchkey, type TLatchkey, type TLatchkeyApp, type TStartOptions } from '../start-latchkey.js';

const USAGE = `usage: latchkey start --ephemeral [--seed fixed] [--apps LIST] [--env NAME=VALUE]...

Starts a throw-away Latchkey for a test run and prints its connection as one JSON line on stdout
once it is ready; each e-mail or SMS it then sends follows as one JSON line ({"message": ...}).
Stop it with SIGINT/SIGTERM, or by closing its stdin when that is a pipe: everything it made is removed.

  --ephemeral        required: a fresh instance on free ports, deleted when it stops
  --seed fixed       the same root key, server keys and ids on every run (FOR TESTS ONLY)
  --apps LIST        comma-separated apps to run (default public-api,auth-proxy,webhook-worker;
                     add admin for the admin console)
  --env NAME=VALUE   a LATCHKEY_* setting for the instance (repeatable)

Any other command is run by the full Latchkey CLI (latchkey --help lists them).`;

class UsageError extends Error {}

/** @throws UsageError on anything but the documented flags. */
export function parseEphemeralArgs(args: readonly string[]): TStartOptions {
  const opts: TStartOptions = {};
  let ephemeral = false;
  const env: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--ephemeral':
        if (inline !== undefined) throw new UsageError('--ephemeral takes no value');
        ephemeral = true;
        break;
      case '--seed': {
        const v = value();
        if (v !== 'fixed' && v !== 'random') throw new UsageError(`--seed must be "fixed" or "random", not ${JSON.stringify(v)}`);
        opts.seed = v;
        break;
      }
      case '--apps': {
        const list = value()
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x !== '');
        const unknown = list.filter((x) => !(LATCHKEY_APPS as readonly string[]).includes(x));
        if (list.length === 0 || unknown.length > 0) throw new UsageError(`--apps wants a comma-separated list of ${LATCHKEY_APPS.join(', ')}${unknown.length ? `, not ${unknown.join(', ')}` : ''}`);
        if (!list.includes('public-api')) throw new UsageError('--apps must include public-api');
        opts.apps = list as TLatchkeyApp[];
        break;
      }
      case '--env': {
        const v = value();
        const eq = v.indexOf('=');
        if (eq <= 0) throw new UsageError(`--env wants NAME=VALUE, not ${JSON.stringify(v)}`);
        env[v.slice(0, eq)] = v.slice(eq + 1);
        break;
      }
      default:
        throw new UsageError(`unknown option ${JSON.stringify(a)}`);
    }
  }
  if (!ephemeral) throw new UsageError('start with options needs --ephemeral');
  if (Object.keys(env).length > 0) opts.env = env;
  return opts;
}

/** What the first stdout line carries. */
export function connectionJson(lk: TLatchkey): Record<string, string | number> {
  return {
    apiBaseUrl: lk.apiBaseUrl,
    ...(lk.apps.includes('auth-proxy') ? { authProxyUrl: lk.authProxyUrl } : {}),
    ...(lk.apps.includes('admin') ? { adminUrl: lk.adminUrl } : {}),
    apps: lk.apps.join(','),
    organizationId: lk.organizationId,
    apiPublicKey: lk.apiPublicKey,
    apiPrivateKey: lk.bootstrap.apiPrivateKey ?? '',
    signerPublicKey: lk.signerPublicKey,
    notarizerPublicKey: lk.notarizerPublicKey,
    otpVerifierPublicKey: lk.otpVerifierPublicKey,
    dataDir: lk.dataDir,
    pid: process.pid,
  };
}

async function runEphemeral(opts: TStartOptions): Promise<number> {
  // The instance's database runs in a child; this process only has to stop it on a signal.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  let lk: TLatchkey | undefined;
  let done!: (code: number) => void;
  const finished = new Promise<number>((r) => (done = r));
  const stopOn = (why: string) => () => {
    process.stderr.write(`latchkey: ${why}, stopping\n`);
    void (lk ? lk.stop() : Promise.resolve()).then(() => done(0));
  };
  process.once('SIGINT', stopOn('SIGINT'));
  process.once('SIGTERM', stopOn('SIGTERM'));
  lk = await startLatchkey(opts);
  process.stdout.write(JSON.stringify(connectionJson(lk)) + '\n');
  // A parent that spawned us with a pipe stops us by closing it (or by dying). A shell's background
  // job has /dev/null as stdin, which ends at once: only a pipe or socket (Node's spawn) is watched.
  const stdin = fstatSync(0);
  if (stdin.isFIFO() || stdin.isSocket()) {
    process.stdin.on('end', stopOn('stdin closed'));
    process.stdin.resume();
  }
  void (async () => {
    for (;;) {
      const m = await lk.mail.next({ timeoutMs: 2 ** 31 - 1 }).catch(() => undefined);
      if (!m) return;
      const { email: _raw, ...message } = m;
      process.stdout.write(JSON.stringify({ message }) + '\n');
    }
  })();
  return finished;
}

/** Hands the command line to the full CLI, with this terminal. */
function runFullCli(args: readonly string[]): Promise<number> {
  const { cli } = locateRuntime();
  const child = spawn(process.execPath, [cli, ...args], { stdio: 'inherit' });
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

export async function main(args: readonly string[]): Promise<number> {
  try {
    if (args[0] === 'start' && args.length > 1) return await runEphemeral(parseEphemeralArgs(args.slice(1)));
    if (args[0] === 'help' || ((args[0] === '--help' || args[0] === '-h') && args.length === 1)) {
      process.stdout.write(USAGE + '\n\n');
      return await runFullCli(['--help']);
    }
    return await runFullCli(args);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`latchkey: ${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`latchkey: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
