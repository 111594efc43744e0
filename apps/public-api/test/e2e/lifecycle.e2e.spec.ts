/**
 * The installation's life cycle, end to end through the built launcher: a root API key supplied by
 * the operator, a clean restart on the same data folder, and recovery after the launcher was
 * killed outright. In CI's external-database mode each test brings its own database and passes it
 * to every start, so that a restart meets the same data (the testkit would otherwise hand each
 * start a fresh one); in the default mode the data folder holds the embedded PostgreSQL.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import { TurnkeyClient, createActivityPoller } from '@turnkey/http';
import { createTestDatabase, makeTestDataDir, type TTestDatabase } from '@latchkey/persistence/testing';
import { startLatchkey, type TBootstrapJson, type TLatchkey } from '@latchkey/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { accountParams, createWalletRequest, ethereumAddressOf, uniqueName } from './e2e-helpers.js';

/** Two launcher starts per test, the embedded cluster initialised in the first. */
const LIFECYCLE_TIMEOUT_MS = 240_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) {
    const fn = cleanups.pop()!;
    await fn().catch((e: unknown) => console.error('cleanup failed:', e));
  }
});

/** Stops the instance at the end of the test, even when an assertion failed first. */
function track(lk: TLatchkey): TLatchkey {
  cleanups.push(() => lk.stop());
  return lk;
}

/**
 * A data folder (and, with DATABASE_URL, a database) that outlives one start. Removed after the
 * test, together with any PostgreSQL still running on it.
 */
