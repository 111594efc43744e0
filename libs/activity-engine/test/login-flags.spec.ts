/**
 * The login flags of a sub-organization (its `disable*` parameters at creation) against every way
 * in: X-Stamp-Attested stamp_login with a verification token, init_otp aimed at the parent, and
 * otp_login. Also: an attested verification token is spent only by the stamp_login that runs (a
 * refused request leaves it usable), and who may register an OAuth identity by bare `oidcClaims`.
 * In process, on a real database; mail and OIDC verification are stand-ins recording what they get.
 */
import { generateP256KeyPair, newId, signP256, signVerificationToken, type TVerificationTokenClaims } from '@latchkey/crypto';
import { AppError, type TActivity } from '@latchkey/domain';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerKey } from '../src/keys/server-keys.js';
import { createFixture, type TFixture, type TKeyPair } from '../src/testing/fixture.js';

let f: TFixture;
const mails: { to: string; subject: string }[] = []; // what the message port was asked to send
/** The receipt a mail server that accepted the message would give (this port delivers nothing). */
const sent = { messageId: '<fixture@latchkey.test>', from: 'login@latchkey.test', smtpResponse: '250 OK' };

beforeAll(async () => {
  f = await createFixture({
    services: {
      messages: {
        async otpEmail(to) {
          mails.push({ to, subject: 'otp' });
          return sent;
        },
        async otpSms(to) {
          mails.push({ to, subject: 'otp sms' });
        },
        async emailAuth(to) {
          mails.push({ to, subject: 'email auth' });
          return sent;
        },
        async recovery(to) {
          mails.push({ to, subject: 'recovery' });
          return sent;
        },
        async invitation(to) {
          mails.push({ to, subject: 'invitation' });
          return sent;
        },
      },
      // A stand-in issuer: the "id_token" is the JSON of its claims (the real verifier has its own tests).
      oidc: {
        async verify(token) {
          const c = JSON.parse(token) as { iss: string; sub: string; aud: string };
          return { iss: c.iss, sub: c.sub, aud: c.aud, audiences: [c.aud], claims: c };
        },
      },
    },
  });
}, 120_000);
afterAll(async () => {
  await f?.close();
  await stopTestPostgres();
});

let counter = 0;
const unique = (p: string) => `${p}-${Date.now().toString(36)}-${++counter}`;

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected an AppError, but the call succeeded');
}

async function createSubOrg(user: { email?: string; phone?: string; apiKey?: TKeyPair }, flags: Record<string, boolean> = {}) {
  const a = await f.submit('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', {
    subOrganizationName: unique('sub'),
    rootQuorumThreshold: 1,
    rootUsers: [
      {
        userName: 'End User',
        ...(user.email ? { userEmail: user.email } : {}),
        ...(user.phone ? { userPhoneNumber: user.phone } : {}),
        apiKeys: user.apiKey ? [{ apiKeyName: 'device', publicKey: user.apiKey.publicKey, curveType: 'API_KEY_CURVE_P256' }] : [],
        authenticators: [],
        oauthProviders: [],
      },
    ],
    ...flags,
  });
  const r = (a.result as Record<string, { subOrganizationId: string; rootUserIds: string[] }>)['createSubOrganizationResultV8']!;
  return { organizationId: r.subOrganizationId, userId: r.rootUserIds[0]! };
}

/** A verification token as verify_otp issues it (the server's otp_verifier key), bound to `key`. */
async function verificationToken(contact: string, key: TKeyPair, verificationType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS' = 'OTP_TYPE_EMAIL') {
  const claims: TVerificationTokenClaims = { id: newId(), verificationType, contact, organizationId: f.root.organizationId, publicKey: key.publicKey, expiresAtMs: Date.now() + 600_000 };
  return withServerKey(f.store, f.vault, 'otp_verifier', (k) => signVerificationToken(claims, Buffer.from(k.privateKey).toString('hex')));
}

