/**
 * Session profiles and read-only sessions end to end (issue 16 §4), through the unmodified
 * `@turnkey/sdk-server`: create_session_profile (its scope checked before anything is written),
 * get_session_profile(s), logins naming a profile (stamp_login by the root user; otp_login of a
 * sub-organization's user with the parent's profile) whose session keys are held to the profile's
 * scope — read-only, a RESOURCE:ACTION list, a policy condition — and its lifetime; and
 * create_read_only_session, whose token (raw fetch, `X-Session`) reads but never submits and is
 * refused once expired. The server runs with LATCHKEY_READ_ONLY_SESSION_SECONDS=8 so the expiry
 * is observed without waiting an hour.
 */
import { generateP256KeyPair, encryptOtpCodeToBundle, verifyOtpVerificationToken } from '@turnkey/crypto';
import { startLatchkey, startSmtpCapture, type TLatchkey, type TSmtpCapture } from '@latchkey/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, clientSignature, codeFromMail, createWalletRequest, expectErrorResponse, rawRequest, uniqueName, type TRawResponse } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair } from './policy-e2e-helpers.js';

const READ_ONLY_SECONDS = 8;

let latchkey: TLatchkey;
let smtp: TSmtpCapture;
let e2e: ReturnType<typeof policyE2e>;
const root = () => e2e.sdk(e2e.rootKey);

const wallet = (walletName: string) => ({ walletName, accounts: [accountParams(0)] });
const jwtClaims = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** A session key of the root user from stamp_login, under a profile when one is named. */
async function rootSession(sessionProfileId?: string, expirationSeconds?: string): Promise<{ key: TKeyPair; session: string }> {
  const key = generateP256KeyPair();
  const { session } = await root().stampLogin({ publicKey: key.publicKey, ...(sessionProfileId ? { sessionProfileId } : {}), ...(expirationSeconds ? { expirationSeconds } : {}) });
  return { key: { publicKey: key.publicKey, privateKey: key.privateKey }, session };
}

const newProfile = async (scope: string, extra: { expirationSeconds?: string; notes?: string } = {}) =>
  (await root().createSessionProfile({ sessionProfileName: uniqueName('profile'), scope, ...extra })).sessionProfileId;

