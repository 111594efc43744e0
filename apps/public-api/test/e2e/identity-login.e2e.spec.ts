/**
 * Identity and login end to end, against one real Latchkey with real parts around it: a real SMTP
 * server (`smtp-server`) receives the OTP and recovery mails, a real OpenID provider
 * (`oidc-provider`) issues the id_tokens, and a software WebAuthn authenticator makes real
 * attestations and assertions. The server is driven by the unmodified `@turnkey/sdk-server` and
 * `@turnkey/http` clients; the session JWTs, verification tokens and credential bundles are
 * checked with the unmodified `@turnkey/crypto`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { p256 } from '@noble/curves/nist.js';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import {
  decryptCredentialBundle,
  encryptOtpCodeToBundle,
  generateP256KeyPair,
  verifyOtpVerificationToken,
  verifySessionJwtSignature,
} from '@turnkey/crypto';
import { TurnkeyClient, type TurnkeyApiTypes } from '@turnkey/http';
import { Turnkey } from '@turnkey/sdk-server';
import {
  createSoftwareAuthenticator,
  startLatchkey,
  startOidcProvider,
  startSmtpCapture,
  type TLatchkey,
  type TOidcProvider,
  type TSmtpCapture,
} from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, bundleFromMail, clientSignature, codeFromMail, dumpPublicSchema, sha256Hex, turnkeyErrorCodes, uniqueName } from './e2e-helpers.js';

type TKeyPair = { publicKey: string; privateKey: string };

const APP_CLIENT_ID = 'latchkey-e2e-app';
const OTHER_CLIENT_ID = 'another-app';
const REDIRECT_URI = 'http://127.0.0.1/callback';
const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:3000';

let latchkey: TLatchkey;
let smtp: TSmtpCapture;
let oidc: TOidcProvider;
let root: ReturnType<Turnkey['apiClient']>;
/** A Twilio-compatible REST endpoint on 127.0.0.1 (the SMS carrier is the one thing outside the machine). */
let carrier: Server;
const texts: { to: string; from: string; body: string; authorization: string }[] = [];
const TWILIO_SID = 'AC00000000000000000000000000000000';
let parentOrgId: string;

const base64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const randomChallenge = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

/** A client for any key pair (sessions, bundles) through the unmodified @turnkey/http. */
function httpClientFor(key: TKeyPair): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: latchkey.baseUrl }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }));
}

/** A refusal from either client: @turnkey/http and sdk-server throw their own TurnkeyRequestError classes. */
interface TRefusal {
  message: string;
  code: number;
  codes: string[];
}

async function rejectionOf(promise: Promise<unknown>): Promise<TRefusal> {
  let value: unknown;
  try {
    value = await promise;
  } catch (e) {
    const err = e as { name?: string; message: string; code?: number; details?: unknown[] | null };
    expect(err.name).toBe('TurnkeyRequestError');
    return { message: err.message, code: err.code ?? -1, codes: turnkeyErrorCodes(err.details ?? null) };
  }
  throw new Error(`expected a TurnkeyRequestError but the call succeeded with ${JSON.stringify(value)}`);
}

const rootHttp = () => httpClientFor({ publicKey: latchkey.bootstrap.apiPublicKey, privateKey: latchkey.bootstrap.apiPrivateKey! });

function decodeJwtPayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** clientSignature of otp_login, made by the key the verification token is bound to (raw r‖s). */
function loginClientSignature(tokenKey: TKeyPair, sessionPublicKey: string, tokenId: string): TurnkeyApiTypes['v1ClientSignature'] {
  return clientSignature(tokenKey, JSON.stringify({ login: { publicKey: sessionPublicKey }, tokenId, type: 'USAGE_TYPE_LOGIN' }));
}

beforeAll(async () => {
  smtp = await startSmtpCapture();
  oidc = await startOidcProvider({ clients: [{ clientId: APP_CLIENT_ID, redirectUris: [REDIRECT_URI] }, { clientId: OTHER_CLIENT_ID, redirectUris: [REDIRECT_URI] }] });
  carrier = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`) {
        res.writeHead(404).end('{}');
        return;
      }
      texts.push({ to: form.get('To') ?? '', from: form.get('From') ?? '', body: form.get('Body') ?? '', authorization: req.headers.authorization ?? '' });
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${texts.length}`, status: 'queued' }));
    });
  });
  await new Promise<void>((r) => carrier.listen(0, '127.0.0.1', r));
  latchkey = await startLatchkey({ apps: ['public-api'],
    env: {
      LATCHKEY_SMTP_URL: smtp.url,
      LATCHKEY_EMAIL_FROM: 'Latchkey Tests <no-reply@latchkey.test>',
      LATCHKEY_OIDC_HTTP_ISSUERS: oidc.issuer,
      LATCHKEY_SMS_PROVIDER: 'twilio',
      LATCHKEY_TWILIO_BASE_URL: `http://127.0.0.1:${(carrier.address() as AddressInfo).port}`,
      LATCHKEY_TWILIO_ACCOUNT_SID: TWILIO_SID,
      LATCHKEY_TWILIO_AUTH_TOKEN: 'test-token',
      LATCHKEY_TWILIO_FROM: '+15005550006',
    },
  });
  const b = latchkey.bootstrap;
  parentOrgId = b.organizationId;
  root = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: b.apiPublicKey, apiPrivateKey: b.apiPrivateKey!, defaultOrganizationId: parentOrgId }).apiClient();
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
  await smtp?.stop();
  await oidc?.stop();
  await new Promise((r) => carrier?.close(r));
});

