/**
 * `latchkey proxy enable` and `proxy set`, the built CLI run as an operator runs it, against a
 * real platform (the test kit's: launcher, public API and auth proxy as child processes): the
 * config id it prints is the one the proxy answers to, and what `set` changes is what the proxy
 * enforces. The activities go through the public API, stamped by the root key in bootstrap.json.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateP256KeyPair, signP256 } from '@latchkey/crypto';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', 'dist', 'main.mjs');
let latchkey: TLatchkey;
let org: string;

async function run(args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env, DATABASE_URL: '', LATCHKEY_LOG_LEVEL: 'silent', LATCHKEY_DATA_DIR: latchkey.dataDir, LATCHKEY_PUBLIC_API_URL: latchkey.baseUrl };
  try {
    const r = await promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...base, ...env }, encoding: 'utf8', timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** What a frontend's browser sends: rwk's config call, no body. */
async function walletKitConfig(configId: string, origin?: string) {
  const r = await fetch(`${latchkey.authProxyUrl}/v1/wallet_kit_config`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': configId, ...(origin ? { origin } : {}) } });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

/** get_auth_proxy_config stamped by the root key: what the platform stored. */
async function storedConfig(): Promise<Record<string, unknown>> {
  const body = JSON.stringify({ organizationId: org });
  const stamp = Buffer.from(JSON.stringify({ publicKey: latchkey.apiPublicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(latchkey.apiPrivateKey, Buffer.from(body)) })).toString('base64url');
  const r = await fetch(`${latchkey.baseUrl}/public/v1/query/get_auth_proxy_config`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stamp': stamp }, body });
  expect(r.status).toBe(200);
  return ((await r.json()) as { authProxyConfig: Record<string, unknown> }).authProxyConfig;
}

beforeAll(async () => {
  latchkey = await startLatchkey();
  org = latchkey.organizationId;
});
afterAll(async () => {
  await latchkey?.stop();
});

describe('latchkey proxy', () => {
  it('refuses a call without --org or without any setting (exit 2), and before enabling, a set is a failure naming enable', async () => {
    expect((await run(['proxy', 'enable'])).code).toBe(2);
    const none = await run(['proxy', 'set', '--org', org]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/at least one of --origins, --methods/);
    const early = await run(['proxy', 'set', '--org', org, '--origins', '*']);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/enable_auth_proxy/);
  });

  it('enable prints the config id the proxy answers to; a second enable prints the same id', async () => {
    expect((await walletKitConfig('not-a-config')).status).toBe(404);
    const r = await run(['proxy', 'enable', '--org', org]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { configId: string; userId: string; alreadyEnabled: boolean };
    expect(out).toEqual({ configId: expect.any(String), userId: expect.any(String), alreadyEnabled: false });
    expect(await storedConfig()).toMatchObject({ configId: out.configId, enabled: true, proxyUserId: out.userId });
    const cfg = await walletKitConfig(out.configId);
    expect(cfg.status).toBe(200);
    expect(cfg.json['organizationId']).toBe(org);

    const again = await run(['proxy', 'enable', '--org', org]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ ...out, alreadyEnabled: true });
  });

  it('set replaces origins and methods (the proxy then enforces them) and keeps what it was not given', async () => {
    const { configId } = JSON.parse((await run(['proxy', 'enable', '--org', org])).stdout) as { configId: string };
    const r = await run(['proxy', 'set', '--org', org, '--origins', 'https://app.example.com,http://localhost:3000', '--methods', 'email, oauth', '--social-providers', 'google']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ configId });
    expect(await storedConfig()).toMatchObject({
      allowedOrigins: ['https://app.example.com', 'http://localhost:3000'],
      allowedAuthMethods: ['email', 'oauth'],
      walletKitSettings: { enabledSocialProviders: ['google'] },
    });
    await new Promise((res) => setTimeout(res, 1100)); // the proxy keeps a config for 1 s
    const allowed = await walletKitConfig(configId, 'https://app.example.com');
    expect(allowed.status).toBe(200);
    expect(allowed.json['enabledProviders']).toEqual(['email', 'google']);
    expect((await walletKitConfig(configId, 'https://evil.example.com')).status).toBe(403);

    // Only the methods: the origins stay.
    expect((await run(['proxy', 'set', '--org', org, '--methods', 'email'])).code).toBe(0);
    expect(await storedConfig()).toMatchObject({ allowedOrigins: ['https://app.example.com', 'http://localhost:3000'], allowedAuthMethods: ['email'] });
  });

  it('a value the public API refuses is a usage error naming the field and what is allowed; nothing changes', async () => {
    const before = await storedConfig();
    const method = await run(['proxy', 'set', '--org', org, '--methods', 'email,fax']);
    expect(method.code).toBe(2);
    expect(method.stderr).toMatch(/allowedAuthMethods/);
    expect(method.stderr).toMatch(/email, sms, passkey, wallet, oauth/);
    const origin = await run(['proxy', 'set', '--org', org, '--origins', 'https://*.example.com']);
    expect(origin.code).toBe(2);
    expect(origin.stderr).toMatch(/allowedOrigins/);
    expect(await storedConfig()).toEqual(before);
  });

  it('a key the organization does not hold is refused by the public API (exit 1); an unreachable API says where it looked', async () => {
    const kp = generateP256KeyPair();
    const keyFile = join(latchkey.dataDir, 'stranger.json');
    await writeFile(keyFile, JSON.stringify({ publicKey: kp.publicKey, privateKey: kp.privateKey }));
    const stranger = await run(['proxy', 'set', '--org', org, '--origins', '*', '--key-file', keyFile]);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toMatch(/HTTP 401/);
    const mismatched = join(latchkey.dataDir, 'mismatched.json');
    await writeFile(mismatched, JSON.stringify({ publicKey: latchkey.apiPublicKey, privateKey: kp.privateKey }));
    expect((await run(['proxy', 'enable', '--org', org, '--key-file', mismatched])).stderr).toMatch(/not the private key's/);
    expect((await run(['proxy', 'enable', '--org', org, '--key-file', join(latchkey.dataDir, 'missing.json')])).code).toBe(2);
    const down = await run(['proxy', 'enable', '--org', org], { LATCHKEY_PUBLIC_API_URL: 'http://127.0.0.1:9' });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/cannot reach the public API at http:\/\/127\.0\.0\.1:9/);
  });
});
