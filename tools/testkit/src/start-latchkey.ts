/**
 * Starts the real platform as a child process — `node tools/cli/dist/main.mjs start`, exactly
 * what `npm start` runs — on free ports, in a fresh data folder, and on either the embedded
 * PostgreSQL (default) or, when DATABASE_URL is set in the test's environment, a fresh database
 * on that server. Resolves once `/healthz` answers on the public API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRunningEmbeddedPostgres, freePort } from '@latchkey/persistence';
import { createTestDatabase, makeTestDataDir, type TTestDatabase } from '@latchkey/persistence/testing';

export interface TBootstrapJson {
  organizationId: string;
  userId: string;
  apiKeyId: string;
  apiPublicKey: string;
  apiPrivateKey?: string;
  signerPublicKey: string;
  notarizerPublicKey: string;
  otpVerifierPublicKey: string;
  /** `encryptOauth2ClientSecret`'s `dangerouslyOverrideTlsFetcherPublicKey`. */
  tlsFetcherPublicKey: string;
  /** Signs the OIDC tokens of oauth2_authenticate (also at /oauth2/jwks). */
  oidcIssuerPublicKey: string;
}

export interface TLatchkey {
  /** e.g. http://127.0.0.1:41234 (no trailing slash, as the Turnkey clients want). */
  baseUrl: string;
  authProxyUrl: string;
  adminUrl: string;
  dataDir: string;
  /** `external` when DATABASE_URL was set for the test run. */
  database: 'embedded' | 'external';
  bootstrap: TBootstrapJson;
  /** URL of the database the platform uses (for tests that inspect what is stored). */
  databaseUrl(): Promise<string>;
  /** Everything the processes printed so far (for assertions and failure reports). */
  output(): string;
  stop(): Promise<void>;
}

export interface TStartOptions {
  env?: Record<string, string>;
  /** Reuse a data folder (restart tests); a fresh one otherwise. */
  dataDir?: string;
  timeoutMs?: number;
}

export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'tools', 'cli', 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('repository root not found');
    dir = parent;
  }
  return dir;
}

async function waitForHealth(url: string, child: ChildProcess, deadline: number, output: () => string): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`latchkey exited with ${child.exitCode} before it was ready:\n${output()}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`latchkey was not ready in time:\n${output()}`);
}

/** @throws Error when the launcher is not built or the platform does not become ready. */
export async function startLatchkey(opts: TStartOptions = {}): Promise<TLatchkey> {
  const root = repoRoot();
  const cli = join(root, 'tools', 'cli', 'dist', 'main.mjs');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const dataDir = opts.dataDir ?? (await makeTestDataDir('latchkey-e2e-'));
  let external: TTestDatabase | undefined;
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  delete env['DATABASE_URL'];
  if (process.env['DATABASE_URL']) {
    external = await createTestDatabase();
    env['DATABASE_URL'] = external.url;
  }
  const [api, proxy, admin] = [await freePort(), await freePort(), await freePort()];
  Object.assign(env, {
    LATCHKEY_HOST: '127.0.0.1',
    LATCHKEY_PUBLIC_API_PORT: String(api),
    LATCHKEY_AUTH_PROXY_PORT: String(proxy),
    LATCHKEY_ADMIN_PORT: String(admin),
    LATCHKEY_DATA_DIR: dataDir,
    LATCHKEY_LOG_LEVEL: env['LATCHKEY_LOG_LEVEL'] ?? 'warn',
    ...opts.env,
  });
  let out = '';
  const child = spawn(process.execPath, [cli, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const output = () => out;
  const baseUrl = `http://127.0.0.1:${api}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((res) => {
        child.once('exit', () => res());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      });
    }
    await external?.drop();
    if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, Date.now() + (opts.timeoutMs ?? 60_000), output);
    const bootstrap = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as TBootstrapJson;
    const databaseUrl = async () => {
      if (external) return external.url;
      const running = await findRunningEmbeddedPostgres(dataDir);
      if (!running) throw new Error('the embedded PostgreSQL is not running');
      return running.url;
    };
    return { baseUrl, authProxyUrl: `http://127.0.0.1:${proxy}`, adminUrl: `http://127.0.0.1:${admin}`, dataDir: resolve(dataDir), database: external ? 'external' : 'embedded', bootstrap, databaseUrl, output, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