/** A POST with `X-Session` instead of a stamp. */
const withSession = (token: string, path: string, body: object): Promise<TRawResponse> =>
  rawRequest(`${latchkey.baseUrl}${path}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-session': token } });

beforeAll(async () => {
  smtp = await startSmtpCapture();
  latchkey = await startLatchkey({
    apps: ['public-api'],
    env: { LATCHKEY_SMTP_URL: smtp.url, LATCHKEY_EMAIL_FROM: 'Latchkey Tests <no-reply@latchkey.test>', LATCHKEY_READ_ONLY_SESSION_SECONDS: String(READ_ONLY_SECONDS) },
  });
  e2e = policyE2e(latchkey);
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
  await smtp?.stop();
});

describe('create_session_profile and its queries', () => {
  it('creates a profile and reads it back as v1SessionProfile', async () => {
    const name = uniqueName('read-only');
    const { sessionProfileId } = await root().createSessionProfile({ sessionProfileName: name, scope: 'read-only', expirationSeconds: '600', notes: 'dashboards' });
    const { sessionProfile } = await root().getSessionProfile({ sessionProfileId });
    expect(sessionProfile).toEqual({
      sessionProfileId,
      sessionProfileName: name,
      scope: 'read-only',
      expirationSeconds: '600',
      notes: 'dashboards',
      createdAt: { seconds: expect.any(String), nanos: expect.any(String) },
      updatedAt: { seconds: expect.any(String), nanos: expect.any(String) },
    });
    expect((await root().getSessionProfiles({})).sessionProfiles.map((p) => p.sessionProfileId)).toContain(sessionProfileId);
    const missing = await refusal(root().getSessionProfile({ sessionProfileId: '00000000-0000-4000-8000-000000000000' }));
    expect(missing.code).toBe(5);
  });

  it.each([
    ['WALLETS:CREATE', 'unknown resource WALLETS'],
    ['WALLET:MAKE', 'unknown action MAKE'],
    ["activity.resource == ", 'not a policy condition'],
    ['', 'scope'],
  ])('refuses the scope %j with a 400 naming scope, writing nothing', async (scope, message) => {
    const before = (await root().getSessionProfiles({})).sessionProfiles.length;
    const err = await refusal(root().createSessionProfile({ sessionProfileName: uniqueName('bad'), scope }));
    expect(err.code).toBe(3);
    expect(err.message).toContain('scope');
    expect(err.message).toContain(message);
    expect((await root().getSessionProfiles({})).sessionProfiles).toHaveLength(before);
  });
});

describe('logins under a session profile', () => {
  it('refuses a login naming an unknown profile (404 naming sessionProfileId) and registers no key', async () => {
    const before = (await root().getApiKeys({ userId: latchkey.bootstrap.userId })).apiKeys.length;
    const err = await refusal(root().stampLogin({ publicKey: generateP256KeyPair().publicKey, sessionProfileId: '00000000-0000-4000-8000-000000000001' }));
    expect(err.code).toBe(5);
    expect(err.message).toContain('sessionProfileId');
    expect((await root().getApiKeys({ userId: latchkey.bootstrap.userId })).apiKeys).toHaveLength(before);
  });

  it('a read-only profile: the session queries, but creating a wallet is a 403 naming the profile', async () => {
    const profileId = await newProfile('read-only');
    const { key, session } = await rootSession(profileId);
    expect(jwtClaims(session)).toMatchObject({ session_profile_id: profileId, user_id: latchkey.bootstrap.userId });
    const scoped = e2e.sdk(key);
    expect((await scoped.getWhoami({})).userId).toBe(latchkey.bootstrap.userId);
    await scoped.getWallets({});
    const denied = await refusal(scoped.createWallet(wallet(uniqueName('w'))));
    expect(denied.code).toBe(7);
    expect(denied.message).toContain(profileId);
    expect(denied.message).toContain('read-only');
    // The same user's unscoped session may: the refusal is the profile's, not a policy's.
    const plain = await rootSession();
    await e2e.sdk(plain.key).createWallet(wallet(uniqueName('w')));
    // Listed credentials say which profile a session key was issued under.
    const keys = (await root().getApiKeys({ userId: latchkey.bootstrap.userId })).apiKeys;
    expect(keys.find((k) => k.credential.publicKey === key.publicKey)?.credential).toEqual({ publicKey: key.publicKey, type: 'CREDENTIAL_TYPE_LOGIN', sessionProfileId: profileId });
    expect(keys.find((k) => k.credential.publicKey === plain.key.publicKey)?.credential.sessionProfileId).toBeUndefined();
  });

  it('a RESOURCE:ACTION list allows exactly its pairs', async () => {
    const { key } = await rootSession(await newProfile('WALLET:CREATE, USER:UPDATE'));
    const scoped = e2e.sdk(key);
    const { walletId } = await scoped.createWallet(wallet(uniqueName('w')));
    expect(walletId).toMatch(/^[0-9a-f-]{36}$/);
    const denied = await refusal(scoped.createPrivateKeys({ privateKeys: [{ privateKeyName: uniqueName('pk'), curve: 'CURVE_SECP256K1', addressFormats: [], privateKeyTags: [] }] }));
    expect(denied.code).toBe(7);
    expect(denied.message).toContain('WALLET:CREATE, USER:UPDATE');
    expect(denied.message).toContain('PRIVATE_KEY:CREATE');
    expect((await refusal(scoped.deleteWallets({ walletIds: [walletId], deleteWithoutExport: true }))).code).toBe(7);
  });

  it('a policy-language condition: allowed when true, refused when false', async () => {
    const { key } = await rootSession(await newProfile("activity.resource == 'PRIVATE_KEY' && activity.action == 'CREATE'"));
    const scoped = e2e.sdk(key);
    const { privateKeys } = await scoped.createPrivateKeys({ privateKeys: [{ privateKeyName: uniqueName('pk'), curve: 'CURVE_SECP256K1', addressFormats: [], privateKeyTags: [] }] });
    expect(privateKeys).toHaveLength(1);
    const denied = await refusal(scoped.createWallet(wallet(uniqueName('w'))));
    expect(denied.code).toBe(7);
    expect(denied.message).toContain('condition is false');
  });

  it("the profile's lifetime caps the login's, and the expired session key is refused", async () => {
    const profileId = await newProfile('read-only', { expirationSeconds: '2' });
    const { key, session } = await rootSession(profileId, '900');
    const { exp } = jwtClaims(session) as { exp: number };
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(2);
    const apiKey = (await root().getApiKeys({ userId: latchkey.bootstrap.userId })).apiKeys.find((k) => k.credential.publicKey === key.publicKey);
    expect(apiKey?.expirationSeconds).toBe('2');
    // The key expires within the second after `exp` (the JWT's whole seconds).
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 1500));
    const expired = await refusal(e2e.sdk(key).getWhoami({}));
    expect(expired.code).toBe(16);
    expect(expired.message).toContain('expired api key');
  });

  it("otp_login of a sub-organization's user with the parent's profile gets a scoped session", async () => {
    const profileId = await newProfile('read-only');
    const email = `${uniqueName('user')}@example.test`.toLowerCase();
    const sub = await root().createSubOrganization({
      subOrganizationName: uniqueName('end-user'),
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: 'End User', userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [] }],
    });
    const init = await root().initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: email, appName: 'Latchkey E2E' });
    const code = codeFromMail(await smtp.waitForMessage((m) => m.to.includes(email)));
    const client = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(code, init.otpEncryptionTargetBundle, client.publicKey, latchkey.bootstrap.otpVerifierPublicKey);
    const { verificationToken } = await root().verifyOtp({ otpId: init.otpId, encryptedOtpBundle });
    const token = await verifyOtpVerificationToken(verificationToken, latchkey.bootstrap.otpVerifierPublicKey);
    const session = generateP256KeyPair();
    const signature = clientSignature(client, JSON.stringify({ login: { publicKey: session.publicKey }, tokenId: token.id, type: 'USAGE_TYPE_LOGIN' }));
    const login = await root().otpLogin({ verificationToken, publicKey: session.publicKey, clientSignature: signature, sessionProfileId: profileId });
    expect(jwtClaims(login.session)).toMatchObject({ organization_id: sub.subOrganizationId, session_profile_id: profileId });
    const scoped = e2e.sdk(session);
    expect((await scoped.getWhoami({ organizationId: sub.subOrganizationId })).organizationId).toBe(sub.subOrganizationId);
    const denied = await refusal(scoped.createWallet({ ...wallet(uniqueName('w')), organizationId: sub.subOrganizationId }));
    expect(denied.code).toBe(7);
    expect(denied.message).toContain(profileId);
  });
});

describe('create_read_only_session and X-Session', () => {
  it('returns a session for the caller; the token reads its organization', async () => {
    const result = await root().createReadOnlySession({});
    expect(result).toMatchObject({
      organizationId: e2e.orgId,
      organizationName: expect.any(String),
      userId: latchkey.bootstrap.userId,
      username: expect.any(String),
      session: expect.stringMatching(/^lkro_[A-Za-z0-9_-]{43}$/),
      sessionExpiry: expect.stringMatching(/^\d+$/),
    });
    const lifetime = Number(result.sessionExpiry) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(READ_ONLY_SECONDS);

    const whoami = await withSession(result.session, '/public/v1/query/whoami', { organizationId: e2e.orgId });
    expect(whoami.status, whoami.text).toBe(200);
    expect(whoami.json).toMatchObject({ organizationId: e2e.orgId, userId: latchkey.bootstrap.userId });
    const wallets = await withSession(result.session, '/public/v1/query/list_wallets', { organizationId: e2e.orgId });
    expect(wallets.status, wallets.text).toBe(200);
  });

  it('cannot submit (401), with a clear message; nothing is created', async () => {
    const { session } = await root().createReadOnlySession({});
    const before = (await root().getWallets({})).wallets.length;
    const res = await withSession(session, '/public/v1/submit/create_wallet', createWalletRequest(e2e.orgId, uniqueName('w')));
    expect(expectErrorResponse(res, 401, 16, 'UNAUTHENTICATED').message).toContain('read-only session can only query');
    expect((await root().getWallets({})).wallets).toHaveLength(before);
  });

  it('refuses an unknown token, a malformed one, and a token next to a stamp (401)', async () => {
    const unknown = await withSession(`lkro_${'A'.repeat(43)}`, '/public/v1/query/whoami', { organizationId: e2e.orgId });
    expect(expectErrorResponse(unknown, 401, 16, 'UNAUTHENTICATED').message).toContain('unknown read-only session');
    const malformed = await withSession('not-a-token', '/public/v1/query/whoami', { organizationId: e2e.orgId });
    expect(expectErrorResponse(malformed, 401, 16, 'UNAUTHENTICATED').message).toContain('X-Session');
    const { session } = await root().createReadOnlySession({});
    const both = await rawRequest(`${latchkey.baseUrl}/public/v1/query/whoami`, {
      body: JSON.stringify({ organizationId: e2e.orgId }),
      headers: { 'content-type': 'application/json', 'x-session': session, 'x-stamp': 'e30' },
    });
    expect(expectErrorResponse(both, 401, 16, 'UNAUTHENTICATED').message).toContain('not both');
  });

  it('stores only the hash of the token', async () => {
    const { session } = await root().createReadOnlySession({});
    const db = new pg.Client({ connectionString: await latchkey.databaseUrl() });
    await db.connect();
    try {
      const { rows } = await db.query<{ token_hash: string }>('SELECT token_hash FROM read_only_sessions');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.token_hash.includes(session) || session.includes(r.token_hash))).toBe(false);
    } finally {
      await db.end();
    }
  });

  it('is refused after it expires (401)', async () => {
    const { session, sessionExpiry } = await root().createReadOnlySession({});
    await new Promise((r) => setTimeout(r, Math.max(0, Number(sessionExpiry) * 1000 - Date.now()) + 1000));
    const res = await withSession(session, '/public/v1/query/whoami', { organizationId: e2e.orgId });
    expect(expectErrorResponse(res, 401, 16, 'UNAUTHENTICATED').message).toContain('expired');
  }, 30_000);
});
