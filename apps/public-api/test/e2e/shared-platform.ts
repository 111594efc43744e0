/**
 * One platform for the end-to-end files that need nothing of their own: no settings (`env`), no
 * captured mail, no server logs, only the public API. A whole-project run starts it once
 * (shared-platform.global-setup.ts) and each such file gets a fresh root organization on it, made
 * with `latchkey org create` — so files share processes, never data: what one file creates,
 * changes (a root quorum, policies, an organization name) or counts is its own organization's.
 * Run alone (a file filter, or LATCHKEY_E2E_SHARED_PLATFORM=0), a file starts its own platform
 * exactly as before. Starting a platform is most of a short file's time (~9 s on CI's 2 cores).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, startLatchkey, type TBootstrapJson, type TLatchkey, type TStartOptions } from '@latchkey/testkit';
import { generateP256KeyPair } from '@turnkey/crypto';
import { inject } from 'vitest';

/** What the global setup hands to the files (provide/inject values must be plain data). */
export interface TSharedPlatform {
  baseUrl: string;
  databaseUrl: string;
  dataDir: string;
  database: 'embedded' | 'external';
  bootstrap: TBootstrapJson;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedPlatform: TSharedPlatform | null;
  }
}

const CLI = join(repoRoot(), 'tools', 'cli', 'dist', 'main.mjs');

/**
 * `startLatchkey(options)` for a file whose options ask only for the public API (and perhaps a
 * start timeout): on the run's shared platform when there is one, with a root organization of the
 * file's own; else a platform started here with those options (`stop()` then stops it).
 * @throws TypeError when the options ask for more than the shared platform is (start your own).
 * @throws Error when the platform cannot be started or the organization cannot be created.
 */
export async function latchkeyForThisFile(options: TStartOptions): Promise<TLatchkey> {
  const { apps, timeoutMs: _timeout, ...rest } = options;
  if (Object.keys(rest).length > 0 || apps?.length !== 1 || apps[0] !== 'public-api') {
    throw new TypeError(`latchkeyForThisFile: the shared platform runs the public API alone with default settings; ${JSON.stringify(options)} needs startLatchkey()`);
  }
  const shared = inject('sharedPlatform');
  if (!shared) return startLatchkey(options);
  const key = generateP256KeyPair();
  const apiPublicKey = key.publicKey;
  const apiPrivateKey = key.privateKey;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CLI, 'org', 'create', '--name', `E2E ${Date.now().toString(36)}`, '--user-name', 'root', '--api-public-key', apiPublicKey],
    { env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: shared.databaseUrl, LATCHKEY_LOG_LEVEL: 'silent' } },
  );
  const created = JSON.parse(stdout) as { organizationId: string; userId: string; apiKeyId: string };
  const bootstrap: TBootstrapJson = { ...shared.bootstrap, ...created, apiPublicKey, apiPrivateKey };
  const absent = (what: string): never => {
    throw new Error(`the shared e2e platform has no ${what}: start a platform of the file's own (startLatchkey) for it`);
  };
  return {
    apiBaseUrl: shared.baseUrl,
    baseUrl: shared.baseUrl,
    get authProxyUrl(): string {
      return absent('auth proxy');
    },
    get adminUrl(): string {
      return absent('admin app');
    },
    organizationId: created.organizationId,
    apiPublicKey,
    apiPrivateKey,
    signerPublicKey: shared.bootstrap.signerPublicKey,
    notarizerPublicKey: shared.bootstrap.notarizerPublicKey,
    otpVerifierPublicKey: shared.bootstrap.otpVerifierPublicKey,
    get mail(): TLatchkey['mail'] {
      return absent('mail capture (its mail reaches the process that started it)');
    },
    stop: async () => undefined,
    apps: ['public-api'],
    dataDir: shared.dataDir,
    database: shared.database,
    bootstrap,
    databaseUrl: async () => shared.databaseUrl,
    output: () => absent('output of its own (the global setup holds it)'),
  };
}
