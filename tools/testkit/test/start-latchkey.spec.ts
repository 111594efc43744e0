/**
 * startLatchkey against the real launcher: the published shape answers the unmodified Turnkey SDK,
 * OTP e-mail and SMS land in `mail`, parallel starts share one template, and stop() leaves no
 * process, folder or port behind. Needs the built apps (the project's `test` target builds them).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Turnkey } from '@turnkey/sdk-server';
import { makeTestDataDir } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_TEST_SEED, startLatchkey, type TLatchkey } from '../src/index.js';

/** Pids of PostgreSQL servers whose command line names `dir` (none once an instance is stopped). */
function postmastersOf(dir: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes('postgres') && l.includes(dir));
}

describe('startLatchkey', () => {
  let lk: TLatchkey;
  beforeAll(async () => {
    lk = await startLatchkey();
  });
  afterAll(async () => {
    await lk?.stop();
  });

  it('returns the connection the Turnkey SDK needs, and the SDK is served with it', async () => {
    expect(lk.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lk.apiPublicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(lk.apiPrivateKey).toMatch(/^[0-9a-f]{64}$/);
    for (const k of [lk.signerPublicKey, lk.notarizerPublicKey, lk.otpVerifierPublicKey]) expect(k).toMatch(/^04[0-9a-f]{128}$/);
    const client = new Turnkey({ apiBaseUrl: lk.apiBaseUrl, apiPublicKey: lk.apiPublicKey, apiPrivateKey: lk.apiPrivateKey, defaultOrganizationId: lk.organizationId }).apiClient();
    const me = await client.getWhoami({ organizationId: lk.organizationId });
    expect(me.organizationId).toBe(lk.organizationId);
    const proxy = await fetch(`${lk.authProxyUrl}/healthz`);
    expect(proxy.status).toBe(200);
  });

  it('captures OTP e-mail and SMS in memory, with the code picked out', async () => {
    const client = new Turnkey({ apiBaseUrl: lk.apiBaseUrl, apiPublicKey: lk.apiPublicKey, apiPrivateKey: lk.apiPrivateKey, defaultOrganizationId: lk.organizationId }).apiClient();
    await client.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: 'alice@example.test', appName: 'Testkit' });
    const mail = await lk.mail.next();
    expect(mail).toMatchObject({ channel: 'email', to: 'alice@example.test', subject: 'Your Testkit verification code' });
    expect(mail.code).toMatch(/^[0-9A-Z]{9}$/); // Turnkey's default: 9 alphanumeric
    expect(mail.text).toContain(mail.code);

    await client.initOtp({ otpType: 'OTP_TYPE_SMS', contact: '+14155550123', appName: 'Testkit' });
    const sms = await lk.mail.next();
    expect(sms).toMatchObject({ channel: 'sms', to: '+14155550123' });
    expect(sms.code).toMatch(/^[0-9A-Z]{9}$/);
    expect(sms.code).not.toBe(mail.code);
    expect(lk.mail.all().map((m) => m.channel)).toEqual(['email', 'sms']);
    await expect(lk.mail.next({ timeoutMs: 200 })).rejects.toThrow(/no new e-mail or SMS within 200 ms \(2 received/);
  });
});

/** CI runs every suite twice: on the embedded PostgreSQL and on the server DATABASE_URL names. */
const embedded = !process.env['DATABASE_URL'];

