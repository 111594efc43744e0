/**
 * The admin tRPC backend end to end, against one real Latchkey (the launcher, as `npm start`
 * runs it) driven by the typed admin client: the one-time setup link (a passkey registered with
 * it, then a passkey sign-in), sessions from stamp_login, every refusal a stranger gets (no stamp,
 * a stamp over other bytes, an expired session, another organization), a non-root user's mutation
 * refused by policy, consensus surfaced as CONSENSUS_NEEDED and approved, the policy editor's
 * syntax check, the overview, activities filtered by user and sub-organization, users created
 * and deleted, the policy dry run, the auth proxy section, and webhooks (endpoint, delivery log,
 * redelivery).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { generateP256KeyPair } from '@turnkey/crypto';
import { createSoftwareAuthenticator, startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient } from '../../src/client/admin-client.js';
import { adminAs, apiKeyStamp, refused, sdkAs, signIn, unique, type TKeyPair } from './admin-helpers.js';

let latchkey: TLatchkey;
let orgId: string;
let rootKey: TKeyPair;
let rootSession: TKeyPair;
let receiver: Server;
let receiverUrl: string;
const received: string[] = [];

const walletParams = (name: string) => ({
  walletName: name,
  accounts: [{ curve: 'CURVE_SECP256K1' as const, pathFormat: 'PATH_FORMAT_BIP32' as const, path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const }],
});
const envelope = <P>(type: string, parameters: P, organizationId = orgId) => ({ type, timestampMs: String(Date.now()), organizationId, parameters });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // A wait for readiness, not a speed assertion: on a loaded 2-core machine the apps take minutes to listen.
  latchkey = await startLatchkey({ apps: ['public-api', 'admin', 'webhook-worker'], timeoutMs: 170_000, env: { LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true', LATCHKEY_WEBHOOK_POLL_MS: '200' } });
  orgId = latchkey.bootstrap.organizationId;
  rootKey = { publicKey: latchkey.bootstrap.apiPublicKey, privateKey: latchkey.apiPrivateKey };
  rootSession = await signIn(latchkey, rootKey, orgId);
}, 180_000);

afterAll(async () => {
  await latchkey?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('setup link and sign-in', () => {
  it('registers a passkey for the root user once, with the link the launcher printed, then signs in with it', async () => {
    const token = /#setup=([A-Za-z0-9_-]+)/.exec(latchkey.output())?.[1];
    expect(token, 'the launcher prints the setup link on a fresh data folder').toBeDefined();
    const anonymous = createAdminClient({ baseUrl: latchkey.adminUrl });
    expect(await anonymous.session.setupInfo.query({ token: token! })).toMatchObject({ organizationId: orgId, userId: latchkey.bootstrap.userId, canRegister: true });

    const authenticator = createSoftwareAuthenticator({ rpId: 'localhost', origin: latchkey.adminUrl.replace('127.0.0.1', 'localhost') });
    const challenge = randomBytes(32).toString('base64url');
    const { activity } = await anonymous.session.setupRegisterPasskey.mutate({ token: token!, authenticator: { authenticatorName: 'laptop', challenge, attestation: authenticator.register(challenge) } });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.type).toBe('ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2');

    const again = await refused(anonymous.session.setupRegisterPasskey.mutate({ token: token!, authenticator: { authenticatorName: 'x', challenge, attestation: authenticator.register(challenge) } }));
    expect(again).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(again.message).toMatch(/admin link/);

    // Sign in with the passkey: stamp_login stamped with X-Stamp-Webauthn, for a session key made here.
    const session = generateP256KeyPair();
    const viaPasskey = createAdminClient({ baseUrl: latchkey.adminUrl, stamp: (body) => authenticator.stamper.stamp(body) });
    const login = await viaPasskey.session.stampLogin.mutate(envelope('ACTIVITY_TYPE_STAMP_LOGIN', { publicKey: session.publicKey }));
    expect(login.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const who = await adminAs(latchkey, session).session.whoami.query({ organizationId: orgId });
    expect(who.userId).toBe(latchkey.bootstrap.userId);
  });

  it('refuses a made-up setup token', async () => {
    const r = await refused(createAdminClient({ baseUrl: latchkey.adminUrl }).session.setupInfo.query({ token: 'A'.repeat(43) }));
    expect(r).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });
});

describe('stamps', () => {
  it('refuses an unstamped call, a stamp over other bytes, and an expired session with 401', async () => {
    const none = await refused(adminAs(latchkey).wallets.list.query({ organizationId: orgId }));
    expect(none).toMatchObject({ code: 'SIGNATURE_MISSING', status: 401 });
    expect(none.wire).toMatchObject({ code: 16, message: expect.any(String), details: expect.any(Array) });
    expect(JSON.stringify(none.wire)).not.toMatch(/stack|file:|node_modules/);

    const stamper = apiKeyStamp(rootSession);
    const otherBytes = createAdminClient({ baseUrl: latchkey.adminUrl, stamp: () => stamper(JSON.stringify({ organizationId: orgId, x: 1 })) });
    expect(await refused(otherBytes.wallets.list.query({ organizationId: orgId }))).toMatchObject({ code: 'SIGNATURE_INVALID', status: 401 });

    const short = await signIn(latchkey, rootKey, orgId, '1');
    await adminAs(latchkey, short).wallets.list.query({ organizationId: orgId }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1600));
    expect(await refused(adminAs(latchkey, short).wallets.list.query({ organizationId: orgId }))).toMatchObject({ code: 'API_KEY_EXPIRED', status: 401 });
  });

  it("refuses a sub-organization's user reading its parent, and a bad input with 400 naming the field", async () => {
    const subKey = generateP256KeyPair();
    const sub = await sdkAs(latchkey, rootKey, orgId).createSubOrganization({
      subOrganizationName: unique('sub'),
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: 'sub root', apiKeys: [{ apiKeyName: 'k', publicKey: subKey.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] }],
    });
    const subClient = adminAs(latchkey, subKey);
    expect((await subClient.wallets.list.query({ organizationId: sub.subOrganizationId })).wallets).toBeDefined();
    const r = await refused(subClient.wallets.list.query({ organizationId: orgId }));
    expect([401, 403]).toContain(r.status);
    const overview = await refused(subClient.overview.summary.query({ organizationId: orgId }));
    expect([401, 403]).toContain(overview.status);

    const bad = await refused(adminAs(latchkey, rootSession).wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', { walletName: '', accounts: [] }) as never));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(bad.message).toMatch(/walletName/);
  });
});

describe('mutations are activities of the signed-in user', () => {
  let member: { userId: string; key: TKeyPair };

  beforeAll(async () => {
    const key = generateP256KeyPair();
    const { userIds } = await sdkAs(latchkey, rootKey, orgId).createUsers({
      users: [{ userName: unique('operator'), apiKeys: [{ apiKeyName: 'k', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [], userTags: [] }],
    });
    member = { userId: userIds[0]!, key };
  });

  it('creates a wallet as the root user and shows it in the list and the overview', async () => {
    const admin = adminAs(latchkey, rootSession);
    const name = unique('treasury');
    const { activity } = await admin.wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', walletParams(name)));
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await admin.wallets.list.query({ organizationId: orgId })).wallets.map((w) => w.walletName)).toContain(name);
    const summary = await admin.overview.summary.query({ organizationId: orgId });
    expect(summary.organization.wallets).toBeGreaterThanOrEqual(1);
    expect(summary.organization.activities24h).toBeGreaterThanOrEqual(2);
    expect(summary.activitiesPerHour.some((b) => b.status === 'ACTIVITY_STATUS_COMPLETED' && b.count >= 1)).toBe(true);
    expect(summary.subOrganizations.total).toBeGreaterThanOrEqual(1);
    const found = await admin.overview.summary.query({ organizationId: orgId, search: 'sub-' });
    expect(found.subOrganizations.rows.every((r) => r.name.includes('sub-'))).toBe(true);
  });

  it("refuses a non-root user's mutation without a policy: 403 naming the policies", async () => {
    const session = await signIn(latchkey, member.key, orgId);
    const r = await refused(adminAs(latchkey, session).wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', walletParams(unique('denied')))));
    expect(r).toMatchObject({ code: 'REQUEST_NOT_AUTHORIZED', status: 403 });
    expect(r.message).toMatch(/polic/i);
  });

  it('surfaces CONSENSUS_NEEDED under a consensus policy, and the root user approves it', async () => {
    const root = adminAs(latchkey, rootSession);
    const policy = await root.policies.create.mutate(
      envelope('ACTIVITY_TYPE_CREATE_POLICY_V3', {
        policyName: unique('two-approvers'),
        effect: 'EFFECT_ALLOW' as const,
        condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
        consensus: 'approvers.count() >= 2',
        notes: 'e2e',
      }),
    );
    expect(policy.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const session = await signIn(latchkey, member.key, orgId);
    const { activity } = await adminAs(latchkey, session).wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', walletParams(unique('waits'))));
    expect(activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');

    const listed = await root.activities.list.query({ organizationId: orgId, filterByStatus: ['ACTIVITY_STATUS_CONSENSUS_NEEDED'] });
    expect(listed.activities.map((a) => a.id)).toContain(activity.id);
    const approved = await root.activities.approve.mutate(envelope('ACTIVITY_TYPE_APPROVE_ACTIVITY', { fingerprint: activity.fingerprint }));
    expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const after = await root.activities.get.query({ organizationId: orgId, activityId: activity.id });
    expect(after.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const evaluations = await root.activities.evaluations.query({ organizationId: orgId, activityId: activity.id });
    expect(evaluations.policyEvaluations.length).toBeGreaterThanOrEqual(1);
  });

  it('checks policy syntax with the real parser, at line and column', async () => {
    const root = adminAs(latchkey, rootSession);
    const ok = await root.policies.check.query({ organizationId: orgId, condition: "activity.type == 'X'", consensus: 'approvers.count() >= 1' });
    expect(ok).toEqual({ condition: { ok: true }, consensus: { ok: true } });
    const bad = await root.policies.check.query({ organizationId: orgId, condition: "activity.type == 'X' &&\n  (" });
    expect(bad.condition.ok).toBe(false);
    expect(bad.condition.error).toMatchObject({ line: 2 });
    expect(bad.condition.error!.column).toBeGreaterThan(1);
  });
});

describe('activities filters and users', () => {
  let member: { userId: string; key: TKeyPair };

  beforeAll(async () => {
    const key = generateP256KeyPair();
    const { userIds } = await sdkAs(latchkey, rootKey, orgId).createUsers({
      users: [{ userName: unique('clerk'), apiKeys: [{ apiKeyName: 'k', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [], userTags: [] }],
    });
    member = { userId: userIds[0]!, key };
  });

  it("filters the list by the submitting user and reads a sub-organization's activities", async () => {
    const root = adminAs(latchkey, rootSession);
    const login = await adminAs(latchkey, member.key).session.stampLogin.mutate(envelope('ACTIVITY_TYPE_STAMP_LOGIN', { publicKey: generateP256KeyPair().publicKey }));
    expect(login.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const wallet = await root.wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', walletParams(unique('filtered'))));

    const ids = async (filterByUserIds: string[]) =>
      (await root.activities.list.query({ organizationId: orgId, filterByUserIds, paginationOptions: { limit: '100' } })).activities.map((a) => a.id);
    const byMember = await ids([member.userId]);
    expect(byMember).toContain(login.activity.id);
    expect(byMember).not.toContain(wallet.activity.id);
    const byRoot = await ids([latchkey.bootstrap.userId]);
    expect(byRoot).toContain(wallet.activity.id);
    expect(byRoot).not.toContain(login.activity.id);

    const subKey = generateP256KeyPair();
    const sub = await sdkAs(latchkey, rootKey, orgId).createSubOrganization({
      subOrganizationName: unique('sub-filter'),
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: 'sub root', apiKeys: [{ apiKeyName: 'k', publicKey: subKey.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] }],
    });
    const subWallet = await adminAs(latchkey, subKey).wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', walletParams(unique('sub-wallet')), sub.subOrganizationId));
    expect(subWallet.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const inSub = (await root.activities.list.query({ organizationId: sub.subOrganizationId })).activities;
    expect(inSub.map((a) => a.id)).toContain(subWallet.activity.id);
    expect(inSub.every((a) => a.organizationId === sub.subOrganizationId)).toBe(true);
    expect((await root.activities.list.query({ organizationId: orgId, paginationOptions: { limit: '100' } })).activities.map((a) => a.id)).not.toContain(subWallet.activity.id);

    const bad = await refused(root.activities.list.query({ organizationId: orgId, filterByUserIds: [''] }));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(bad.message).toMatch(/filterByUserIds/);
  });

  it('creates and deletes a user as activities of the signed-in user', async () => {
    const root = adminAs(latchkey, rootSession);
    const userName = unique('newcomer');
    const created = await root.users.create.mutate(envelope('ACTIVITY_TYPE_CREATE_USERS_V4', { users: [{ userName, userEmail: `${userName}@example.com`, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] }));
    expect(created.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const userId = (created.activity.result as { createUsersResult: { userIds: string[] } }).createUsersResult.userIds[0]!;
    expect((await root.users.list.query({ organizationId: orgId })).users.find((u) => u.userId === userId)).toMatchObject({ userName });

    const deleted = await root.users.delete.mutate(envelope('ACTIVITY_TYPE_DELETE_USERS', { userIds: [userId] }));
    expect(deleted.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await root.users.list.query({ organizationId: orgId })).users.map((u) => u.userId)).not.toContain(userId);

    const bad = await refused(root.users.create.mutate(envelope('ACTIVITY_TYPE_CREATE_USERS_V4', { users: [{ userName: '', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] })));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(bad.message).toMatch(/userName/);
  });

  it("refuses a non-root user's create_users with 403, and surfaces CONSENSUS_NEEDED for delete_users under a consensus policy", async () => {
    const root = adminAs(latchkey, rootSession);
    const session = await signIn(latchkey, member.key, orgId);
    const asMember = adminAs(latchkey, session);
    const denied = await refused(asMember.users.create.mutate(envelope('ACTIVITY_TYPE_CREATE_USERS_V4', { users: [{ userName: unique('nope'), apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] })));
    expect(denied).toMatchObject({ code: 'REQUEST_NOT_AUTHORIZED', status: 403 });
    expect(denied.message).toMatch(/polic/i);

    const victim = await root.users.create.mutate(envelope('ACTIVITY_TYPE_CREATE_USERS_V4', { users: [{ userName: unique('leaving'), apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] }));
    const victimId = (victim.activity.result as { createUsersResult: { userIds: string[] } }).createUsersResult.userIds[0]!;
    const policy = await root.policies.create.mutate(
      envelope('ACTIVITY_TYPE_CREATE_POLICY_V3', { policyName: unique('two-to-delete-users'), effect: 'EFFECT_ALLOW' as const, condition: "activity.resource == 'USER' && activity.action == 'DELETE'", consensus: 'approvers.count() >= 2', notes: 'e2e' }),
    );
    expect(policy.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const waiting = await asMember.users.delete.mutate(envelope('ACTIVITY_TYPE_DELETE_USERS', { userIds: [victimId] }));
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect((await root.users.list.query({ organizationId: orgId })).users.map((u) => u.userId)).toContain(victimId);
  });
});

describe('auth proxy and webhooks', () => {
  it('enables the auth proxy, allows an origin, and reads the config back', async () => {
    const root = adminAs(latchkey, rootSession);
    const enabled = await root.auth.enable.mutate(envelope('ACTIVITY_TYPE_ENABLE_AUTH_PROXY', {}));
    expect(enabled.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const updated = await root.auth.update.mutate(envelope('ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', { allowedOrigins: ['https://app.example.com'] }) as never);
    expect(updated.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const { authProxyConfig } = await root.auth.config.query({ organizationId: orgId });
    expect(authProxyConfig.allowedOrigins).toEqual(['https://app.example.com']);
    expect(JSON.stringify(authProxyConfig)).not.toMatch(/privateKey|sealed/i);
  });

  it('saves e-mail and SMS customization, OAuth client ids, redirect URL and social linking ids, and previews the messages', async () => {
    const root = adminAs(latchkey, rootSession);
    const settings = {
      emailCustomizationParams: { appName: 'Acme Wallet', logoUrl: 'https://acme.example.com/logo.png', magicLinkTemplate: 'https://acme.example.com/login?code=%s' },
      smsCustomizationParams: { template: 'Acme: your code is {{.OtpCode}}' },
      walletKitSettings: { enabledSocialProviders: ['google' as const], oauthClientIds: { google: 'google-client-id.apps.example' }, oauthRedirectUrl: 'https://acme.example.com/oauth/callback' },
      socialLinkingClientIds: ['google-client-id.apps.example'],
    };
    const updated = await root.auth.update.mutate(envelope('ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', settings));
    expect(updated.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const { authProxyConfig } = await root.auth.config.query({ organizationId: orgId });
    expect(authProxyConfig).toMatchObject(settings);

    const preview = await root.auth.preview.query({ organizationId: orgId, ...settings, otpLength: 8, otpAlphanumeric: false });
    expect(preview.code).toMatch(/^\d{8}$/);
    expect(preview.email.subject).toMatch(/Acme Wallet/);
    expect(preview.email.html).toContain(preview.code);
    expect(preview.email.html).toContain(`https://acme.example.com/login?code=${preview.code}`);
    expect(preview.sms.body).toBe(`Acme: your code is ${preview.code}`);

    const bad = await refused(root.auth.preview.query({ organizationId: orgId, smsCustomizationParams: { template: 'no code here' } }));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(bad.message).toMatch(/smsCustomizationParams\.template/);
    const badUrl = await refused(root.auth.update.mutate(envelope('ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', { walletKitSettings: { oauthRedirectUrl: 'not a url' } })));
    expect(badUrl).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(badUrl.message).toMatch(/oauthRedirectUrl/);
  });

  it('creates an endpoint, shows its delivery log, and redelivers an event', async () => {
    const root = adminAs(latchkey, rootSession);
    const created = await root.webhooks.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', { name: unique('hook'), url: receiverUrl, subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }] }) as never);
    expect(created.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const { webhookEndpoints } = await root.webhooks.list.query({ organizationId: orgId });
    const endpoint = webhookEndpoints.find((e) => e.url === receiverUrl)!;
    expect(endpoint).toBeDefined();
    await root.wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', walletParams(unique('hooked'))));

    let entries: { eventId: string; statusCode: number | null; latencyMs: number; attempt: number }[] = [];
    for (let i = 0; i < 100 && entries.length === 0; i++) {
      entries = (await root.webhooks.log.query({ organizationId: orgId, endpointId: endpoint.endpointId })).entries;
      if (entries.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(entries[0]).toMatchObject({ statusCode: 200, attempt: expect.any(Number) });
    expect(entries[0]!.latencyMs).toBeGreaterThanOrEqual(0);
    expect((await root.webhooks.deadLetters.query({ organizationId: orgId, endpointId: endpoint.endpointId })).messages).toEqual([]);

    const before = received.length;
    expect(await root.webhooks.redeliver.mutate({ organizationId: orgId, endpointId: endpoint.endpointId, eventId: entries[0]!.eventId })).toEqual({ redelivered: 1 });
    for (let i = 0; i < 100 && received.length === before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(received.length).toBeGreaterThan(before);

    const unknown = await refused(root.webhooks.log.query({ organizationId: orgId, endpointId: 'not-an-endpoint' }));
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const signing = await root.webhooks.signing.query({ organizationId: orgId });
    expect(signing.jwksUrl).toMatch(/\/public\/v1\/discovery\/webhooks\/jwks$/);
    expect(signing.keyId).toEqual(expect.any(String));
  });
});

describe('policy dry run', () => {
  it('evaluates a draft policy set against a past create_wallet activity: which drafts matched, and the outcome', async () => {
    const root = adminAs(latchkey, rootSession);
    const key = generateP256KeyPair();
    const { userIds } = await sdkAs(latchkey, rootKey, orgId).createUsers({
      users: [{ userName: unique('builder'), apiKeys: [{ apiKeyName: 'k', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [], userTags: [] }],
    });
    const walletCreate = "activity.resource == 'WALLET' && activity.action == 'CREATE'";
    await root.policies.create.mutate(envelope('ACTIVITY_TYPE_CREATE_POLICY_V3', { policyName: unique('wallets-for-all'), effect: 'EFFECT_ALLOW' as const, condition: walletCreate, notes: 'e2e' }));
    const past = await adminAs(latchkey, key).wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', walletParams(unique('dry'))));
    expect(past.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const dryRun = (policies: { policyName: string; effect: 'EFFECT_ALLOW' | 'EFFECT_DENY'; condition?: string; consensus?: string }[], activityId = past.activity.id) =>
      root.policies.dryRun.query({ organizationId: orgId, activityId, policies });

    const allowed = await dryRun([
      { policyName: 'keys only', effect: 'EFFECT_ALLOW', condition: "activity.resource == 'PRIVATE_KEY'" },
      { policyName: 'wallets allowed', effect: 'EFFECT_ALLOW', condition: walletCreate },
    ]);
    expect(allowed).toMatchObject({ outcome: 'ALLOW', rootQuorumBypass: false, activity: { id: past.activity.id, createdByUserId: userIds[0] } });
    expect(allowed.reason).toMatch(/wallets allowed/);
    expect(allowed.policies.map((p) => [p.policyName, p.matched, p.deciding])).toEqual([['keys only', false, false], ['wallets allowed', true, true]]);

    const denied = await dryRun([
      { policyName: 'wallets allowed', effect: 'EFFECT_ALLOW', condition: walletCreate },
      { policyName: 'no new wallets', effect: 'EFFECT_DENY', condition: "activity.resource == 'WALLET'" },
    ]);
    expect(denied.outcome).toBe('DENY');
    expect(denied.reason).toMatch(/no new wallets/);
    expect(denied.policies.find((p) => p.deciding)?.policyName).toBe('no new wallets');

    const twoApprovers = await dryRun([{ policyName: 'two approvers', effect: 'EFFECT_ALLOW', condition: walletCreate, consensus: 'approvers.count() >= 2' }]);
    expect(twoApprovers.outcome).toBe('REQUIRES_CONSENSUS');
    const none = await dryRun([{ policyName: 'keys only', effect: 'EFFECT_ALLOW', condition: "activity.resource == 'PRIVATE_KEY'" }]);
    expect(none).toMatchObject({ outcome: 'NO_MATCH', policies: [{ matched: false }] });

    // The root user's own activity: the drafts are still explained, and the bypass is said.
    const byRoot = await root.wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', walletParams(unique('root-dry'))));
    expect(await dryRun([{ policyName: 'no new wallets', effect: 'EFFECT_DENY', condition: "activity.resource == 'WALLET'" }], byRoot.activity.id)).toMatchObject({ outcome: 'DENY', rootQuorumBypass: true });

    const bad = await refused(dryRun([{ policyName: 'broken', effect: 'EFFECT_ALLOW', condition: "activity.type == 'X' &&" }]));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(bad.message).toMatch(/policies\[0\]\.condition/);
    expect(await refused(dryRun([{ policyName: 'x', effect: 'EFFECT_ALLOW' }], 'no-such-activity'))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const empty = await refused(dryRun([]));
    expect(empty).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(empty.message).toMatch(/policies/);
  });
});
