/**
 * The admin backend's e-mail OTP sign-in, Gas and TVC procedures end to end, against one real
 * Latchkey driven by the typed admin client, the codes read from the testkit's SMTP capture:
 * a user signs in with a mailed code (init_otp → verify_otp → stamp_login with X-Stamp-Attested)
 * and the code never reaches a log; a wrong code is a 400, a used token, too many codes for one
 * address and too many attempts at one code are refused as the public API refuses them; an
 * address no user has gets the same answer and no mail. Gas: the window set as an activity, usage
 * against the limit with the series the chart draws, a sub-organization's own limit, a non-root
 * user refused by policy. TVC: apps and deployments listed, an operator's approval, the live
 * switch, a refused transition. Every read refuses an unstamped call and another organization.
 */
import { generateP256KeyPair } from '@turnkey/crypto';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient } from '../../src/client/admin-client.js';
import { tvcDeploymentLabel } from '../../src/client/tvc-state.js';
import { adminAs, attestedStamp, codeFor, createTvcFixture, insertGasLedger, refused, sdkAs, signIn, signInByEmail, unique, type TKeyPair } from './admin-helpers.js';

let latchkey: TLatchkey;
let orgId: string;
let rootKey: TKeyPair;
let rootSession: TKeyPair;
/** A root-organization user with an e-mail address and no credential, and a sub-organization's root. */
let member: { userId: string; email: string };
let sub: { organizationId: string; key: TKeyPair };