/** Submits `body` to `path` with an X-Stamp-Attested of `key` vouched for by `token`. */
function attested(path: string, body: object, key: TKeyPair, token: string, kind: 'submit' | 'query' = 'submit') {
  const raw = JSON.stringify(body);
  const header = { publicKeyAttestation: token, scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', publicKey: key.publicKey, signature: signP256(key.privateKey, Buffer.from(raw)) };
  const headers = { 'x-stamp-attested': Buffer.from(JSON.stringify(header)).toString('base64url') };
  return kind === 'submit' ? f.engine.submit(path, headers, Buffer.from(raw)) : f.engine.query(path, headers, Buffer.from(raw));
}

const stampLoginBody = (organizationId: string, publicKey: string, timestampMs = Date.now()) => ({
  type: 'ACTIVITY_TYPE_STAMP_LOGIN',
  timestampMs: String(timestampMs),
  organizationId,
  parameters: { publicKey },
});

const sessionOf = (a: TActivity) => (a.result as Record<string, { session: string }>)['stampLoginResult']!.session;
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('X-Stamp-Attested (verification token) respects the sub-organization login flags', () => {
  it('refuses a sub-organization created with disableOtpEmailAuth, aimed at the parent or at the sub-organization', async () => {
    const email = `${unique('no-otp')}@example.test`;
    const sub = await createSubOrg({ email }, { disableOtpEmailAuth: true });
    const key = generateP256KeyPair();
    const token = await verificationToken(email, key);
    for (const target of [f.root.organizationId, sub.organizationId]) {
      const err = await errorOf(attested('stamp_login', stampLoginBody(target, key.publicKey), key, token));
      expect(err.code).toBe('REQUEST_NOT_AUTHORIZED');
      expect(err.httpStatus).toBe(403);
      expect(err.message).toContain('FEATURE_NAME_OTP_EMAIL_AUTH is disabled');
    }
    expect(await f.store.logins.apiKeysInSubOrganizations(f.root.organizationId, key.publicKey)).toEqual([]);
  });

  it('refuses an SMS token for a sub-organization created with disableSmsAuth, and lets the e-mail one through', async () => {
    const email = `${unique('no-sms')}@example.test`;
    const phone = `+1415557${String(counter).padStart(4, '0')}`;
    const sub = await createSubOrg({ email, phone }, { disableSmsAuth: true });
    const key = generateP256KeyPair();
    const err = await errorOf(attested('stamp_login', stampLoginBody(f.root.organizationId, key.publicKey), key, await verificationToken(phone, key, 'OTP_TYPE_SMS')));
    expect(err.message).toContain('FEATURE_NAME_SMS_AUTH is disabled');
    const ok = await attested('stamp_login', stampLoginBody(f.root.organizationId, key.publicKey), key, await verificationToken(email, key));
    expect(claimsOf(sessionOf((ok as { activity: TActivity }).activity))).toMatchObject({ organization_id: sub.organizationId, user_id: sub.userId });
  });

  it('does not burn the token when the request is refused after authentication; the stamp_login that runs spends it', async () => {
    const email = `${unique('spend')}@example.test`;
    const sub = await createSubOrg({ email });
    const key = generateP256KeyPair();
    const token = await verificationToken(email, key);

    // Refused by the envelope (stale timestamp), by being another activity, and by being a query.
    const stale = await errorOf(attested('stamp_login', stampLoginBody(f.root.organizationId, key.publicKey, Date.now() - 3_600_000), key, token));
    expect(stale.code).toBe('TIMESTAMP_OUT_OF_WINDOW');
    const wallet = await errorOf(
      attested('create_wallet', { type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs: String(Date.now()), organizationId: sub.organizationId, parameters: { walletName: 'w', accounts: [] } }, key, token),
    );
    expect(wallet.message).toContain('attested stamp can only submit stamp_login');
    const whoami = await errorOf(attested('whoami', { organizationId: sub.organizationId }, key, token, 'query'));
    expect(whoami.code).toBe('REQUEST_NOT_AUTHORIZED');

    // The token still works, once.
    const ok = (await attested('stamp_login', stampLoginBody(f.root.organizationId, key.publicKey), key, token)) as { activity: TActivity };
    expect(claimsOf(sessionOf(ok.activity))).toMatchObject({ organization_id: sub.organizationId, user_id: sub.userId });
    const again = await errorOf(attested('stamp_login', stampLoginBody(f.root.organizationId, key.publicKey, Date.now() + 1), key, token));
    expect(again.code).toBe('UNAUTHENTICATED');
    expect(again.httpStatus).toBe(401);
    expect(again.message).toContain('already used');
  });
});

describe('an attested stamp_login that waits for approval', () => {
  it('spends its verification token at submission: the token cannot open a second waiting login, and the approval runs the first', async () => {
    const email = `${unique('waits')}@example.test`;
    const [keyA, keyB] = [generateP256KeyPair(), generateP256KeyPair()];
    const created = await f.submit('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', {
      subOrganizationName: unique('two-roots'),
      rootQuorumThreshold: 2,
      rootUsers: [
        { userName: 'A', userEmail: email, apiKeys: [{ apiKeyName: 'a', publicKey: keyA.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] },
        { userName: 'B', apiKeys: [{ apiKeyName: 'b', publicKey: keyB.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] },
      ],
    });
    const sub = (created.result as Record<string, { subOrganizationId: string; rootUserIds: string[] }>)['createSubOrganizationResultV8']!;
    const inSub = async (path: string, type: string, parameters: object, key: TKeyPair) => {
      const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: sub.subOrganizationId, parameters });
      return (await f.engine.submit(path, f.stamp(body, key), Buffer.from(body))).activity;
    };
    const approveBy = (a: TActivity, key: TKeyPair) => inSub('approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', { fingerprint: a.fingerprint }, key);
    // The sub-organization's logins need two approvers (the policy itself needs both roots).
    const policy = await inSub(
      'create_policy',
      'ACTIVITY_TYPE_CREATE_POLICY_V3',
      { policyName: 'logins need two', effect: 'EFFECT_ALLOW', notes: '', condition: "activity.type == 'ACTIVITY_TYPE_STAMP_LOGIN'", consensus: 'approvers.count() >= 2' },
      keyA,
    );
    expect((await approveBy(policy, keyB)).status).toBe('ACTIVITY_STATUS_COMPLETED');

    const session = generateP256KeyPair();
    const token = await verificationToken(email, session);
    const first = ((await attested('stamp_login', stampLoginBody(sub.subOrganizationId, session.publicKey), session, token)) as { activity: TActivity }).activity;
    expect(first.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    const second = await errorOf(attested('stamp_login', stampLoginBody(sub.subOrganizationId, session.publicKey, Date.now() + 1), session, token));
    expect(second.code).toBe('UNAUTHENTICATED');
    expect(second.message).toContain('already used');

    const approved = await approveBy(first, keyB);
    expect(approved.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(claimsOf(sessionOf(approved))).toMatchObject({ organization_id: sub.subOrganizationId, user_id: sub.rootUserIds[0] });
  });
});

describe('login activities check the flags of the organization the login lands in', () => {
  it('init_otp aimed at the parent refuses a contact whose sub-organization disabled OTP by e-mail, and sends nothing', async () => {
    const email = `${unique('init')}@example.test`;
    await createSubOrg({ email }, { disableOtpEmailAuth: true });
    const sent = mails.length;
    const err = await errorOf(f.submit('init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', { otpType: 'OTP_TYPE_EMAIL', contact: email, appName: 'T' }));
    expect(err.code).toBe('REQUEST_NOT_AUTHORIZED');
    expect(err.message).toContain('FEATURE_NAME_OTP_EMAIL_AUTH is disabled');
    expect(mails.length).toBe(sent);

    // A sign-up (nobody has the contact yet) and a sub-organization that allows it still get a code.
    const signup = `${unique('signup')}@example.test`;
    await f.submit('init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', { otpType: 'OTP_TYPE_EMAIL', contact: signup, appName: 'T' });
    const allowed = `${unique('allowed')}@example.test`;
    await createSubOrg({ email: allowed });
    await f.submit('init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', { otpType: 'OTP_TYPE_EMAIL', contact: allowed, appName: 'T' });
    expect(mails.slice(sent).map((m) => m.to)).toEqual([signup, allowed]);
  });
});

describe('oidcClaims: only for an identity the request proves, or from a top-level root user', () => {
  const claims = (sub: string, aud = 'app') => ({ iss: 'https://idp.example', sub, aud });
  const token = (sub: string, aud = 'app') => JSON.stringify(claims(sub, aud));

  it('refuses bare claims from a sub-organization user (its own root user), and takes claims alongside a token of the same identity', async () => {
    const device = generateP256KeyPair();
    const sub = await createSubOrg({ email: `${unique('claims')}@example.test`, apiKey: device });
    const submit = (oauthProviders: object[]) => {
      const body = JSON.stringify({ type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2', timestampMs: String(Date.now()), organizationId: sub.organizationId, parameters: { userId: sub.userId, oauthProviders } });
      return f.engine.submit('create_oauth_providers', f.stamp(body, device), Buffer.from(body));
    };
    const victim = unique('victim');
    const err = await errorOf(submit([{ providerName: 'idp', oidcClaims: claims(victim) }]));
    expect(err.code).toBe('REQUEST_NOT_AUTHORIZED');
    expect(err.message).toContain('oauthProviders[0]: oidcClaims are accepted only alongside an oidcToken');
    expect(await f.store.logins.oauthProvidersBySubject([sub.organizationId], 'https://idp.example', victim)).toEqual([]);
    // Someone else's subject next to one's own token is still refused.
    const mine = unique('mine');
    const mixed = await errorOf(submit([{ providerName: 'idp', oidcToken: token(mine) }, { providerName: 'idp', oidcClaims: claims(victim, 'other-app') }]));
    expect(mixed.message).toContain('oauthProviders[1]');

    const ok = await submit([{ providerName: 'idp', oidcToken: token(mine) }, { providerName: 'idp', oidcClaims: claims(mine, 'other-app') }]);
    expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const stored = await f.store.logins.oauthProvidersBySubject([sub.organizationId], 'https://idp.example', mine);
    expect(stored.map((p) => p.audience).sort()).toEqual(['app', 'other-app']);
  });

  it('refuses bare claims in create_users run inside a sub-organization', async () => {
    const device = generateP256KeyPair();
    const sub = await createSubOrg({ email: `${unique('cu')}@example.test`, apiKey: device });
    const body = JSON.stringify({
      type: 'ACTIVITY_TYPE_CREATE_USERS_V4',
      timestampMs: String(Date.now()),
      organizationId: sub.organizationId,
      parameters: { users: [{ userName: 'x', apiKeys: [], authenticators: [], userTags: [], oauthProviders: [{ providerName: 'idp', oidcClaims: claims(unique('v')) }] }] },
    });
    const res = await f.engine.submit('create_users', f.stamp(body, device), Buffer.from(body)).then(
      (r) => r.activity,
      (e: unknown) => e,
    );
    // create_users records a FAILED activity for a handler's refusal; either way no user is made.
    const failure = res instanceof AppError ? res.message : JSON.stringify((res as TActivity).failure ?? {});
    expect(failure).toContain('oidcClaims are accepted only alongside an oidcToken');
    const users = await f.store.users.listByOrganization(sub.organizationId);
    expect(users.map((u) => u.userName)).toEqual(['End User']);
  });

  it('lets a root user of a top-level organization give bare claims, but not a non-root user', async () => {
    const rootOk = await f.submit('create_users', 'ACTIVITY_TYPE_CREATE_USERS_V4', {
      users: [{ userName: unique('claimed'), apiKeys: [], authenticators: [], userTags: [], oauthProviders: [{ providerName: 'idp', oidcClaims: claims(unique('r')) }] }],
    });
    expect(rootOk.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const plainKey = generateP256KeyPair();
    const created = await f.submit('create_users', 'ACTIVITY_TYPE_CREATE_USERS_V4', {
      users: [{ userName: unique('plain'), apiKeys: [{ apiKeyName: 'k', publicKey: plainKey.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], userTags: [], oauthProviders: [] }],
    });
    const plainUserId = (created.result as Record<string, { userIds: string[] }>)['createUsersResult']!.userIds[0]!;
    const body = JSON.stringify({
      type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2',
      timestampMs: String(Date.now()),
      organizationId: f.root.organizationId,
      parameters: { userId: plainUserId, oauthProviders: [{ providerName: 'idp', oidcClaims: claims(unique('p')) }] },
    });
    const err = await errorOf(f.engine.submit('create_oauth_providers', f.stamp(body, plainKey), Buffer.from(body)));
    expect(err.code).toBe('REQUEST_NOT_AUTHORIZED');
    expect(err.message).toContain('or from a root user');
  });
});
