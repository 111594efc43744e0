/**
 * The auth proxy's configuration in process against a real database: enable / update / disable with
 * Turnkey's wire names, get_auth_proxy_config (never a secret), the proxy user's policy (the login
 * activities it forwards and nothing else), the sealed key, and the internal read the proxy process
 * makes (sealed by the master key, 404 naming a disabled config).
 */
import { createKeyVault, generateMasterKey, generateP256KeyPair, sealInternalRequest, signP256, type TKeyVault } from '@latchkey/crypto';
import { AUTH_PROXY_INTERNAL_AAD, authProxyKeyAad, type TActivity, type TAuthProxyConfigWire } from '@latchkey/domain';
import { createStore, openDatabase, runMigrations, type TDatabase, type TStore } from '@latchkey/persistence';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthProxyRuntimeReader, createEngine, createRootOrganization, ensureServerKeys, unconfiguredServices, type TEngine } from '../../index.js';

type TKey = { publicKey: string; privateKey: string };

let testDb: TTestDatabase;
let db: TDatabase;
let store: TStore;
let vault: TKeyVault;
let engine: TEngine;
let root: { organizationId: string; userId: string } & TKey;

const stamp = (body: string, key: TKey) => ({
  'x-stamp': Buffer.from(JSON.stringify({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(key.privateKey, Buffer.from(body)) })).toString('base64url'),
});
async function submit(path: string, type: string, parameters: object, key: TKey = root): Promise<TActivity> {
  const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: root.organizationId, parameters });
  return (await engine.submit(path, stamp(body, key), Buffer.from(body))).activity;
}
async function query<T>(path: string, body: object, key: TKey = root): Promise<T> {
  const text = JSON.stringify({ organizationId: root.organizationId, ...body });
  return (await engine.query(path, stamp(text, key), Buffer.from(text))) as T;
}
async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x as { code: string; message: string },
  );
  expect(e, 'expected a refusal').toBeDefined();
  return e!;
}
const enable = () => submit('enable_auth_proxy', 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY', {});
const update = (p: object) => submit('update_auth_proxy_config', 'ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', p);
const disable = () => submit('disable_auth_proxy', 'ACTIVITY_TYPE_DISABLE_AUTH_PROXY', {});
const readRuntime = (configId: string, sealer: TKeyVault = vault) => {
  const raw = Buffer.from(JSON.stringify({ configId }));
  return createAuthProxyRuntimeReader(store, vault)({ 'x-latchkey-internal': sealInternalRequest(sealer, AUTH_PROXY_INTERNAL_AAD, raw, Date.now()) }, raw);
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  await runMigrations(testDb.url);
  db = openDatabase(testDb.url);
  store = createStore(db.prisma, db.sql);
  vault = createKeyVault(generateMasterKey());
  await ensureServerKeys(store, vault);
  const kp = generateP256KeyPair();
  const boot = await store.transaction((tx) => createRootOrganization(tx, { organizationName: 'Root organization', userName: 'root', apiPublicKey: kp.publicKey, apiKeyName: 'bootstrap' }));
  root = { organizationId: boot.organizationId, userId: boot.userId, ...kp };
  engine = createEngine({ store, vault, timestampWindowMs: 300_000, services: unconfiguredServices() });
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
  await stopTestPostgres();
});