describe('startLatchkey options and lifecycle', () => {
  it('refuses unknown or malformed options before starting anything', async () => {
    await expect(startLatchkey({ seeed: 'fixed' } as never)).rejects.toThrow(/unknown option "seeed"/);
    await expect(startLatchkey({ seed: 'same' } as never)).rejects.toThrow(/seed must be 'random' or 'fixed'/);
    await expect(startLatchkey({ env: { LATCHKEY_LOG_LEVEL: 3 } } as never)).rejects.toThrow(/env\.LATCHKEY_LOG_LEVEL must be a string/);
    await expect(startLatchkey({ apps: ['public-api', 'frontend'] } as never)).rejects.toThrow(/apps must be an array of 'public-api', 'auth-proxy', 'admin', 'webhook-worker'/);
    await expect(startLatchkey({ apps: ['auth-proxy'] })).rejects.toThrow(/apps must include 'public-api'/);
  });

  it('starts several instances at once from one template built once, each with its own keys, and stop() leaves nothing behind', async () => {
    const cacheDir = await makeTestDataDir('latchkey-cache-');
    const started: TLatchkey[] = [];
    try {
      // Each start may wait for the others' (a 2-core machine runs three platforms' processes here).
      // Only the public API (`apps`): the launcher runs nothing else, so the instance has no auth proxy.
      const settled = await Promise.allSettled([1, 2, 3].map(() => startLatchkey({ cacheDir, timeoutMs: 200_000, apps: ['public-api'], env: { LATCHKEY_LOG_LEVEL: 'info' } })));
      for (const r of settled) if (r.status === 'fulfilled') started.push(r.value);
      // A failed start must not leave the others running (they are stopped in finally).
      for (const r of settled) if (r.status === 'rejected') throw r.reason;
      const instances = started;
      // One template (none on an external server), and no lock or half-built folder left.
      expect(readdirSync(cacheDir).filter((n) => n.startsWith('pg-'))).toHaveLength(embedded ? 1 : 0);
      expect(new Set(instances.map((i) => i.organizationId)).size).toBe(3);
      expect(new Set(instances.map((i) => i.signerPublicKey)).size).toBe(3);
      for (const i of instances) expect(postmastersOf(i.dataDir)).toHaveLength(embedded ? 1 : 0);
      for (const i of instances) {
        expect(i.apps).toEqual(['public-api']);
        expect(() => i.authProxyUrl).toThrow(/runs without the auth-proxy app: start it with apps: \['public-api', 'auth-proxy'\]/);
        expect(i.output()).toMatch(/Latchkey is running \(public-api\)/);
      }
      await Promise.all(instances.map((i) => i.stop()));
      for (const i of instances) {
        expect(existsSync(i.dataDir)).toBe(false);
        expect(postmastersOf(i.dataDir)).toEqual([]);
        await expect(fetch(`${i.apiBaseUrl}/healthz`)).rejects.toThrow();
        await expect(i.mail.next()).rejects.toThrow(/was stopped/);
      }
    } finally {
      await Promise.all(started.map((i) => i.stop()));
      await rm(cacheDir, { recursive: true, force: true });
    }
  }, 300_000); // three whole platforms starting at once on a 2-core machine

  it("seed: 'fixed' gives two instances the same root key, server keys and root ids (and a working SDK); the default does not", async () => {
    const started: TLatchkey[] = [];
    try {
      // Inherited from the test's environment, a fixed seed is dropped: only the option asks for it.
      process.env['LATCHKEY_INSECURE_FIXED_SEED'] = FIXED_TEST_SEED;
      const settled = await Promise.allSettled([
        startLatchkey({ seed: 'fixed', apps: ['public-api'], timeoutMs: 200_000 }),
        startLatchkey({ seed: 'fixed', apps: ['public-api'], timeoutMs: 200_000 }),
        startLatchkey({ apps: ['public-api'], timeoutMs: 200_000 }),
      ]).finally(() => delete process.env['LATCHKEY_INSECURE_FIXED_SEED']);
      for (const r of settled) if (r.status === 'fulfilled') started.push(r.value);
      for (const r of settled) if (r.status === 'rejected') throw r.reason;
      const [a, b, random] = started as [TLatchkey, TLatchkey, TLatchkey];
      const fixedFields = (lk: TLatchkey) => ({
        organizationId: lk.organizationId,
        userId: lk.bootstrap.userId,
        apiKeyId: lk.bootstrap.apiKeyId,
        apiPublicKey: lk.apiPublicKey,
        apiPrivateKey: lk.apiPrivateKey,
        signerPublicKey: lk.signerPublicKey,
        notarizerPublicKey: lk.notarizerPublicKey,
        otpVerifierPublicKey: lk.otpVerifierPublicKey,
        oidcIssuerPublicKey: lk.bootstrap.oidcIssuerPublicKey,
      });
      expect(fixedFields(a)).toEqual(fixedFields(b));
      for (const [k, v] of Object.entries(fixedFields(random))) expect(v, k).not.toBe(fixedFields(a)[k as keyof ReturnType<typeof fixedFields>]);
      expect(a.dataDir).not.toBe(b.dataDir);
      // The fixed root key signs real requests.
      const client = new Turnkey({ apiBaseUrl: a.apiBaseUrl, apiPublicKey: a.apiPublicKey, apiPrivateKey: a.apiPrivateKey, defaultOrganizationId: a.organizationId }).apiClient();
      expect((await client.getWhoami({ organizationId: a.organizationId })).userId).toBe(a.bootstrap.userId);
    } finally {
      await Promise.all(started.map((i) => i.stop()));
    }
  }, 300_000);

  it('a reused data folder keeps its data (no template over an existing cluster) and is kept by stop()', async () => {
    const dataDir = await makeTestDataDir('latchkey-reuse-');
    try {
      // The first start runs initdb and the migrations itself (no template over a chosen folder).
      const first = await startLatchkey({ dataDir, timeoutMs: 120_000, apps: ['public-api'] });
      await first.stop();
      const second = await startLatchkey({ dataDir, timeoutMs: 120_000, apps: ['public-api'] });
      // Embedded: the same cluster, so the same root organization. External: a fresh database each start.
      if (embedded) expect(second.organizationId).toBe(first.organizationId);
      else expect(second.organizationId).not.toBe(first.organizationId);
      await second.stop();
      expect(existsSync(join(dataDir, embedded ? 'pg/PG_VERSION' : 'bootstrap.json'))).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000); // two starts, the first with initdb, on a machine that may be running other suites
});