async function persistentInstallation(): Promise<{ dataDir: string; env: Record<string, string> }> {
  const dataDir = await makeTestDataDir('latchkey-lifecycle-');
  let db: TTestDatabase | undefined;
  if (process.env['DATABASE_URL']) db = await createTestDatabase();
  cleanups.unshift(async () => {
    await stopLeftoverPostmaster(dataDir);
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { dataDir, env: db ? { DATABASE_URL: db.url } : {} };
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

async function waitUntil(what: string, cond: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The pid of the embedded PostgreSQL running on the data folder, if one is. */
async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

/** Only for cleanup after a failed test: the embedded cluster a killed launcher left running. */
async function stopLeftoverPostmaster(dataDir: string): Promise<void> {
  const pid = await postmasterPid(dataDir);
  if (pid === undefined) return;
  process.kill(pid, 'SIGINT');
  await waitUntil(`postmaster ${pid} exits`, () => !isAlive(pid), 20_000).catch(() => process.kill(pid, 'SIGKILL'));
}

function clientFor(lk: TLatchkey, apiPublicKey: string, apiPrivateKey: string): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: lk.baseUrl }, new ApiKeyStamper({ apiPublicKey, apiPrivateKey }));
}

function rootClient(lk: TLatchkey): TurnkeyClient {
  const { apiPublicKey, apiPrivateKey } = lk.bootstrap;
  if (!apiPrivateKey) throw new Error('bootstrap.json has no apiPrivateKey');
  return clientFor(lk, apiPublicKey, apiPrivateKey);
}

/** Creates a wallet and returns what a later start must still serve. */
async function seedWallet(lk: TLatchkey) {
  const client = rootClient(lk);
  const walletName = uniqueName('lifecycle');
  const activity = await createActivityPoller({ client, requestFn: client.createWallet })(
    createWalletRequest(lk.bootstrap.organizationId, walletName, [accountParams(0), accountParams(1)]),
  );
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  const walletId = activity.result.createWalletResult!.walletId;
  const { accounts } = await client.getWalletAccounts({ organizationId: lk.bootstrap.organizationId, walletId });
  expect(accounts).toHaveLength(2);
  return { walletId, walletName, activityId: activity.id, accounts };
}

/** The seeded wallet, its accounts and its activity, read back through a (new) instance. */
async function expectWalletServed(lk: TLatchkey, seeded: Awaited<ReturnType<typeof seedWallet>>): Promise<void> {
  const client = rootClient(lk);
  const organizationId = lk.bootstrap.organizationId;
  const { wallets } = await client.getWallets({ organizationId });
  expect(wallets.filter((w) => w.walletId === seeded.walletId).map((w) => w.walletName)).toEqual([seeded.walletName]);
  const { accounts } = await client.getWalletAccounts({ organizationId, walletId: seeded.walletId });
  expect(accounts).toEqual(seeded.accounts);
  for (const a of accounts) expect(ethereumAddressOf(a.publicKey!)).toBe(a.address);
  const { activity } = await client.getActivity({ organizationId, activityId: seeded.activityId });
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  expect(activity.result.createWalletResult?.walletId).toBe(seeded.walletId);
}

async function readBootstrap(dataDir: string): Promise<TBootstrapJson> {
  return JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as TBootstrapJson;
}

describe('lifecycle', () => {
  it(
    'uses LATCHKEY_ROOT_API_PUBLIC_KEY for the root user and writes no private key',
    async () => {
      const kp = generateP256KeyPair();
      const lk = track(await startLatchkey({ env: { LATCHKEY_ROOT_API_PUBLIC_KEY: kp.publicKey } }));

      const onDisk = await readBootstrap(lk.dataDir);
      expect(onDisk.apiPublicKey).toBe(kp.publicKey);
      expect(onDisk).not.toHaveProperty('apiPrivateKey');
      expect(JSON.stringify(onDisk)).not.toContain(kp.privateKey);
      expect((await stat(join(lk.dataDir, 'bootstrap.json'))).mode & 0o777).toBe(0o600);

      const me = await clientFor(lk, kp.publicKey, kp.privateKey).getWhoami({ organizationId: onDisk.organizationId });
      expect(me).toEqual({ organizationId: onDisk.organizationId, organizationName: expect.any(String), userId: onDisk.userId, username: 'root' });

      // The operator's key is the root user's only API key.
      const { organizationData } = await clientFor(lk, kp.publicKey, kp.privateKey).getOrganization({ organizationId: onDisk.organizationId });
      expect(organizationData.users?.flatMap((u) => u.apiKeys.map((k) => k.credential.publicKey))).toEqual([kp.publicKey]);
    },
    LIFECYCLE_TIMEOUT_MS,
  );

  it(
    'keeps the organization and its wallets across a restart on the same data folder',
    async () => {
      const { dataDir, env } = await persistentInstallation();
      const first = track(await startLatchkey({ dataDir, env }));
      const bootstrapBefore = await readBootstrap(dataDir);
      expect(first.bootstrap).toEqual(bootstrapBefore);
      const seeded = await seedWallet(first);
      await first.stop();
      expect(existsSync(join(dataDir, 'latchkey.pid'))).toBe(false);

      const second = track(await startLatchkey({ dataDir, env }));
      expect(await readBootstrap(dataDir)).toEqual(bootstrapBefore);
      expect(second.bootstrap).toEqual(bootstrapBefore);
      const me = await rootClient(second).getWhoami({ organizationId: bootstrapBefore.organizationId });
      expect(me).toEqual(expect.objectContaining({ organizationId: bootstrapBefore.organizationId, userId: bootstrapBefore.userId, username: 'root' }));
      await expectWalletServed(second, seeded);

      // Still writable after the restart: a further wallet completes.
      await seedWallet(second);
      const res = await fetch(`${second.baseUrl}/.well-known/latchkey.json`);
      const { signerPublicKey, notarizerPublicKey, otpVerifierPublicKey, tlsFetcherPublicKey, oidcIssuerPublicKey } = bootstrapBefore;
      expect(await res.json()).toEqual({ signerPublicKey, notarizerPublicKey, otpVerifierPublicKey, tlsFetcherPublicKey, oidcIssuerPublicKey });
    },
    LIFECYCLE_TIMEOUT_MS,
  );

  it(
    'recovers after the launcher is killed with SIGKILL',
    async () => {
      const { dataDir, env } = await persistentInstallation();
      const first = track(await startLatchkey({ dataDir, env }));
      const bootstrapBefore = await readBootstrap(dataDir);
      const seeded = await seedWallet(first);

      const postmasterBefore = await postmasterPid(dataDir);
      if (first.database === 'embedded') expect(postmasterBefore).toBeDefined();
      const pid = Number((await readFile(join(dataDir, 'latchkey.pid'), 'utf8')).trim());
      expect(Number.isInteger(pid) && pid > 0).toBe(true);
      expect(isAlive(pid)).toBe(true);
      process.kill(pid, 'SIGKILL');
      await waitUntil(`launcher ${pid} is gone`, () => !isAlive(pid), 15_000);
      // The lock file stays behind: the next start must see through it.
      expect(existsSync(join(dataDir, 'latchkey.pid'))).toBe(true);

      // The orphaned apps notice the launcher is gone (IPC disconnect) and exit.
      await waitUntil(
        'the orphaned public API stops answering',
        async () => {
          try {
            await fetch(`${first.baseUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
            return false;
          } catch {
            return true;
          }
        },
        20_000,
      );

      const second = track(await startLatchkey({ dataDir, env }));
      expect(await readBootstrap(dataDir)).toEqual(bootstrapBefore);
      expect(Number((await readFile(join(dataDir, 'latchkey.pid'), 'utf8')).trim())).not.toBe(pid);
      await expectWalletServed(second, seeded);
      await seedWallet(second);
      if (second.database === 'embedded') {
        // One cluster per data folder: the one the killed launcher left behind was replaced.
        const postmasterAfter = await postmasterPid(dataDir);
        expect(postmasterAfter).toBeDefined();
        expect(postmasterAfter).not.toBe(postmasterBefore);
        if (postmasterBefore !== undefined) expect(isAlive(postmasterBefore)).toBe(false);
      }
    },
    LIFECYCLE_TIMEOUT_MS,
  );
});