/** A sub-organization for one end user: e-mail, a passkey, an OAuth identity at the test provider, a wallet. */
async function createEndUser(opts: { email?: string; phone?: string; apiKey?: TKeyPair; oidcSub?: string; passkey?: boolean } = {}) {
  const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
  const challenge = randomChallenge();
  const email = opts.email ?? `${uniqueName('user')}@example.test`.toLowerCase();
  const result = await root.createSubOrganization({
    subOrganizationName: uniqueName('end-user'),
    rootQuorumThreshold: 1,
    rootUsers: [
      {
        userName: 'End User',
        userEmail: email,
        ...(opts.phone ? { userPhoneNumber: opts.phone } : {}),
        apiKeys: opts.apiKey ? [{ apiKeyName: 'device', publicKey: opts.apiKey.publicKey, curveType: 'API_KEY_CURVE_P256' }] : [],
        authenticators: opts.passkey === false ? [] : [{ authenticatorName: 'laptop', challenge, attestation: authenticator.register(challenge, { format: 'packed' }) }],
        oauthProviders: opts.oidcSub ? [{ providerName: 'test-idp', oidcClaims: { iss: oidc.issuer, sub: opts.oidcSub, aud: APP_CLIENT_ID } }] : [],
      },
    ],
    wallet: { walletName: 'Default', accounts: [accountParams(0)] },
  });
  return { ...result, rootUserIds: result.rootUserIds ?? [], email, authenticator };
}

describe('sub-organizations', () => {
  it('creates a sub-organization with a passkey user, a wallet and an OAuth identity, and finds it by every filter', async () => {
    const device = generateP256KeyPair();
    const sub = await createEndUser({ apiKey: device, oidcSub: uniqueName('sub') });
    expect(sub.subOrganizationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sub.rootUserIds).toHaveLength(1);
    expect(sub.wallet?.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const byFilter = async (filterType: string, filterValue: string) => (await root.getSubOrgIds({ filterType, filterValue })).organizationIds;
    expect(await byFilter('EMAIL', sub.email.toUpperCase())).toEqual([sub.subOrganizationId]);
    expect(await byFilter('PUBLIC_KEY', device.publicKey)).toEqual([sub.subOrganizationId]);
    expect(await byFilter('CREDENTIAL_ID', sub.authenticator.credentialId)).toEqual([sub.subOrganizationId]);
    expect(await byFilter('USERNAME', 'End User')).toContain(sub.subOrganizationId);
    expect(await byFilter('WALLET_ACCOUNT_ADDRESS', sub.wallet!.addresses[0]!)).toEqual([sub.subOrganizationId]);
    expect(await byFilter('EMAIL', 'nobody@example.test')).toEqual([]);

    // The parent reads the sub-organization…
    // (sdk-server 8 has no getOrganization; the @turnkey/http client does.)
    const org = await rootHttp().getOrganization({ organizationId: sub.subOrganizationId });
    expect(org.organizationData.users?.[0]?.authenticators[0]?.credentialId).toBe(sub.authenticator.credentialId);
    expect(org.organizationData.users?.[0]?.authenticators[0]?.attestationType).toBe('packed');
    // …but cannot write in it.
    const refused = await rejectionOf(root.createWallet({ organizationId: sub.subOrganizationId, walletName: 'x', accounts: [] }));
    expect(refused.message).toContain('organization mismatch');
  });

  it('refuses a forged passkey attestation with a 400 and creates nothing', async () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const challenge = randomChallenge();
    const attestation = authenticator.register(challenge, { format: 'packed' });
    const name = uniqueName('forged');
    const err = await rejectionOf(
      root.createSubOrganization({
        subOrganizationName: name,
        rootQuorumThreshold: 1,
        rootUsers: [{ userName: 'x', apiKeys: [], oauthProviders: [], authenticators: [{ authenticatorName: 'k', challenge: randomChallenge(), attestation }] }],
      }),
    );
    expect(err.message).toMatch(/attestation/i);
    expect(err.codes).toContain('REQUEST_INVALID');
    expect((await root.getSubOrgIds({ filterType: 'NAME', filterValue: name })).organizationIds).toEqual([]);
  });

  it('refuses a root quorum threshold above the number of root users', async () => {
    const err = await rejectionOf(
      root.createSubOrganization({ subOrganizationName: uniqueName('q'), rootQuorumThreshold: 2, rootUsers: [{ userName: 'x', apiKeys: [], authenticators: [], oauthProviders: [] }] }),
    );
    expect(err.message).toContain('rootQuorumThreshold');
  });

  it('sets, lists and removes organization features', async () => {
    const set = await root.setOrganizationFeature({ name: 'FEATURE_NAME_WEBAUTHN_ORIGINS', value: ORIGIN });
    expect(set.features).toContainEqual({ name: 'FEATURE_NAME_WEBAUTHN_ORIGINS', value: ORIGIN });
    const configs = await root.getOrganizationConfigs({ organizationId: parentOrgId });
    expect(configs.configs.features).toContainEqual({ name: 'FEATURE_NAME_WEBAUTHN_ORIGINS', value: ORIGIN });
    expect(configs.configs.quorum).toEqual({ threshold: 1, userIds: [latchkey.bootstrap.userId] });
    const removed = await root.removeOrganizationFeature({ name: 'FEATURE_NAME_WEBAUTHN_ORIGINS' });
    expect(removed.features.find((f) => f.name === 'FEATURE_NAME_WEBAUTHN_ORIGINS')).toBeUndefined();
  });
});

