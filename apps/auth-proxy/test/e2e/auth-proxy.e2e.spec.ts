/**
 * The auth proxy end to end (issue 13 §4, notes §C): the real platform (`npm start`'s launcher,
 * public API and proxy as child processes, a real PostgreSQL), a real SMTP capture server for the
 * codes, the real OIDC provider of the test kit, and the unmodified `@turnkey/core` 2.8.1 running
 * headless in Node as notes §A6 describes (fake-indexeddb, a window/localStorage shim).
 */
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { generateP256KeyPair, signP256 } from '@latchkey/crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { encryptOtpCodeToBundle } from '@turnkey/crypto';
import { startLatchkey, startOidcProvider, startSmtpCapture, type TCapturedMail, type TLatchkey, type TOidcProvider, type TSmtpCapture } from '@latchkey/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// §A6: core captures `window` at first import, so the shim goes in before core is loaded (below).
const store = new Map<string, string>();
Object.assign(globalThis, {
  window: {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, String(v)),
      removeItem: (k: string) => void store.delete(k),
      clear: () => store.clear(),
      key: (i: number) => [...store.keys()][i] ?? null,
      get length() {
        return store.size;
      },
    },
    location: { hostname: 'localhost' },
  },
  document: {},
});
type TCore = typeof import('@turnkey/core');
let core: TCore;

const APP_CLIENT_ID = 'latchkey-proxy-app';
const OTHER_CLIENT_ID = 'another-app';
const REDIRECT_URI = 'http://127.0.0.1/callback';
/** Cloudflare's documented always-passes test site key (public; the widget is never loaded here). */
const TURNSTILE_SITE_KEY = '1x00000000000000000000AA';

let latchkey: TLatchkey;
let smtp: TSmtpCapture;
let oidc: TOidcProvider;
let parentOrgId: string;
let configId: string;
let proxyUserId: string;

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
let n = 0;
const uniqueEmail = (p: string) => `${p}~${Date.now().toString(36)}${++n}?x&y@example.com`;