describe('enable / update / disable_auth_proxy and get_auth_proxy_config', () => {
  let configId = '';
  let proxyUserId = '';
  let proxyKey: TKey;

  it('enables: a proxy user (not root) whose key is sealed, a config id, the documented defaults, no secret anywhere on the wire', async () => {
    const a = await enable();
    expect(a.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const r = a.result['enableAuthProxyResult'] as { userId: string; configId: string };
    ({ userId: proxyUserId, configId } = r);
    expect(proxyUserId).toBeTruthy();
    expect(configId).toBeTruthy();
    const { authProxyConfig } = await query<{ authProxyConfig: TAuthProxyConfigWire }>('get_auth_proxy_config', {});
    expect(authProxyConfig).toMatchObject({
      configId,
      organizationId: root.organizationId,
      enabled: true,
      proxyUserId,
      allowedOrigins: ['*'],
      allowedAuthMethods: ['email', 'sms', 'passkey', 'wallet', 'oauth'],
      otpLength: 6,
      otpAlphanumeric: true,
      sessionExpirationSeconds: 900,
      captchaEnabled: false,
      walletKitSettings: { enabledSocialProviders: [], oauthClientIds: {} },
    });
    const row = (await db.sql.query<{ sealed_proxy_private_key: string }>('SELECT sealed_proxy_private_key FROM auth_proxy_configs WHERE id = $1', [configId])).rows[0]!;
    const privateKey = Buffer.from(vault.open(row.sealed_proxy_private_key, authProxyKeyAad(configId))).toString('hex');
    expect(row.sealed_proxy_private_key).not.toContain(privateKey);
    expect(JSON.stringify(a)).not.toContain(privateKey);
    expect(JSON.stringify(authProxyConfig)).not.toContain(row.sealed_proxy_private_key);
    const runtime = await readRuntime(configId);
    proxyKey = { publicKey: runtime.proxyApiPublicKey, privateKey };
    const quorum = await store.organizations.rootQuorumMembers(root.organizationId);
    expect(quorum.map((m) => m.userId)).not.toContain(proxyUserId);
    expect((await refusal(enable())).message).toMatch(/already enabled.*update_auth_proxy_config/);
  });

  it('the proxy user may run what it forwards and nothing else (a policy like any other)', async () => {
    const who = await query<{ userId: string }>('whoami', {}, proxyKey);
    expect(who.userId).toBe(proxyUserId);
    const wallet = await refusal(submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'no', accounts: [] }, proxyKey));
    expect(wallet.code).toBe('REQUEST_NOT_AUTHORIZED');
    // A forwarded kind passes the policy and reaches its handler (which needs mail: not configured here).
    const otp = await refusal(
      submit('init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', { otpType: 'OTP_TYPE_EMAIL', contact: 'a~b?c&d@example.com', appName: 'app', otpLength: 6 }, proxyKey),
    );
    expect(otp.code).not.toBe('REQUEST_NOT_AUTHORIZED');
    expect(otp.code).not.toBe('BAD_REQUEST');
  });

  it('updates each field it is given and keeps the rest; refuses bad origins, unknown methods and lengths naming what is allowed', async () => {
    const u = await update({
      allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
      allowedAuthMethods: ['email', 'oauth'],
      walletKitSettings: { enabledSocialProviders: ['google'], oauthClientIds: { google: 'client-1' }, oauthRedirectUrl: 'https://app.example.com/cb' },
      otpLength: 8,
      otpAlphanumeric: false,
      sessionExpirationSeconds: 3600,
      sendFromEmailAddress: 'no-reply+auth@example.com',
      rateLimits: { ipRps: 2 },
    });
    expect(u.result['updateAuthProxyConfigResult']).toEqual({ configId });
    await update({ captchaEnabled: true });
    const { authProxyConfig } = await query<{ authProxyConfig: TAuthProxyConfigWire }>('get_auth_proxy_config', {});
    expect(authProxyConfig).toMatchObject({
      allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
      allowedAuthMethods: ['email', 'oauth'],
      walletKitSettings: { enabledSocialProviders: ['google'], oauthClientIds: { google: 'client-1' }, oauthRedirectUrl: 'https://app.example.com/cb' },
      otpLength: 8,
      otpAlphanumeric: false,
      sessionExpirationSeconds: 3600,
      captchaEnabled: true,
      rateLimits: { configRps: 50, ipRps: 2, otpPerContactPerMinute: 3 },
    });
    for (const [origin, why] of [
      ['https://app.example.com/', /no path/],
      ['https://*.example.com', /partial wildcards/],
      ['ftp://example.com', /http/],
      ['app.example.com', /origin/],
    ] as const) {
      const e = await refusal(update({ allowedOrigins: [origin] }));
      expect(e.code).toBe('BAD_REQUEST');
      expect(e.message).toMatch(why);
    }
    const method = await refusal(update({ allowedAuthMethods: ['email', 'magic'] }));
    expect(method.message).toMatch(/allowedAuthMethods\.1: must be one of email, sms, passkey, wallet, oauth/);
    expect((await refusal(update({ otpLength: 10 }))).message).toMatch(/otpLength: must be from 6 to 9/);
    expect((await refusal(update({ walletKitSettings: { enabledSocialProviders: ['myspace'] } }))).message).toMatch(/google, apple, facebook, x, discord/);
    // Nothing of the refused updates was stored.
    expect((await query<{ authProxyConfig: TAuthProxyConfigWire }>('get_auth_proxy_config', {})).authProxyConfig.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it('the internal read is refused unless sealed by this master key', async () => {
    const other = createKeyVault(generateMasterKey());
    expect((await refusal(readRuntime(configId, other))).code).toBe('UNAUTHENTICATED');
    const raw = Buffer.from(JSON.stringify({ configId }));
    const sealedForOther = sealInternalRequest(vault, AUTH_PROXY_INTERNAL_AAD, Buffer.from(JSON.stringify({ configId: 'x' })), Date.now());
    expect((await refusal(createAuthProxyRuntimeReader(store, vault)({ 'x-latchkey-internal': sealedForOther }, raw))).message).toMatch(/another body/);
    expect((await refusal(createAuthProxyRuntimeReader(store, vault)({}, raw))).code).toBe('UNAUTHENTICATED');
  });

  it('disables: the config answers 404 naming it, the key no longer authenticates; enabling again keeps the id with a new key', async () => {
    await disable();
    const gone = await refusal(readRuntime(configId));
    expect(gone.code).toBe('NOT_FOUND');
    expect(gone.message).toContain(configId);
    expect((await refusal(query('whoami', {}, proxyKey))).code).toMatch(/PUBLIC_KEY_NOT_FOUND|UNAUTHENTICATED/);
    expect((await query<{ authProxyConfig: TAuthProxyConfigWire }>('get_auth_proxy_config', {})).authProxyConfig.enabled).toBe(false);
    expect((await refusal(disable())).message).toMatch(/already disabled/);

    const again = (await enable()).result['enableAuthProxyResult'] as { userId: string; configId: string };
    expect(again).toEqual({ userId: proxyUserId, configId });
    const runtime = await readRuntime(configId);
    expect(runtime.proxyApiPublicKey).not.toBe(proxyKey.publicKey);
    expect(runtime.config.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });
});