describe('sessions', () => {
  it('logs in with a passkey aimed at the parent: stamp_login resolves the sub-organization and the session key then works', async () => {
    const sub = await createEndUser();
    const passkeyClient = new TurnkeyClient({ baseUrl: latchkey.baseUrl }, sub.authenticator.stamper);
    const session = generateP256KeyPair();
    const res = await passkeyClient.stampLogin({
      type: 'ACTIVITY_TYPE_STAMP_LOGIN',
      timestampMs: String(Date.now()),
      organizationId: parentOrgId,
      parameters: { publicKey: session.publicKey },
    });
    const jwt = res.activity.result.stampLoginResult!.session;
    expect(await verifySessionJwtSignature(jwt, latchkey.bootstrap.notarizerPublicKey)).toBe(true);
    expect(await verifySessionJwtSignature(jwt)).toBe(false); // Turnkey's own notarizer key did not sign it
    const claims = decodeJwtPayload(jwt);
    expect(claims).toMatchObject({ public_key: session.publicKey, session_type: 'SESSION_TYPE_READ_WRITE', user_id: sub.rootUserIds[0], organization_id: sub.subOrganizationId });
    expect(Number(claims['exp'])).toBeGreaterThan(Date.now() / 1000 + 800);

    const me = await httpClientFor(session).getWhoami({ organizationId: sub.subOrganizationId });
    expect(me).toMatchObject({ organizationId: sub.subOrganizationId, userId: sub.rootUserIds[0] });
  });

  it('invalidateExisting removes the earlier login keys; an expired session key stops working at its expiry', async () => {
    const device = generateP256KeyPair();
    const sub = await createEndUser({ apiKey: device, passkey: false });
    const login = (publicKey: string, extra: { invalidateExisting?: boolean; expirationSeconds?: string } = {}) =>
      httpClientFor(device).stampLogin({ type: 'ACTIVITY_TYPE_STAMP_LOGIN', timestampMs: String(Date.now()), organizationId: sub.subOrganizationId, parameters: { publicKey, ...extra } });
    const first = generateP256KeyPair();
    const second = generateP256KeyPair();
    await login(first.publicKey);
    await login(second.publicKey, { invalidateExisting: true });
    expect((await rejectionOf(httpClientFor(first).getWhoami({ organizationId: sub.subOrganizationId }))).codes).toContain('PUBLIC_KEY_NOT_FOUND');
    expect((await httpClientFor(second).getWhoami({ organizationId: sub.subOrganizationId })).userId).toBe(sub.rootUserIds[0]);
    // The device key is not a login key: it survives.
    expect((await httpClientFor(device).getWhoami({ organizationId: sub.subOrganizationId })).userId).toBe(sub.rootUserIds[0]);

    const brief = generateP256KeyPair();
    const res = await login(brief.publicKey, { expirationSeconds: '1' });
    expect(Number(decodeJwtPayload(res.activity.result.stampLoginResult!.session)['exp'])).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 2);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await rejectionOf(httpClientFor(brief).getWhoami({ organizationId: sub.subOrganizationId }))).codes).toContain('API_KEY_EXPIRED');
  });

  it('refuses a replayed passkey assertion: the signature counter must move forward', async () => {
    const sub = await createEndUser();
    const body = JSON.stringify({ organizationId: sub.subOrganizationId });
    const stamp = sub.authenticator.stamp(body);
    const send = () =>
      fetch(`${latchkey.baseUrl}/public/v1/query/whoami`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Stamp-Webauthn': stamp }, body });
    expect((await send()).status).toBe(200);
    const replay = await send();
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { message: string }).message).toContain('signature counter');
  });

  it('create_read_write_session returns a credential bundle that decryptCredentialBundle opens into a working key', async () => {
    const device = generateP256KeyPair();
    const sub = await createEndUser({ apiKey: device, passkey: false });
    const target = generateP256KeyPair();
    const res = await httpClientFor(device).createReadWriteSession({
      type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
      timestampMs: String(Date.now()),
      organizationId: sub.subOrganizationId,
      parameters: { targetPublicKey: target.publicKeyUncompressed, expirationSeconds: '600' },
    });
    const result = res.activity.result.createReadWriteSessionResultV2!;
    expect(result).toMatchObject({ organizationId: sub.subOrganizationId, userId: sub.rootUserIds[0], username: 'End User' });
    const privateKey = decryptCredentialBundle(result.credentialBundle, target.privateKey);
    const sessionKey = { privateKey, publicKey: Buffer.from(p256.getPublicKey(Buffer.from(privateKey, 'hex'), true)).toString('hex') };
    expect((await httpClientFor(sessionKey).getWhoami({ organizationId: sub.subOrganizationId })).userId).toBe(sub.rootUserIds[0]);
  });

  it('refuses a login with a public key held by two sub-organizations (CREDENTIAL_CONFLICT)', async () => {
    const shared = generateP256KeyPair();
    await createEndUser({ apiKey: shared, passkey: false });
    await createEndUser({ apiKey: shared, passkey: false });
    const err = await rejectionOf(
      httpClientFor(shared).stampLogin({ type: 'ACTIVITY_TYPE_STAMP_LOGIN', timestampMs: String(Date.now()), organizationId: parentOrgId, parameters: { publicKey: generateP256KeyPair().publicKey } }),
    );
    expect(err.codes).toContain('CREDENTIAL_CONFLICT');
  });
});