/** A stamped submit by the parent's root key (no SDK has the auth-proxy activities, notes §A3). */
async function rootSubmit(path: string, type: string, parameters: object): Promise<{ status: number; json: any }> {
  const b = latchkey.bootstrap;
  const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: b.organizationId, parameters });
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: b.apiPublicKey, apiPrivateKey: b.apiPrivateKey! }).stamp(body);
  const r = await fetch(`${latchkey.baseUrl}/public/v1/${path.startsWith('get_') ? 'query' : 'submit'}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue }, body });
  return { status: r.status, json: await r.json() };
}
const updateConfig = (p: object) => rootSubmit('update_auth_proxy_config', 'ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', p);

/** A raw proxy call (what a browser would send: Origin, and no body where rwk sends none). */
async function proxyCall(path: string, body: object | undefined, headers: Record<string, string> = {}, id: string = configId) {
  const r = await fetch(`${latchkey.authProxyUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': id, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, headers: r.headers, json: (await r.json()) as any };
}

function newClient(): InstanceType<TCore['TurnkeyClient']> {
  return new core.TurnkeyClient({ apiBaseUrl: latchkey.baseUrl, authProxyUrl: latchkey.authProxyUrl, authProxyConfigId: configId, organizationId: parentOrgId });
}

function codeFromMail(mail: TCapturedMail): string {
  const lines = mail.text.split('\n').map((l) => l.trim());
  const at = lines.findIndex((l) => l.startsWith('Enter this code'));
  const code = lines.slice(at + 1).find((l) => l.length > 0);
  if (at < 0 || !code) throw new Error(`no code in mail: ${mail.subject}`);
  return code;
}

/** initOtp through the proxy, then the §3 workaround: encrypt to Latchkey's OTP key, proxyVerifyOtpV2. */
async function otpToken(client: InstanceType<TCore['TurnkeyClient']>, contact: string): Promise<{ verificationToken: string; publicKey: string }> {
  const since = smtp.messages.length;
  const { otpId, otpEncryptionTargetBundle } = await client.initOtp({ otpType: core.OtpType.Email, contact });
  const mail = await smtp.waitForMessage((m) => smtp.messages.indexOf(m) >= since && m.to.includes(contact.toLowerCase()));
  const publicKey = await client.createApiKeyPair();
  const encryptedOtpBundle = await encryptOtpCodeToBundle(codeFromMail(mail), otpEncryptionTargetBundle, publicKey, latchkey.bootstrap.otpVerifierPublicKey);
  const { verificationToken } = await client.httpClient.proxyVerifyOtpV2({ otpId, encryptedOtpBundle });
  return { verificationToken, publicKey };
}

beforeAll(async () => {
  smtp = await startSmtpCapture();
  oidc = await startOidcProvider({ clients: [{ clientId: APP_CLIENT_ID, redirectUris: [REDIRECT_URI] }, { clientId: OTHER_CLIENT_ID, redirectUris: [REDIRECT_URI] }] });
  latchkey = await startLatchkey({ env: { LATCHKEY_SMTP_URL: smtp.url, LATCHKEY_OIDC_HTTP_ISSUERS: oidc.issuer, LATCHKEY_LOG_LEVEL: 'debug', LATCHKEY_TURNSTILE_SITE_KEY: TURNSTILE_SITE_KEY } });
  parentOrgId = latchkey.bootstrap.organizationId;
  core = await import('@turnkey/core');
  const enabled = await rootSubmit('enable_auth_proxy', 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY', {});
  expect(enabled.status).toBe(200);
  ({ configId, userId: proxyUserId } = enabled.json.activity.result.enableAuthProxyResult);
  const set = await updateConfig({
    allowedOrigins: ['*'],
    allowedAuthMethods: ['email', 'oauth'],
    walletKitSettings: { enabledSocialProviders: ['google'], oauthClientIds: { google: APP_CLIENT_ID } },
    otpLength: 8,
    otpAlphanumeric: false,
    rateLimits: { configRps: 1000, ipRps: 1000, otpPerContactPerMinute: 10 },
  });
  expect(set.status).toBe(200);
});
afterAll(async () => {
  await latchkey?.stop();
  await smtp?.stop();
  await oidc?.stop();
});

describe('§C1 OTP sign-up with unmodified @turnkey/core', () => {
  it('boots rwk’s config with no body, signs up through the proxy, logs in with an attested stamp_login, and finds the account after', async () => {
    const cfg = await core.getAuthProxyConfig(configId, latchkey.authProxyUrl);
    expect(cfg).toMatchObject({ enabledProviders: ['email', 'google'], sessionExpirationSeconds: '900', organizationId: parentOrgId, otpLength: '8', otpAlphanumeric: false, oauthClientIds: { google: APP_CLIENT_ID } });
    expect(await core.getClientParams(configId, latchkey.authProxyUrl)).toEqual({});

    const client = newClient();
    await client.init();
    const contact = uniqueEmail('c1');
    const since = smtp.messages.length;
    const { otpId, otpEncryptionTargetBundle } = await client.initOtp({ otpType: core.OtpType.Email, contact });
    const bundle = JSON.parse(otpEncryptionTargetBundle) as { enclaveQuorumPublic: string };
    expect(bundle.enclaveQuorumPublic).toBe(latchkey.bootstrap.otpVerifierPublicKey);
    const mail = await smtp.waitForMessage((m) => smtp.messages.indexOf(m) >= since && m.to.includes(contact.toLowerCase()));
    const code = codeFromMail(mail);
    expect(code).toMatch(/^[0-9]{8}$/);

    // §3: core's own verifyOtp encrypts to Turnkey's production key only.
    await expect(client.verifyOtp({ otpId, otpCode: code, otpEncryptionTargetBundle })).rejects.toThrow();

    const pk = await client.createApiKeyPair();
    const wrong = await encryptOtpCodeToBundle('00000000', otpEncryptionTargetBundle, pk, latchkey.bootstrap.otpVerifierPublicKey);
    await expect(client.httpClient.proxyVerifyOtpV2({ otpId, encryptedOtpBundle: wrong })).rejects.toThrow(/Invalid OTP code/);
    const eb = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, pk, latchkey.bootstrap.otpVerifierPublicKey);
    const { verificationToken } = await client.httpClient.proxyVerifyOtpV2({ otpId, encryptedOtpBundle: eb });
    expect(payloadOf(verificationToken)['public_key']).toBe(pk);
    expect(await client.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: contact, verificationToken })).toEqual({});

    const result = await client.signUpWithOtp({ verificationToken, contact, otpType: core.OtpType.Email });
    expect(result.sessionToken).toBeTruthy();
    const session = await client.getSession();
    expect(session?.publicKey).toBe(pk);
    expect(session?.organizationId).not.toBe(parentOrgId);
    const user = await client.fetchUser();
    expect(user.userEmail).toBe(contact);
    const found = await client.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: contact, verificationToken });
    expect(found).toEqual({ organizationId: session!.organizationId });
  });

  it('refuses a sign-up whose client signature was tampered with (400) and writes nothing', async () => {
    const client = newClient();
    await client.init();
    const contact = uniqueEmail('tamper');
    const { verificationToken, publicKey } = await otpToken(client, contact);
    const message = JSON.stringify({ signupV2: { apiKeys: [], authenticators: [], oauthProviders: [], email: contact }, tokenId: payloadOf(verificationToken)['id'], type: 'USAGE_TYPE_SIGNUP' });
    const body = { userName: contact, userEmail: contact, authenticators: [], apiKeys: [], oauthProviders: [], organizationName: 'x', verificationToken, clientSignature: { publicKey, scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256', message, signature: '00'.repeat(64) } };
    const r = await proxyCall('/v1/signup_v2', body);
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/clientSignature/);
    expect(await client.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: contact })).toEqual({});
  });
});