const envelope = <P>(type: string, parameters: P, organizationId = orgId) => ({ type, timestampMs: String(Date.now()), organizationId, parameters });
const anonymous = () => createAdminClient({ baseUrl: latchkey.adminUrl });
const userWithEmail = async (email: string) => {
  const { userIds } = await sdkAs(latchkey, rootKey, orgId).createUsers({ users: [{ userName: unique('mailed'), userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
  return userIds[0]!;
};

beforeAll(async () => {
  // A wait for readiness, not a speed assertion: on a loaded 2-core machine the apps take minutes to listen.
  latchkey = await startLatchkey({ apps: ['public-api', 'admin'], timeoutMs: 170_000 });
  orgId = latchkey.bootstrap.organizationId;
  rootKey = { publicKey: latchkey.bootstrap.apiPublicKey, privateKey: latchkey.apiPrivateKey };
  rootSession = await signIn(latchkey, rootKey, orgId);
  const email = `${unique('ops')}@example.com`;
  member = { userId: await userWithEmail(email), email };
  const subKey = generateP256KeyPair();
  const created = await sdkAs(latchkey, rootKey, orgId).createSubOrganization({
    subOrganizationName: unique('sub'),
    rootQuorumThreshold: 1,
    rootUsers: [{ userName: 'sub root', apiKeys: [{ apiKeyName: 'k', publicKey: subKey.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] }],
  });
  sub = { organizationId: created.subOrganizationId, key: subKey };
}, 240_000);

afterAll(async () => {
  await latchkey?.stop();
});

describe('e-mail OTP sign-in', () => {
  it('signs a user in with the code mailed to them; the session key it registers stamps every call; the code is never logged', async () => {
    const session = await signInByEmail(latchkey, orgId, member.email);
    const who = await adminAs(latchkey, session).session.whoami.query({ organizationId: orgId });
    expect(who.userId).toBe(member.userId);
    expect((await adminAs(latchkey, session).users.list.query({ organizationId: orgId })).users.map((u) => u.userId)).toContain(member.userId);
    const codes = latchkey.mail.all().filter((m) => m.to === member.email).map((m) => m.code!);
    expect(codes.length).toBeGreaterThan(0);
    const output = latchkey.output();
    for (const code of codes) expect(output).not.toMatch(new RegExp(`\\b${code}\\b`));
  });

  it('refuses a wrong code with 400 Invalid OTP code, and a verification token used twice', async () => {
    const { otpId } = await anonymous().session.otpInit.mutate({ organizationId: orgId, email: member.email });
    const code = await codeFor(latchkey, member.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const session = generateP256KeyPair();
    const bad = await refused(anonymous().session.otpVerify.mutate({ organizationId: orgId, otpId, otpCode: wrong, publicKey: session.publicKey }));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400, message: 'Invalid OTP code' });
    const { verificationToken } = await anonymous().session.otpVerify.mutate({ organizationId: orgId, otpId, otpCode: code, publicKey: session.publicKey });
    expect(await refused(anonymous().session.otpVerify.mutate({ organizationId: orgId, otpId, otpCode: code, publicKey: session.publicKey }))).toMatchObject({ status: 400, message: expect.stringMatching(/already used/) });

    const login = () => createAdminClient({ baseUrl: latchkey.adminUrl, stamp: attestedStamp(session, verificationToken) }).session.stampLogin.mutate(envelope('ACTIVITY_TYPE_STAMP_LOGIN', { publicKey: session.publicKey }));
    expect((await login()).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(await refused(login())).toMatchObject({ code: 'UNAUTHENTICATED', status: 401, message: expect.stringMatching(/already used/) });

    // The token binds the code to that key: another key cannot use it.
    const other = generateP256KeyPair();
    const stolen = createAdminClient({ baseUrl: latchkey.adminUrl, stamp: attestedStamp(other, verificationToken) });
    expect(await refused(stolen.session.stampLogin.mutate(envelope('ACTIVITY_TYPE_STAMP_LOGIN', { publicKey: other.publicKey })))).toMatchObject({ status: 401, message: expect.stringMatching(/another public key/) });
  });

  it('answers an address no user has like any other, sends it nothing, and its code is just wrong', async () => {
    const before = latchkey.mail.all().length;
    const { otpId } = await anonymous().session.otpInit.mutate({ organizationId: orgId, email: `${unique('nobody')}@example.com` });
    expect(otpId).toMatch(/^[0-9a-f-]{36}$/);
    const r = await refused(anonymous().session.otpVerify.mutate({ organizationId: orgId, otpId, otpCode: '123456', publicKey: generateP256KeyPair().publicKey }));
    expect(r).toMatchObject({ code: 'BAD_REQUEST', status: 400, message: 'Invalid OTP code' });
    expect(latchkey.mail.all().length).toBe(before);
  });

  it('limits attempts per code (5) and codes per address (5 per 10 minutes) with 429 naming the limit', async () => {
    const email = `${unique('limited')}@example.com`;
    await userWithEmail(email);
    const { otpId } = await anonymous().session.otpInit.mutate({ organizationId: orgId, email });
    const code = await codeFor(latchkey, email);
    const publicKey = generateP256KeyPair().publicKey;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await refused(anonymous().session.otpVerify.mutate({ organizationId: orgId, otpId, otpCode: wrong, publicKey }))).status).toBe(400);
    const tooMany = await refused(anonymous().session.otpVerify.mutate({ organizationId: orgId, otpId, otpCode: code, publicKey }));
    expect(tooMany).toMatchObject({ code: 'RATE_LIMITED', status: 429, message: expect.stringMatching(/too many attempts.*at most 5/) });

    for (let i = 1; i < 5; i++) {
      await anonymous().session.otpInit.mutate({ organizationId: orgId, email });
      await codeFor(latchkey, email);
    }
    const sixth = await refused(anonymous().session.otpInit.mutate({ organizationId: orgId, email }));
    expect(sixth).toMatchObject({ code: 'RATE_LIMITED', status: 429, message: expect.stringMatching(/at most 5 per 10 minutes/) });
  }, 120_000);

  it('refuses a malformed address with 400 naming the field, and an unknown organization', async () => {
    const bad = await refused(anonymous().session.otpInit.mutate({ organizationId: orgId, email: 'not-an-address' }));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(bad.message).toMatch(/email/);
    const unknown = await refused(anonymous().session.otpInit.mutate({ organizationId: '00000000-0000-4000-8000-000000000000', email: member.email }));
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
  });
});

describe('gas', () => {
  it('answers a window not yet configured as zero, with no series', async () => {
    const usage = await adminAs(latchkey, rootSession).gas.usage.query({ organizationId: orgId });
    expect(usage).toEqual({ windowDurationMinutes: 0, windowLimitUsd: '0', usageUsd: '0', config: null, series: [] });
  });

  it('sets the window as an activity and shows usage against the limit over the window, oldest point first', async () => {
    const { activity } = await adminAs(latchkey, rootSession).gas.configure.mutate(
      envelope('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', { orgWindowLimitUsd: '10', subOrgWindowLimitUsd: '2.5', windowDurationMinutes: '60', enabled: true }),
    );
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    await insertGasLedger(latchkey, orgId, [
      { usd: '1.25', minutesAgo: 30 },
      { usd: '0.5', minutesAgo: 7 },
      { usd: '3', minutesAgo: 120 },
    ]);
    const usage = await adminAs(latchkey, rootSession).gas.usage.query({ organizationId: orgId });
    expect(usage).toMatchObject({ windowDurationMinutes: 60, windowLimitUsd: '10', usageUsd: '1.75', config: { orgWindowLimitUsd: '10', subOrgWindowLimitUsd: '2.5', windowDurationMinutes: 60, enabled: true } });
    expect(usage.series).toHaveLength(13);
    expect(usage.series.map((p) => p.minutesAgo)).toEqual([60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5, 0]);
    const at = (m: number) => usage.series.find((p) => p.minutesAgo === m)!.usedUsd;
    expect([at(60), at(35), at(25), at(10), at(5), at(0)]).toEqual(['0', '0', '1.25', '1.25', '1.75', '1.75']);
  });

  it("shows a sub-organization its own limit, which its parent set", async () => {
    const usage = await adminAs(latchkey, rootSession).gas.usage.query({ organizationId: sub.organizationId });
    expect(usage).toMatchObject({ windowDurationMinutes: 60, windowLimitUsd: '2.5', usageUsd: '0', config: null });
  });

  it('refuses an unstamped read, another organization, a bad window (400 naming it) and a non-root user without a policy (403)', async () => {
    expect(await refused(adminAs(latchkey).gas.usage.query({ organizationId: orgId }))).toMatchObject({ code: 'SIGNATURE_MISSING', status: 401 });
    expect([401, 403]).toContain((await refused(adminAs(latchkey, sub.key).gas.usage.query({ organizationId: orgId }))).status);
    const bad = await refused(adminAs(latchkey, rootSession).gas.configure.mutate(envelope('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', { orgWindowLimitUsd: '10', subOrgWindowLimitUsd: '1', windowDurationMinutes: '0' })));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(bad.message).toMatch(/windowDurationMinutes/);
    const session = await signInByEmail(latchkey, orgId, member.email);
    const denied = await refused(adminAs(latchkey, session).gas.configure.mutate(envelope('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', { orgWindowLimitUsd: '99', subOrgWindowLimitUsd: '1', windowDurationMinutes: '60' })));
    expect(denied).toMatchObject({ code: 'REQUEST_NOT_AUTHORIZED', status: 403 });
    expect((await adminAs(latchkey, rootSession).gas.usage.query({ organizationId: orgId })).windowLimitUsd).toBe('10');
  });
});

describe('tvc', () => {
  it('lists apps and deployments, takes an operator approval, sets the deployment live and refuses deleting it', async () => {
    const f = await createTvcFixture(sdkAs(latchkey, rootKey, orgId));
    const admin = adminAs(latchkey, rootSession);
    const app = () => admin.tvc.apps.query({ organizationId: orgId }).then((r) => r.tvcApps.find((a) => a.id === f.appId)!);
    const deployment = () => admin.tvc.deployments.query({ organizationId: orgId, appId: f.appId }).then((r) => r.tvcDeployments.find((d) => d.id === f.deploymentId)!);
    expect(await app()).toMatchObject({ id: f.appId, manifestSet: { threshold: 1, operators: [{ name: 'alice-operator' }] } });
    const created = await deployment();
    expect(created).toMatchObject({ qosVersion: 'v0.5.0', manifestApprovals: [], delete: false });
    expect(tvcDeploymentLabel(created, await app())).toBe('CREATED');

    const approved = await admin.tvc.approve.mutate(
      envelope('ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS', { manifestId: f.manifestId, approvals: [{ operatorId: f.operatorId, signature: f.operator.sign(created.manifest.manifest) }] }),
    );
    expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await deployment()).manifestApprovals.map((a) => a.operator.name)).toEqual(['alice-operator']);
    expect(tvcDeploymentLabel(await deployment(), await app())).toBe('APPROVED');

    expect((await admin.tvc.setLive.mutate(envelope('ACTIVITY_TYPE_UPDATE_TVC_APP_LIVE_DEPLOYMENT', { deploymentId: f.deploymentId }))).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await app()).liveDeploymentId).toBe(f.deploymentId);
    expect(tvcDeploymentLabel(await deployment(), await app())).toBe('LIVE');
    const live = await refused(admin.tvc.deleteDeployment.mutate(envelope('ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT', { deploymentId: f.deploymentId })));
    expect(live).toMatchObject({ code: 'BAD_REQUEST', status: 400, message: expect.stringMatching(/is live/) });
  });

  it('refuses a forged approval with 400, an unstamped read, and another organization', async () => {
    const f = await createTvcFixture(sdkAs(latchkey, rootKey, orgId));
    const admin = adminAs(latchkey, rootSession);
    const forged = await refused(admin.tvc.approve.mutate(envelope('ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS', { manifestId: f.manifestId, approvals: [{ operatorId: f.operatorId, signature: f.operator.sign('other bytes') }] })));
    expect(forged).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(await refused(adminAs(latchkey).tvc.apps.query({ organizationId: orgId }))).toMatchObject({ code: 'SIGNATURE_MISSING', status: 401 });
    expect([401, 403]).toContain((await refused(adminAs(latchkey, sub.key).tvc.deployments.query({ organizationId: orgId, appId: f.appId }))).status);
    expect((await adminAs(latchkey, sub.key).tvc.apps.query({ organizationId: sub.organizationId })).tvcApps).toEqual([]);
  });
});