describe('OTP by e-mail', () => {
  it('init_otp → mail → verify_otp (encrypted bundle) → otp_login: a session for the sub-organization user', async () => {
    const sub = await createEndUser({ passkey: false });
    const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: sub.email, appName: 'Latchkey E2E', otpLength: 9 });
    const mail = await smtp.waitForMessage((m) => m.to.includes(sub.email));
    expect(mail.subject).toContain('Latchkey E2E');
    const code = codeFromMail(mail);
    expect(code).toHaveLength(9);

    const client = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(code, init.otpEncryptionTargetBundle, client.publicKey, latchkey.bootstrap.otpVerifierPublicKey);
    const { verificationToken } = await root.verifyOtp({ otpId: init.otpId, encryptedOtpBundle });
    const token = await verifyOtpVerificationToken(verificationToken, latchkey.bootstrap.otpVerifierPublicKey);
    expect(token).toMatchObject({ contact: sub.email, verification_type: 'OTP_TYPE_EMAIL', public_key: client.publicKey });

    const session = generateP256KeyPair();
    const login = await root.otpLogin({ verificationToken, publicKey: session.publicKey, clientSignature: loginClientSignature(client, session.publicKey, token.id) });
    expect(await verifySessionJwtSignature(login.session, latchkey.bootstrap.notarizerPublicKey)).toBe(true);
    expect(decodeJwtPayload(login.session)).toMatchObject({ organization_id: sub.subOrganizationId, user_id: sub.rootUserIds[0] });
    expect((await httpClientFor(session).getWhoami({ organizationId: sub.subOrganizationId })).userId).toBe(sub.rootUserIds[0]);

    // The token works once.
    const again = await rejectionOf(root.otpLogin({ verificationToken, publicKey: session.publicKey, clientSignature: loginClientSignature(client, session.publicKey, token.id) }));
    expect(again.message).toContain('already used');
  });

  it('refuses a wrong code, a reused code and an expired code with clear 4xx errors', async () => {
    const sub = await createEndUser({ passkey: false });
    const client = generateP256KeyPair();
    const send = async (expirationSeconds?: string) => {
      const before = smtp.messages.length;
      const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: sub.email, appName: 'E2E', ...(expirationSeconds ? { expirationSeconds } : {}) });
      const mail = await smtp.waitForMessage((m) => m.to.includes(sub.email) && smtp.messages.indexOf(m) >= before);
      return { init, code: codeFromMail(mail) };
    };
    const verify = async (init: { otpId: string; otpEncryptionTargetBundle: string }, code: string) =>
      root.verifyOtp({ otpId: init.otpId, encryptedOtpBundle: await encryptOtpCodeToBundle(code, init.otpEncryptionTargetBundle, client.publicKey, latchkey.bootstrap.otpVerifierPublicKey) });

    const first = await send();
    const wrong = await rejectionOf(verify(first.init, first.code === 'AAAAAAAAA' ? 'BBBBBBBBB' : 'AAAAAAAAA'));
    expect(wrong.message).toContain('Invalid OTP code');
    expect(wrong.codes).toContain('REQUEST_INVALID');
    await verify(first.init, first.code);
    expect((await rejectionOf(verify(first.init, first.code))).message).toContain('already used');

    const short = await send('1');
    await new Promise((r) => setTimeout(r, 1500));
    expect((await rejectionOf(verify(short.init, short.code))).message).toContain('expired');
  });

  it('stamp_login with X-Stamp-Attested (verification token) logs in with no other credential, once', async () => {
    const sub = await createEndUser({ passkey: false });
    const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: sub.email, appName: 'E2E' });
    const code = codeFromMail(await smtp.waitForMessage((m) => m.to.includes(sub.email)));
    const key = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(code, init.otpEncryptionTargetBundle, key.publicKey, latchkey.bootstrap.otpVerifierPublicKey);
    const { verificationToken } = await root.verifyOtp({ otpId: init.otpId, encryptedOtpBundle });

    const attestedLogin = async () => {
      const body = JSON.stringify({ type: 'ACTIVITY_TYPE_STAMP_LOGIN', timestampMs: String(Date.now()), organizationId: parentOrgId, parameters: { publicKey: key.publicKey } });
      const { stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(body);
      const { signature } = JSON.parse(Buffer.from(stampHeaderValue, 'base64url').toString('utf8')) as { signature: string };
      const attested = { publicKeyAttestation: verificationToken, scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', publicKey: key.publicKey, signature };
      return fetch(`${latchkey.baseUrl}/public/v1/submit/stamp_login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Stamp-Attested': Buffer.from(JSON.stringify(attested)).toString('base64url') },
        body,
      });
    };
    const res = await attestedLogin();
    expect(res.status).toBe(200);
    const { activity } = (await res.json()) as { activity: TurnkeyApiTypes['v1Activity'] };
    const session = activity.result.stampLoginResult!.session;
    expect(decodeJwtPayload(session)).toMatchObject({ organization_id: sub.subOrganizationId, user_id: sub.rootUserIds[0], public_key: key.publicKey });
    const again = await attestedLogin();
    expect(again.status).toBe(401);
    expect(((await again.json()) as { message: string }).message).toContain('already used');
  });

  it('limits attempts per code and codes per contact (429 naming the limit), and stores no code in the database or the log', async () => {
    const sub = await createEndUser({ passkey: false });
    const client = generateP256KeyPair();
    const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: sub.email, appName: 'E2E' });
    const code = codeFromMail(await smtp.waitForMessage((m) => m.to.includes(sub.email)));
    const wrongCode = code === 'AAAAAAAAA' ? 'BBBBBBBBB' : 'AAAAAAAAA';
    const verify = async (c: string) => root.verifyOtp({ otpId: init.otpId, encryptedOtpBundle: await encryptOtpCodeToBundle(c, init.otpEncryptionTargetBundle, client.publicKey, latchkey.bootstrap.otpVerifierPublicKey) });
    for (let i = 0; i < 5; i++) expect((await rejectionOf(verify(wrongCode))).message).toContain('Invalid OTP code');
    const exhausted = await rejectionOf(verify(code)); // even the right code: the attempts are used up
    expect(exhausted.codes).toContain('RESOURCE_EXHAUSTED');
    expect(exhausted.message).toContain('at most 5');

    const { dump } = await dumpPublicSchema(await latchkey.databaseUrl());
    expect(dump).not.toContain(code);
    expect(latchkey.output()).not.toContain(code);

    for (let i = 0; i < 4; i++) await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: sub.email, appName: 'E2E' });
    const tooMany = await rejectionOf(root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: sub.email, appName: 'E2E' }));
    expect(tooMany.codes).toContain('RESOURCE_EXHAUSTED');
    expect(tooMany.message).toContain('at most 5 per 10 minutes');
  });

  it('otp_auth (older flow) returns a credential bundle for the user', async () => {
    const sub = await createEndUser({ passkey: false });
    const init = await root.initOtpAuth({ organizationId: sub.subOrganizationId, otpType: 'OTP_TYPE_EMAIL', contact: sub.email, appName: 'E2E' });
    const code = codeFromMail(await smtp.waitForMessage((m) => m.to.includes(sub.email)));
    const target = generateP256KeyPair();
    const res = await root.otpAuth({ organizationId: sub.subOrganizationId, otpId: init.otpId, otpCode: code, targetPublicKey: target.publicKeyUncompressed });
    expect(res.userId).toBe(sub.rootUserIds[0]);
    const privateKey = decryptCredentialBundle(res.credentialBundle!, target.privateKey);
    const key = { privateKey, publicKey: Buffer.from(p256.getPublicKey(Buffer.from(privateKey, 'hex'), true)).toString('hex') };
    const users = await rootHttp().getOrganization({ organizationId: sub.subOrganizationId });
    const otpKey = users.organizationData.users![0]!.apiKeys.find((k) => k.apiKeyId === res.apiKeyId)!;
    expect(otpKey.apiKeyName).toMatch(/^OTP Auth - /);
    expect(otpKey.credential.type).toBe('CREDENTIAL_TYPE_OTP_AUTH_KEY_P256');
    expect((await httpClientFor(key).getWhoami({ organizationId: sub.subOrganizationId })).userId).toBe(sub.rootUserIds[0]);
  });
});

describe('OTP by SMS', () => {
  it('texts a numeric code through the Twilio-compatible provider, honouring the SMS template, and logs the user in', async () => {
    const phone = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const sub = await createEndUser({ passkey: false, phone });
    const init = await root.initOtp({
      otpType: 'OTP_TYPE_SMS',
      contact: phone,
      appName: 'E2E',
      otpLength: 6,
      alphanumeric: false,
      smsCustomization: { template: 'Your E2E code: {{.OtpCode}}' },
    });
    const text = texts.find((t) => t.to === phone)!;
    expect(text).toMatchObject({ from: '+15005550006', authorization: `Basic ${Buffer.from(`${TWILIO_SID}:test-token`).toString('base64')}` });
    const code = /Your E2E code: ([0-9]{6})$/.exec(text.body)?.[1];
    expect(code).toMatch(/^[0-9]{6}$/);

    const client = generateP256KeyPair();
    const { verificationToken } = await root.verifyOtp({
      otpId: init.otpId,
      encryptedOtpBundle: await encryptOtpCodeToBundle(code!, init.otpEncryptionTargetBundle, client.publicKey, latchkey.bootstrap.otpVerifierPublicKey),
    });
    const token = await verifyOtpVerificationToken(verificationToken, latchkey.bootstrap.otpVerifierPublicKey);
    expect(token).toMatchObject({ verification_type: 'OTP_TYPE_SMS', contact: phone });
    const session = generateP256KeyPair();
    const login = await root.otpLogin({ verificationToken, publicKey: session.publicKey, clientSignature: loginClientSignature(client, session.publicKey, token.id) });
    expect(decodeJwtPayload(login.session)).toMatchObject({ organization_id: sub.subOrganizationId, user_id: sub.rootUserIds[0] });
  });

  it('refuses an SMS OTP for a sub-organization created with disableSmsAuth', async () => {
    const phone = `+1415556${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const created = await root.createSubOrganization({
      subOrganizationName: uniqueName('no-sms'),
      rootQuorumThreshold: 1,
      disableSmsAuth: true,
      rootUsers: [{ userName: 'x', userPhoneNumber: phone, apiKeys: [], authenticators: [], oauthProviders: [] }],
    });
    const err = await rejectionOf(root.initOtp({ organizationId: created.subOrganizationId, otpType: 'OTP_TYPE_SMS', contact: phone, appName: 'E2E' }));
    expect(err.message).toContain('FEATURE_NAME_SMS_AUTH is disabled');
    expect(texts.some((t) => t.to === phone)).toBe(false);
  });
});

describe('OAuth / OIDC', () => {
  it('oauth_login with a real id_token (nonce = sha256(publicKey)) logs the user of the sub-organization in', async () => {
    const subject = uniqueName('alice');
    const sub = await createEndUser({ passkey: false, oidcSub: subject });
    const session = generateP256KeyPair();
    const oidcToken = await oidc.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: sha256Hex(session.publicKey) });
    const login = await root.oauthLogin({ oidcToken, publicKey: session.publicKey });
    expect(decodeJwtPayload(login.session)).toMatchObject({ organization_id: sub.subOrganizationId, user_id: sub.rootUserIds[0], public_key: session.publicKey });
    expect((await root.getSubOrgIds({ filterType: 'OIDC_TOKEN', filterValue: oidcToken })).organizationIds).toEqual([sub.subOrganizationId]);
  });

  it('stamp_login with X-Stamp-Attested (OIDC token whose nonce is sha256 of the key) logs the user in', async () => {
    const subject = uniqueName('erin');
    const sub = await createEndUser({ passkey: false, oidcSub: subject });
    const key = generateP256KeyPair();
    const oidcToken = await oidc.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: sha256Hex(key.publicKey) });
    const body = JSON.stringify({ type: 'ACTIVITY_TYPE_STAMP_LOGIN', timestampMs: String(Date.now()), organizationId: parentOrgId, parameters: { publicKey: key.publicKey } });
    const { stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(body);
    const { signature } = JSON.parse(Buffer.from(stampHeaderValue, 'base64url').toString('utf8')) as { signature: string };
    const attested = (publicKeyAttestation: string) =>
      fetch(`${latchkey.baseUrl}/public/v1/submit/stamp_login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'X-Stamp-Attested': Buffer.from(JSON.stringify({ publicKeyAttestation, scheme: 'STAMP_ATTESTED_SCHEME_P256_OIDC', publicKey: key.publicKey, signature })).toString('base64url'),
        },
        body,
      });
    const res = await attested(oidcToken);
    expect(res.status).toBe(200);
    const { activity } = (await res.json()) as { activity: TurnkeyApiTypes['v1Activity'] };
    expect(decodeJwtPayload(activity.result.stampLoginResult!.session)).toMatchObject({ organization_id: sub.subOrganizationId, user_id: sub.rootUserIds[0] });
    // A token minted for another key does not vouch for this one.
    const otherNonce = await oidc.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: sha256Hex('another key') });
    const refused = await attested(otherNonce);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toMatch(/nonce/i);
  });

  it('refuses a wrong nonce and a token issued for another audience', async () => {
    const subject = uniqueName('bob');
    await createEndUser({ passkey: false, oidcSub: subject });
    const session = generateP256KeyPair();
    const wrongNonce = await oidc.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: sha256Hex('something else') });
    const e1 = await rejectionOf(root.oauthLogin({ oidcToken: wrongNonce, publicKey: session.publicKey }));
    expect(e1.message).toMatch(/nonce/i);
    const otherAudience = await oidc.obtainIdToken({ sub: subject, clientId: OTHER_CLIENT_ID, nonce: sha256Hex(session.publicKey) });
    const e2 = await rejectionOf(root.oauthLogin({ oidcToken: otherAudience, publicKey: session.publicKey }));
    expect(e2.message).toMatch(/no user with an OAuth provider/);
  });
});

describe('passkeys and OAuth providers of a user', () => {
  it('adds a passkey (attestation verified), lists it, authenticates with it, and deletes it', async () => {
    const device = generateP256KeyPair();
    const sub = await createEndUser({ apiKey: device });
    const userId = sub.rootUserIds[0]!;
    const own = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: device.publicKey, apiPrivateKey: device.privateKey, defaultOrganizationId: sub.subOrganizationId }).apiClient();
    const phone = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const challenge = randomChallenge();
    const created = await own.createAuthenticators({ userId, authenticators: [{ authenticatorName: 'phone', challenge, attestation: phone.register(challenge, { format: 'none' }) }] });
    expect(created.authenticatorIds).toHaveLength(1);

    const { authenticators } = await own.getAuthenticators({ userId });
    expect(authenticators.map((a) => a.credentialId).sort()).toEqual([sub.authenticator.credentialId, phone.credentialId].sort());
    const one = await own.getAuthenticator({ authenticatorId: created.authenticatorIds[0]! });
    expect(one.authenticator).toMatchObject({ authenticatorName: 'phone', attestationType: 'none', credential: { type: 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR', publicKey: phone.publicKey } });

    const phoneClient = new TurnkeyClient({ baseUrl: latchkey.baseUrl }, phone.stamper);
    expect((await phoneClient.getWhoami({ organizationId: sub.subOrganizationId })).userId).toBe(userId);
    await own.deleteAuthenticators({ userId, authenticatorIds: created.authenticatorIds });
    expect((await rejectionOf(phoneClient.getWhoami({ organizationId: sub.subOrganizationId }))).codes).toContain('CREDENTIAL_NOT_FOUND');
    const missing = await rejectionOf(own.deleteAuthenticators({ userId, authenticatorIds: created.authenticatorIds }));
    expect(missing.message).toContain('authenticators not found');
  });

  it('adds an OAuth provider from a verified id_token, logs in with it, and deletes it', async () => {
    const device = generateP256KeyPair();
    const sub = await createEndUser({ apiKey: device, passkey: false });
    const userId = sub.rootUserIds[0]!;
    const own = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: device.publicKey, apiPrivateKey: device.privateKey, defaultOrganizationId: sub.subOrganizationId }).apiClient();
    const subject = uniqueName('carol');
    const registration = await oidc.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: 'registration' });
    const created = await own.createOauthProviders({ userId, oauthProviders: [{ providerName: 'test-idp', oidcToken: registration }] });
    const { oauthProviders } = await own.getOauthProviders({ userId });
    expect(oauthProviders).toEqual([expect.objectContaining({ providerId: created.providerIds[0], issuer: oidc.issuer, subject, audience: APP_CLIENT_ID })]);

    const session = generateP256KeyPair();
    const login = async () => root.oauthLogin({ oidcToken: await oidc.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: sha256Hex(session.publicKey) }), publicKey: session.publicKey });
    expect(decodeJwtPayload((await login()).session)['user_id']).toBe(userId);
    await own.deleteOauthProviders({ userId, providerIds: created.providerIds });
    expect((await rejectionOf(login())).message).toMatch(/no user with an OAuth provider/);
    const forged = await rejectionOf(own.createOauthProviders({ userId, oauthProviders: [{ providerName: 'x', oidcToken: `${registration.slice(0, -4)}AAAA` }] }));
    expect(forged.message).toContain('invalid OIDC token');
  });
});

describe('recovery by e-mail', () => {
  it('mails a recovery bundle whose key can only add a passkey to its own user, once', async () => {
    const sub = await createEndUser({ passkey: false });
    const target = generateP256KeyPair();
    const init = await root.initUserEmailRecovery({ organizationId: sub.subOrganizationId, email: sub.email, targetPublicKey: target.publicKeyUncompressed, emailCustomization: { appName: 'E2E' } });
    expect(init.userId).toBe(sub.rootUserIds[0]);
    const mail = await smtp.waitForMessage((m) => m.to.includes(sub.email) && /recover/i.test(m.subject));
    const privateKey = decryptCredentialBundle(bundleFromMail(mail), target.privateKey);
    const recoveryKey = { privateKey, publicKey: Buffer.from(p256.getPublicKey(Buffer.from(privateKey, 'hex'), true)).toString('hex') };
    const client = httpClientFor(recoveryKey);

    const denied = await rejectionOf(client.createWallet({ type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs: String(Date.now()), organizationId: sub.subOrganizationId, parameters: { walletName: 'no', accounts: [] } }));
    expect(denied.message).toContain('recovery credential');

    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const challenge = randomChallenge();
    const recovered = await client.recoverUser({
      type: 'ACTIVITY_TYPE_RECOVER_USER',
      timestampMs: String(Date.now()),
      organizationId: sub.subOrganizationId,
      parameters: { userId: sub.rootUserIds[0]!, authenticator: { authenticatorName: 'new phone', challenge, attestation: authenticator.register(challenge, { format: 'none' }) } },
    });
    expect(recovered.activity.result.recoverUserResult?.authenticatorId).toHaveLength(1);
    // The new passkey works; the recovery key is spent.
    const me = await new TurnkeyClient({ baseUrl: latchkey.baseUrl }, authenticator.stamper).getWhoami({ organizationId: sub.subOrganizationId });
    expect(me.userId).toBe(sub.rootUserIds[0]);
    expect((await rejectionOf(client.getWhoami({ organizationId: sub.subOrganizationId }))).codes).toContain('PUBLIC_KEY_NOT_FOUND');
  });
});

describe('deleting a sub-organization', () => {
  it('is refused to the parent, refused with unexported keys, and done by its own root user with deleteWithoutExport', async () => {
    const device = generateP256KeyPair();
    const sub = await createEndUser({ apiKey: device, passkey: false });
    const own = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: device.publicKey, apiPrivateKey: device.privateKey, defaultOrganizationId: sub.subOrganizationId }).apiClient();
    expect((await rejectionOf(root.deleteSubOrganization({ organizationId: sub.subOrganizationId }))).message).toContain('organization mismatch');
    expect((await rejectionOf(own.deleteSubOrganization({}))).message).toContain('never exported');
    const done = await own.deleteSubOrganization({ deleteWithoutExport: true });
    expect(done.subOrganizationUuid).toBe(sub.subOrganizationId);
    expect((await root.getSubOrgIds({ filterType: 'PUBLIC_KEY', filterValue: device.publicKey })).organizationIds).toEqual([]);
    // Its keys went with it: the device key is now one nobody holds, refused on the key alone.
    const gone = await rejectionOf(own.getWhoami({ organizationId: sub.subOrganizationId }));
    expect(gone.message).toContain(`could not find public key in organization or its parent organization: ${device.publicKey}`);
  });
});