describe('§C2 OTP login', () => {
  it('logs in with and without the organization id; a tampered token is refused', async () => {
    const signupClient = newClient();
    await signupClient.init();
    const contact = uniqueEmail('c2');
    const first = await otpToken(signupClient, contact);
    await signupClient.signUpWithOtp({ verificationToken: first.verificationToken, contact, otpType: core.OtpType.Email });
    const subOrg = (await signupClient.getSession())!.organizationId;

    for (const withOrg of [true, false]) {
      const client = newClient();
      await client.init();
      const { verificationToken, publicKey } = await otpToken(client, contact);
      expect(await client.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: contact, verificationToken })).toEqual({ organizationId: subOrg });
      await client.loginWithOtp({ verificationToken, ...(withOrg ? { organizationId: subOrg } : {}) });
      const s = await client.getSession();
      expect(s).toMatchObject({ organizationId: subOrg, publicKey });
    }

    const client = newClient();
    await client.init();
    const { verificationToken } = await otpToken(client, contact);
    const [h, p, s] = verificationToken.split('.');
    const tampered = `${h}.${p}.${s!.slice(0, -4)}AAAA`;
    await expect(client.loginWithOtp({ verificationToken: tampered, organizationId: subOrg })).rejects.toThrow();
  });

  it('with a verification token, /v1/account finds only an account that proved the e-mail (list_verified_suborgs); core’s attested login proves it', async () => {
    // An account the parent made with an e-mail nobody proved.
    const contact = uniqueEmail('typed');
    const made = await rootSubmit('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', {
      subOrganizationName: `typed-${Date.now()}`,
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: 'typed', userEmail: contact, apiKeys: [], authenticators: [], oauthProviders: [] }],
    });
    expect(made.status).toBe(200);
    const subOrg = made.json.activity.result.createSubOrganizationResultV8.subOrganizationId as string;

    // A fresh browser: an earlier test's stored session would make core aim its login at that session's organization.
    store.clear();
    const client = newClient();
    await client.init();
    const { verificationToken } = await otpToken(client, contact);
    expect(await client.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: contact, verificationToken })).toEqual({});
    // Without a token the lookup is list_suborgs' (the config does not require one for PII).
    expect(await client.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: contact })).toEqual({ organizationId: subOrg });
    // A token for another contact is refused.
    await expect(client.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: uniqueEmail('other'), verificationToken })).rejects.toThrow(/another contact/);

    // core's login (an attested stamp_login; the sub-organization found from the token) proves the e-mail.
    await client.loginWithOtp({ verificationToken });
    expect((await client.getSession())?.organizationId).toBe(subOrg);
    const next = newClient();
    await next.init();
    const again = await otpToken(next, contact);
    expect(await next.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: contact, verificationToken: again.verificationToken })).toEqual({ organizationId: subOrg });
  });
});

describe('§C3 OAuth sign-up then login', () => {
  it('SIGNUP then LOGIN for the same identity; a nonce for another key and a wrong audience are refused', async () => {
    const sub = `oauth-${Date.now()}`;
    const client = newClient();
    await client.init();
    const opk = await client.createApiKeyPair();
    const idToken = await oidc.obtainIdToken({ sub, clientId: APP_CLIENT_ID, nonce: sha256Hex(opk), email: 'o@example.com' });
    const first = await client.completeOauth({ oidcToken: idToken, publicKey: opk, providerName: 'TestIdP' });
    expect(first.action).toBe('SIGNUP');
    const subOrg = (await client.getSession())!.organizationId;
    await client.clearSession();

    const opk2 = await client.createApiKeyPair();
    const idToken2 = await oidc.obtainIdToken({ sub, clientId: APP_CLIENT_ID, nonce: sha256Hex(opk2) });
    const second = await client.completeOauth({ oidcToken: idToken2, publicKey: opk2, providerName: 'TestIdP' });
    expect(second.action).toBe('LOGIN');
    expect((await client.getSession())!.organizationId).toBe(subOrg);
    // core's addOauthProvider looks an identity up by its claims (OIDC_CLAIMS): exactly iss, sub and aud.
    const claims = { iss: oidc.issuer, sub, aud: APP_CLIENT_ID };
    expect(await client.httpClient.proxyGetAccount({ filterType: 'OIDC_CLAIMS', filterValue: JSON.stringify(claims) })).toEqual({ organizationId: subOrg });
    expect(await client.httpClient.proxyGetAccount({ filterType: 'OIDC_CLAIMS', filterValue: JSON.stringify({ ...claims, aud: OTHER_CLIENT_ID }) })).toEqual({});
    await expect(client.httpClient.proxyGetAccount({ filterType: 'OIDC_CLAIMS', filterValue: 'not json' })).rejects.toThrow(/OIDC_CLAIMS takes the JSON/);

    const opk3 = await client.createApiKeyPair();
    const otherNonce = await oidc.obtainIdToken({ sub, clientId: APP_CLIENT_ID, nonce: sha256Hex('another key') });
    await expect(client.loginWithOauth({ oidcToken: otherNonce, publicKey: opk3 })).rejects.toThrow();
    await expect(client.loginWithOauth({ oidcToken: await oidc.obtainIdToken({ sub, clientId: OTHER_CLIENT_ID, nonce: sha256Hex(opk3) }), publicKey: opk3 })).rejects.toThrow();
    // What core sent, by hand, to see the status: an attested stamp_login whose token is for another audience is a 401.
    const key = generateP256KeyPair();
    const wrongAud = await oidc.obtainIdToken({ sub, clientId: OTHER_CLIENT_ID, nonce: sha256Hex(key.publicKey) });
    const body = JSON.stringify({ parameters: { publicKey: key.publicKey, expirationSeconds: '900', invalidateExisting: false }, organizationId: parentOrgId, timestampMs: String(Date.now()), type: 'ACTIVITY_TYPE_STAMP_LOGIN' });
    const attested = Buffer.from(JSON.stringify({ publicKeyAttestation: wrongAud, scheme: 'STAMP_ATTESTED_SCHEME_P256_OIDC', publicKey: key.publicKey, signature: signP256(key.privateKey, Buffer.from(body)) })).toString('base64url');
    const r = await fetch(`${latchkey.baseUrl}/public/v1/submit/stamp_login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stamp-attested': attested }, body });
    expect(r.status).toBe(401);
    expect(((await r.json()) as { code: number }).code).toBe(16);
  });
});

describe('origins, methods, limits, disabling', () => {
  it('refuses an origin the config does not allow (403 naming it, no CORS header), allows a listed one, answers any preflight', async () => {
    await updateConfig({ allowedOrigins: ['https://app.example.com'] });
    await new Promise((r) => setTimeout(r, 1100)); // the proxy keeps a config for 1 s
    const refused = await proxyCall('/v1/wallet_kit_config', undefined, { origin: 'https://evil.example.com' });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain('https://evil.example.com');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const serverSide = await proxyCall('/v1/wallet_kit_config', undefined);
    expect(serverSide.status).toBe(403);
    const allowed = await proxyCall('/v1/wallet_kit_config', undefined, { origin: 'https://app.example.com' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const pre = await fetch(`${latchkey.authProxyUrl}/v1/otp_init_v2`, { method: 'OPTIONS', headers: { origin: 'https://anything.example', 'access-control-request-headers': 'content-type,x-auth-proxy-config-id' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('x-auth-proxy-config-id');
    // The public API answers the browser's direct stamp_login preflight.
    const api = await fetch(`${latchkey.baseUrl}/public/v1/submit/stamp_login`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com' } });
    expect(api.headers.get('access-control-allow-headers')).toContain('x-stamp-attested');
    expect(api.headers.get('access-control-allow-headers')).toContain('x-client-version');
    await updateConfig({ allowedOrigins: ['*'] });
  });

  it('refuses a method the config does not allow with the words core maps', async () => {
    await updateConfig({ allowedAuthMethods: ['email'] });
    await new Promise((r) => setTimeout(r, 1100));
    const r = await proxyCall('/v1/oauth_login', { oidcToken: 'x', publicKey: `02${'11'.repeat(32)}` });
    expect(r.status).toBe(403);
    expect(r.json.message).toContain('OAUTH disallowed');
    const sms = await proxyCall('/v1/otp_init_v2', { otpType: 'OTP_TYPE_SMS', contact: '+14155550100' });
    expect(sms.json.message).toContain('SMS disallowed');
    await updateConfig({ allowedAuthMethods: ['email', 'oauth'] });
  });

  it('rate limits per client address: 429 with Retry-After naming the limit, then recovers', async () => {
    await updateConfig({ rateLimits: { ipRps: 1 } });
    await new Promise((r) => setTimeout(r, 1100));
    const codes: number[] = [];
    let limited: Awaited<ReturnType<typeof proxyCall>> | undefined;
    for (let i = 0; i < 6; i++) {
      const r = await proxyCall('/v1/wallet_kit_config', undefined);
      codes.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(codes).toContain(429);
    expect(limited!.headers.get('retry-after')).toMatch(/^[0-9]+$/);
    expect(limited!.json.message).toMatch(/per client address/);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await proxyCall('/v1/wallet_kit_config', undefined)).status).toBe(200);
    await updateConfig({ rateLimits: { ipRps: 1000 } });
  });

  it('captcha enabled: rwk gets the Turnstile site key; without LATCHKEY_TURNSTILE_SECRET the guarded calls answer 503 naming it', async () => {
    await updateConfig({ captchaEnabled: true });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await core.getClientParams(configId, latchkey.authProxyUrl)).toEqual({ turnstileSiteKey: TURNSTILE_SITE_KEY });
    const r = await proxyCall('/v1/otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact: uniqueEmail('cap') }, { 'x-captcha-token': 't' });
    expect(r.status).toBe(503);
    expect(r.json.message).toContain('LATCHKEY_TURNSTILE_SECRET');
    await updateConfig({ captchaEnabled: false });
  });

  it('never has the proxy key in the clear in the logs or the database; a disabled config answers 404 naming it', async () => {
    const db = new pg.Client({ connectionString: await latchkey.databaseUrl() });
    await db.connect();
    try {
      const row = (await db.query<{ sealed_proxy_private_key: string; proxy_user_id: string }>('SELECT sealed_proxy_private_key, proxy_user_id FROM auth_proxy_configs WHERE id = $1', [configId])).rows[0]!;
      expect(row.proxy_user_id).toBe(proxyUserId);
      expect(row.sealed_proxy_private_key).toMatch(/^v1\./);
      // The only hex private keys the process may print are none: scan for any 64-hex run next to "private".
      expect(latchkey.output()).not.toMatch(/private[^\n]{0,40}[0-9a-f]{64}/i);
      expect(latchkey.output()).not.toContain(row.sealed_proxy_private_key);
    } finally {
      await db.end();
    }
    const off = await rootSubmit('disable_auth_proxy', 'ACTIVITY_TYPE_DISABLE_AUTH_PROXY', {});
    expect(off.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const r = await proxyCall('/v1/wallet_kit_config', undefined);
    expect(r.status).toBe(404);
    expect(r.json.message).toContain(configId);
    expect(r.json.code).toBe(5);
    const wrongMethod = await fetch(`${latchkey.authProxyUrl}/v1/wallet_kit_config`, { method: 'GET' });
    expect(wrongMethod.status).toBe(404);
  });
});
