/**
 * More of identity and login end to end (issue 4's audit): e-mail auth and `oauth` credential
 * bundles opened with @turnkey/crypto, create_sub_organization V7, sign-up by verification token
 * and client signature, stamp_login and session keys through the unmodified @turnkey/sdk-server,
 * the OTP defaults, bad input answered with a 4xx and nothing written, CREDENTIAL_CONFLICT for
 * passkeys and e-mail addresses, list_suborgs by phone number and name, and what get_authenticator
 * says. Real parts: one Latchkey, a real SMTP server, a real OpenID provider, a software passkey.
 */
import { p256 } from '@noble/curves/nist.js';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { decryptCredentialBundle, encryptOtpCodeToBundle, generateP256KeyPair, verifyOtpVerificationToken, verifySessionJwtSignature } from '@turnkey/crypto';
import { TurnkeyClient, type TurnkeyApiTypes } from '@turnkey/http';
import { Turnkey } from '@turnkey/sdk-server';
import {
  createSoftwareAuthenticator,
  startLatchkey,
  startOidcProvider,
  startSmtpCapture,
  type TCapturedMail,
  type TLatchkey,
  type TOidcProvider,
  type TSmtpCapture,
} from '@latchkey/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, bundleFromMail, clientSignature, codeFromMail, expectErrorResponse, rawRequest, sha256Hex, turnkeyErrorCodes, uniqueName, type TRawResponse } from './e2e-helpers.js';

type TKeyPair = { publicKey: string; privateKey: string };

const APP_CLIENT_ID = 'latchkey-e2e-app';
const OTHER_CLIENT_ID = 'another-app';
const REDIRECT_URI = 'http://127.0.0.1/callback';
const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:3000';

let latchkey: TLatchkey;
let smtp: TSmtpCapture;
let oidc: TOidcProvider;
let db: pg.Client;
let root: ReturnType<Turnkey['apiClient']>;
let parentOrgId: string;
let rootKey: TKeyPair;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  oidc = await startOidcProvider({ clients: [{ clientId: APP_CLIENT_ID, redirectUris: [REDIRECT_URI] }, { clientId: OTHER_CLIENT_ID, redirectUris: [REDIRECT_URI] }] });
  latchkey = await startLatchkey({ apps: ['public-api'], env: { LATCHKEY_SMTP_URL: smtp.url, LATCHKEY_EMAIL_FROM: 'Latchkey Tests <no-reply@latchkey.test>', LATCHKEY_OIDC_HTTP_ISSUERS: oidc.issuer } });
  const b = latchkey.bootstrap;
  parentOrgId = b.organizationId;
  rootKey = { publicKey: b.apiPublicKey, privateKey: b.apiPrivateKey! };
  root = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: b.apiPublicKey, apiPrivateKey: b.apiPrivateKey!, defaultOrganizationId: parentOrgId }).apiClient();
  db = new pg.Client({ connectionString: await latchkey.databaseUrl() });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db?.end();
  await latchkey?.stop();
  await smtp?.stop();
  await oidc?.stop();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const randomChallenge = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
const uniqueEmail = (p: string) => `${uniqueName(p)}@example.test`.toLowerCase();
const decodeJwtPayload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
const compressedOf = (privateKeyHex: string) => Buffer.from(p256.getPublicKey(Buffer.from(privateKeyHex, 'hex'), true)).toString('hex');
const httpClientFor = (key: TKeyPair) => new TurnkeyClient({ baseUrl: latchkey.baseUrl }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }));
const sdkFor = (key: TKeyPair, organizationId: string) =>
  new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: organizationId }).apiClient();

/** The next mail to `to` after this call (earlier ones ignored). */
function nextMailTo(to: string): Promise<TCapturedMail> {
  const before = smtp.messages.length;
  return smtp.waitForMessage((m) => m.to.includes(to) && smtp.messages.indexOf(m) >= before);
}

/** POST of `{type, timestampMs, organizationId, parameters}` stamped by `key`, answered raw (status and body). */
async function submitRaw(path: string, type: string, parameters: object, opts: { key?: TKeyPair; organizationId?: string } = {}): Promise<TRawResponse> {
  const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: opts.organizationId ?? parentOrgId, parameters });
  const key = opts.key ?? rootKey;
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(body);
  return rawRequest(`${latchkey.baseUrl}/public/v1/submit/${path}`, { body, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
}

const COUNTED_TABLES = ['organizations', 'users', 'api_keys', 'authenticators', 'oauth_providers', 'activities', 'spent_verification_tokens', 'outbox_events'] as const;
/** Row counts of the tables a login or sign-up writes to. */
async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of COUNTED_TABLES) out[t] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n);
  return out;
}

/** Sends, and asserts the answer is a 4xx of the given Turnkey code, and that it wrote nothing. */
async function expectRefusedWithoutWrites(send: () => Promise<TRawResponse>, httpStatus: number, grpcCode: number, turnkeyErrorCode: string) {
  const before = await rowCounts();
  const body = expectErrorResponse(await send(), httpStatus, grpcCode, turnkeyErrorCode);
  expect(await rowCounts()).toEqual(before);
  return body;
}

/** A sub-organization for one end user. */
async function createEndUser(opts: { email?: string; phone?: string; apiKey?: TKeyPair; oidcSub?: string; authenticator?: ReturnType<typeof createSoftwareAuthenticator>; name?: string } = {}) {
  const email = opts.email ?? uniqueEmail('user');
  const challenge = randomChallenge();
  const result = await root.createSubOrganization({
    subOrganizationName: opts.name ?? uniqueName('end-user'),
    rootQuorumThreshold: 1,
    rootUsers: [
      {
        userName: 'End User',
        userEmail: email,
        ...(opts.phone ? { userPhoneNumber: opts.phone } : {}),
        apiKeys: opts.apiKey ? [{ apiKeyName: 'device', publicKey: opts.apiKey.publicKey, curveType: 'API_KEY_CURVE_P256' }] : [],
        authenticators: opts.authenticator ? [{ authenticatorName: 'laptop', challenge, attestation: opts.authenticator.register(challenge, { format: 'packed' }) }] : [],
        oauthProviders: opts.oidcSub ? [{ providerName: 'test-idp', oidcClaims: { iss: oidc.issuer, sub: opts.oidcSub, aud: APP_CLIENT_ID } }] : [],
      },
    ],
  });
  return { subOrganizationId: result.subOrganizationId, userId: result.rootUserIds![0]!, email };
}

/** init_otp at the parent → the mailed code → verify_otp (V2) bound to `key`: a verification token. */
async function verifiedEmail(email: string, key: TKeyPair): Promise<{ verificationToken: string; tokenId: string }> {
  const mail = nextMailTo(email);
  const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: email, appName: 'E2E' });
  const code = codeFromMail(await mail);
  const encryptedOtpBundle = await encryptOtpCodeToBundle(code, init.otpEncryptionTargetBundle, key.publicKey, latchkey.bootstrap.otpVerifierPublicKey);
  const { verificationToken } = await root.verifyOtp({ otpId: init.otpId, encryptedOtpBundle });
  return { verificationToken, tokenId: (await verifyOtpVerificationToken(verificationToken, latchkey.bootstrap.otpVerifierPublicKey)).id };
}

// ---------------------------------------------------------------------------------------------
// Credential bundles: email_auth and oauth
// ---------------------------------------------------------------------------------------------

describe('credential bundles', () => {
  it('email_auth by the parent for a sub-organization user: the mailed bundle opens with decryptCredentialBundle and its key works in the sub-organization', async () => {
    const user = await createEndUser();
    const target = generateP256KeyPair();
    const mail = nextMailTo(user.email);
    const res = await root.emailAuth({ organizationId: user.subOrganizationId, email: user.email, targetPublicKey: target.publicKeyUncompressed, emailCustomization: { appName: 'E2E' } });
    expect(res.userId).toBe(user.userId);
    const privateKey = decryptCredentialBundle(bundleFromMail(await mail), target.privateKey);
    const key = { privateKey, publicKey: compressedOf(privateKey) };
    expect(await httpClientFor(key).getWhoami({ organizationId: user.subOrganizationId })).toMatchObject({ organizationId: user.subOrganizationId, userId: user.userId });
    const { apiKeys } = await root.getApiKeys({ organizationId: user.subOrganizationId, userId: user.userId });
    expect(apiKeys.find((k) => k.apiKeyId === res.apiKeyId)).toMatchObject({ credential: { type: 'CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256', publicKey: key.publicKey }, expirationSeconds: '900' });
  });

  it('oauth (the older flow) with a real id_token, by the parent for a sub-organization: the credential bundle opens and works', async () => {
    const subject = uniqueName('olivia');
    const user = await createEndUser({ oidcSub: subject });
    const target = generateP256KeyPair();
    const oidcToken = await oidc.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: sha256Hex(target.publicKeyUncompressed) });
    const res = await root.oauth({ organizationId: user.subOrganizationId, oidcToken, targetPublicKey: target.publicKeyUncompressed });
    expect(res.userId).toBe(user.userId);
    const privateKey = decryptCredentialBundle(res.credentialBundle, target.privateKey);
    const key = { privateKey, publicKey: compressedOf(privateKey) };
    expect((await httpClientFor(key).getWhoami({ organizationId: user.subOrganizationId })).userId).toBe(user.userId);
    const { apiKeys } = await root.getApiKeys({ organizationId: user.subOrganizationId, userId: user.userId });
    expect(apiKeys.find((k) => k.apiKeyId === res.apiKeyId)?.credential.type).toBe('CREDENTIAL_TYPE_OAUTH_KEY_P256');
  });
});

// ---------------------------------------------------------------------------------------------
// Sub-organizations: V7 and sign-up
// ---------------------------------------------------------------------------------------------

describe('create_sub_organization', () => {
  it('accepts ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7 and answers under createSubOrganizationResultV7', async () => {
    const device = generateP256KeyPair();
    const name = uniqueName('v7');
    const res = await httpClientFor(rootKey).createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7',
      timestampMs: String(Date.now()),
      organizationId: parentOrgId,
      parameters: {
        subOrganizationName: name,
        rootQuorumThreshold: 1,
        rootUsers: [{ userName: 'V7 User', apiKeys: [{ apiKeyName: 'device', publicKey: device.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] }],
        wallet: { walletName: 'Default', accounts: [accountParams(0)] },
      },
    } as unknown as Parameters<TurnkeyClient['createSubOrganization']>[0]);
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(res.activity.type).toBe('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7');
    const result = (res.activity.result as Record<string, { subOrganizationId: string; rootUserIds: string[]; wallet?: { addresses: string[] } }>)['createSubOrganizationResultV7']!;
    expect(result.wallet?.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await httpClientFor(device).getWhoami({ organizationId: result.subOrganizationId })).toMatchObject({ organizationId: result.subOrganizationId, userId: result.rootUserIds[0] });
    expect((await root.getSubOrgIds({ filterType: 'NAME', filterValue: name })).organizationIds).toEqual([result.subOrganizationId]);
  });

  it('signs up with a verificationToken and the signupV2 clientSignature; a wrong signature, a reused token or a request the signature does not describe is a 400 that creates nothing', async () => {
    const email = uniqueEmail('signup');
    const tokenKey = generateP256KeyPair();
    const device = generateP256KeyPair();
    const apiKeys = [{ apiKeyName: 'device', publicKey: device.publicKey, curveType: 'API_KEY_CURVE_P256' as const }];
    const signup = (verificationToken: string, sig: TurnkeyApiTypes['v1ClientSignature'], keys = apiKeys) =>
      submitRaw('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', {
        subOrganizationName: uniqueName('signup'),
        rootQuorumThreshold: 1,
        rootUsers: [{ userName: 'New User', userEmail: email, apiKeys: keys, authenticators: [], oauthProviders: [] }],
        verificationToken,
        clientSignature: sig,
      });
    const message = (tokenId: string, keys: object[] = apiKeys) => JSON.stringify({ signupV2: { apiKeys: keys, authenticators: [], oauthProviders: [], email }, tokenId, type: 'USAGE_TYPE_SIGNUP' });

    // A signature by another key than the token's.
    const first = await verifiedEmail(email, tokenKey);
    const forged = await expectRefusedWithoutWrites(() => signup(first.verificationToken, { ...clientSignature(generateP256KeyPair(), message(first.tokenId)), publicKey: tokenKey.publicKey }), 400, 3, 'REQUEST_INVALID');
    expect(forged.message).toContain('clientSignature');
    // A signature over other credentials than the request's: someone swapped in their own key.
    const intruder = generateP256KeyPair();
    const swapped = await expectRefusedWithoutWrites(
      () => signup(first.verificationToken, clientSignature(tokenKey, message(first.tokenId)), [{ apiKeyName: 'device', publicKey: intruder.publicKey, curveType: 'API_KEY_CURVE_P256' }]),
      400,
      3,
      'REQUEST_INVALID',
    );
    expect(swapped.message).toContain('does not match the request: apiKeys');
    // A signed e-mail address that is not the request's.
    const otherEmail = await expectRefusedWithoutWrites(
      () => signup(first.verificationToken, clientSignature(tokenKey, JSON.stringify({ signupV2: { apiKeys, authenticators: [], oauthProviders: [], email: 'someone@else.test' }, tokenId: first.tokenId, type: 'USAGE_TYPE_SIGNUP' }))),
      400,
      3,
      'REQUEST_INVALID',
    );
    expect(otherEmail.message).toContain('email');

    // The refusals left the token usable: the genuine sign-up goes through, once.
    const ok = await signup(first.verificationToken, clientSignature(tokenKey, message(first.tokenId)));
    expect(ok.status, ok.text).toBe(200);
    const subId = (ok.json as { activity: TurnkeyApiTypes['v1Activity'] }).activity.result.createSubOrganizationResultV8!.subOrganizationId;
    expect((await root.getSubOrgIds({ filterType: 'EMAIL', filterValue: email })).organizationIds).toEqual([subId]);
    expect((await httpClientFor(device).getWhoami({ organizationId: subId })).organizationId).toBe(subId);
    const reused = await expectRefusedWithoutWrites(() => signup(first.verificationToken, clientSignature(tokenKey, message(first.tokenId))), 400, 3, 'REQUEST_INVALID');
    expect(reused.message).toContain('already used');
    expect((await root.getSubOrgIds({ filterType: 'EMAIL', filterValue: email })).organizationIds).toEqual([subId]);
  });
});

// ---------------------------------------------------------------------------------------------
// Login flags against X-Stamp-Attested
// ---------------------------------------------------------------------------------------------

describe('login flags', () => {
  it('X-Stamp-Attested with a verification token is refused (403, nothing written) for a sub-organization created with disableOtpEmailAuth, and the token is not burned', async () => {
    // The code is verified while the address is nobody's (a sign-up), then the sub-organization appears.
    const email = uniqueEmail('flagged');
    const key = generateP256KeyPair();
    const { verificationToken } = await verifiedEmail(email, key);
    const created = await root.createSubOrganization({
      subOrganizationName: uniqueName('no-otp'),
      rootQuorumThreshold: 1,
      disableOtpEmailAuth: true,
      rootUsers: [{ userName: 'x', userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [] }],
    });
    const attestedLogin = async (organizationId: string) => {
      const body = JSON.stringify({ type: 'ACTIVITY_TYPE_STAMP_LOGIN', timestampMs: String(Date.now()), organizationId, parameters: { publicKey: key.publicKey } });
      const { stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(body);
      const { signature } = JSON.parse(Buffer.from(stampHeaderValue, 'base64url').toString('utf8')) as { signature: string };
      const attested = { publicKeyAttestation: verificationToken, scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', publicKey: key.publicKey, signature };
      return rawRequest(`${latchkey.baseUrl}/public/v1/submit/stamp_login`, { body, headers: { 'content-type': 'application/json', 'X-Stamp-Attested': Buffer.from(JSON.stringify(attested)).toString('base64url') } });
    };
    for (const target of [parentOrgId, created.subOrganizationId]) {
      const err = await expectRefusedWithoutWrites(() => attestedLogin(target), 403, 7, 'REQUEST_NOT_AUTHORIZED');
      expect(err.message).toContain('FEATURE_NAME_OTP_EMAIL_AUTH is disabled');
    }
    // init_otp aimed at the parent now refuses the address too, and mails nothing.
    const mailed = smtp.messages.length;
    const init = await expectRefusedWithoutWrites(() => submitRaw('init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', { otpType: 'OTP_TYPE_EMAIL', contact: email, appName: 'E2E' }), 403, 7, 'REQUEST_NOT_AUTHORIZED');
    expect(init.message).toContain('FEATURE_NAME_OTP_EMAIL_AUTH is disabled');
    expect(smtp.messages.length).toBe(mailed);
  });
});

describe('OAuth identities by bare claims', () => {
  it("an end user cannot claim someone else's (iss, sub, aud) with oidcClaims (403, nothing written), so that person's login through the parent still works", async () => {
    const victimSubject = uniqueName('victim');
    const victim = await createEndUser({ oidcSub: victimSubject });
    const device = generateP256KeyPair();
    const mallory = await createEndUser({ apiKey: device });
    const claim = (oauthProviders: object[]) =>
      submitRaw('create_oauth_providers', 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2', { userId: mallory.userId, oauthProviders }, { key: device, organizationId: mallory.subOrganizationId });
    const err = await expectRefusedWithoutWrites(() => claim([{ providerName: 'test-idp', oidcClaims: { iss: oidc.issuer, sub: victimSubject, aud: APP_CLIENT_ID } }]), 403, 7, 'REQUEST_NOT_AUTHORIZED');
    expect(err.message).toContain('oidcClaims are accepted only alongside an oidcToken');

    const session = generateP256KeyPair();
    const login = await root.oauthLogin({ oidcToken: await oidc.obtainIdToken({ sub: victimSubject, clientId: APP_CLIENT_ID, nonce: sha256Hex(session.publicKey) }), publicKey: session.publicKey });
    expect(decodeJwtPayload(login.session)).toMatchObject({ organization_id: victim.subOrganizationId, user_id: victim.userId });

    // One's own identity, proven by a token in the same request, may be added for another client ID by claims.
    const mine = uniqueName('mallory');
    const token = await oidc.obtainIdToken({ sub: mine, clientId: APP_CLIENT_ID, nonce: 'registration' });
    const ok = await claim([
      { providerName: 'test-idp', oidcToken: token },
      { providerName: 'test-idp', oidcClaims: { iss: oidc.issuer, sub: mine, aud: OTHER_CLIENT_ID } },
    ]);
    expect(ok.status, ok.text).toBe(200);
    const { oauthProviders } = await sdkFor(device, mallory.subOrganizationId).getOauthProviders({ userId: mallory.userId });
    expect(oauthProviders.map((p) => p.audience).sort()).toEqual([APP_CLIENT_ID, OTHER_CLIENT_ID].sort());
  });
});

// ---------------------------------------------------------------------------------------------
// Sessions through the unmodified sdk-server
// ---------------------------------------------------------------------------------------------

describe('@turnkey/sdk-server sessions', () => {
  it('stampLogin, then a request stamped with the session key through a new Turnkey client; an expired API key is refused', async () => {
    const device = generateP256KeyPair();
    const user = await createEndUser({ apiKey: device });
    const own = sdkFor(device, user.subOrganizationId);
    const session = generateP256KeyPair();
    const { session: jwt } = await own.stampLogin({ publicKey: session.publicKey, expirationSeconds: '600' });
    expect(await verifySessionJwtSignature(jwt, latchkey.bootstrap.notarizerPublicKey)).toBe(true);
    expect(decodeJwtPayload(jwt)).toMatchObject({ public_key: session.publicKey, organization_id: user.subOrganizationId, user_id: user.userId });

    const sessionClient = sdkFor(session, String(decodeJwtPayload(jwt)['organization_id']));
    expect(await sessionClient.getWhoami({})).toMatchObject({ organizationId: user.subOrganizationId, userId: user.userId });
    const wallet = await sessionClient.createWallet({ walletName: uniqueName('session-wallet'), accounts: [accountParams(0)] });
    expect(wallet.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const brief = generateP256KeyPair();
    await own.createApiKeys({ userId: user.userId, apiKeys: [{ apiKeyName: 'brief', publicKey: brief.publicKey, curveType: 'API_KEY_CURVE_P256', expirationSeconds: '1' }] });
    await new Promise((r) => setTimeout(r, 1500));
    let refused: { name?: string; details?: unknown[] | null; message: string } | undefined;
    try {
      await sdkFor(brief, user.subOrganizationId).getWhoami({});
    } catch (e) {
      refused = e as typeof refused;
    }
    expect(refused?.name).toBe('TurnkeyRequestError');
    expect(turnkeyErrorCodes(refused?.details ?? null)).toContain('API_KEY_EXPIRED');
  });
});

// ---------------------------------------------------------------------------------------------
// OTP defaults
// ---------------------------------------------------------------------------------------------

describe('OTP defaults', () => {
  it('init_otp with no options sends a 9-character Crockford base32 code that expires after 300 s; expirationSeconds 601 is a 400', async () => {
    const email = uniqueEmail('defaults');
    const mail = nextMailTo(email);
    const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: email, appName: 'E2E' });
    expect(codeFromMail(await mail)).toMatch(/^[0-9A-HJKMNP-TV-Z]{9}$/);
    const { rows } = await db.query<{ seconds: string }>('SELECT extract(epoch FROM expires_at - created_at) AS seconds FROM otp_records WHERE id = $1', [init.otpId]);
    expect(Math.round(Number(rows[0]!.seconds))).toBe(300);

    const tooLong = await expectRefusedWithoutWrites(() => submitRaw('init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', { otpType: 'OTP_TYPE_EMAIL', contact: uniqueEmail('long'), appName: 'E2E', expirationSeconds: '601' }), 400, 3, 'REQUEST_INVALID');
    expect(tooLong.message).toContain('expirationSeconds');
  });

  it('otp_auth names its key "OTP Auth - …" with a 15-minute expiry, and invalidateExisting removes the earlier one', async () => {
    const user = await createEndUser();
    const otpAuth = async (invalidateExisting?: boolean) => {
      const mail = nextMailTo(user.email);
      const init = await root.initOtpAuth({ organizationId: user.subOrganizationId, otpType: 'OTP_TYPE_EMAIL', contact: user.email, appName: 'E2E' });
      const target = generateP256KeyPair();
      return root.otpAuth({ organizationId: user.subOrganizationId, otpId: init.otpId, otpCode: codeFromMail(await mail), targetPublicKey: target.publicKeyUncompressed, ...(invalidateExisting ? { invalidateExisting } : {}) });
    };
    const first = await otpAuth();
    const keysOf = async () => (await root.getApiKeys({ organizationId: user.subOrganizationId, userId: user.userId })).apiKeys.filter((k) => k.credential.type === 'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256');
    const [key] = await keysOf();
    expect(key).toMatchObject({ apiKeyId: first.apiKeyId, expirationSeconds: '900' });
    expect(key!.apiKeyName).toMatch(/^OTP Auth - [0-9]+$/);
    const second = await otpAuth(true);
    expect((await keysOf()).map((k) => k.apiKeyId)).toEqual([second.apiKeyId]);
  });

  it('verify_otp V1 (the plain code and a public key) returns a verification token bound to that key', async () => {
    const email = uniqueEmail('v1');
    const mail = nextMailTo(email);
    const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: email, appName: 'E2E' });
    const key = generateP256KeyPair();
    const res = await httpClientFor(rootKey).verifyOtp({
      type: 'ACTIVITY_TYPE_VERIFY_OTP',
      timestampMs: String(Date.now()),
      organizationId: parentOrgId,
      parameters: { otpId: init.otpId, otpCode: codeFromMail(await mail), publicKey: key.publicKey },
    } as unknown as Parameters<TurnkeyClient['verifyOtp']>[0]);
    const token = await verifyOtpVerificationToken(res.activity.result.verifyOtpResult!.verificationToken, latchkey.bootstrap.otpVerifierPublicKey);
    expect(token).toMatchObject({ contact: email, verification_type: 'OTP_TYPE_EMAIL', public_key: key.publicKey, organization_id: parentOrgId });
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input: a 4xx and nothing written
// ---------------------------------------------------------------------------------------------

describe('bad input is a 4xx that writes nothing', () => {
  it('a wrong code, a reused code and an expired code (verify_otp)', async () => {
    const email = uniqueEmail('bad');
    const client = generateP256KeyPair();
    const send = async (expirationSeconds?: string) => {
      const mail = nextMailTo(email);
      const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: email, appName: 'E2E', ...(expirationSeconds ? { expirationSeconds } : {}) });
      return { init, code: codeFromMail(await mail) };
    };
    const verify = async (s: Awaited<ReturnType<typeof send>>, code: string) =>
      submitRaw('verify_otp', 'ACTIVITY_TYPE_VERIFY_OTP_V2', {
        otpId: s.init.otpId,
        encryptedOtpBundle: await encryptOtpCodeToBundle(code, s.init.otpEncryptionTargetBundle, client.publicKey, latchkey.bootstrap.otpVerifierPublicKey),
      });
    const first = await send();
    const wrong = await expectRefusedWithoutWrites(() => verify(first, first.code === '000000000' ? '111111111' : '000000000'), 400, 3, 'REQUEST_INVALID');
    expect(wrong.message).toContain('Invalid OTP code');
    expect((await verify(first, first.code)).status).toBe(200);
    const reused = await expectRefusedWithoutWrites(() => verify(first, first.code), 400, 3, 'REQUEST_INVALID');
    expect(reused.message).toContain('already used');
    const short = await send('1');
    await new Promise((r) => setTimeout(r, 1500));
    const expired = await expectRefusedWithoutWrites(() => verify(short, short.code), 400, 3, 'REQUEST_INVALID');
    expect(expired.message).toContain('expired');
  });

  it('a wrong nonce and a token for another audience (oauth_login); the audience is named', async () => {
    const subject = uniqueName('nora');
    await createEndUser({ oidcSub: subject });
    const session = generateP256KeyPair();
    const wrongNonce = await oidc.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: sha256Hex('another key') });
    const e1 = await expectRefusedWithoutWrites(() => submitRaw('oauth_login', 'ACTIVITY_TYPE_OAUTH_LOGIN', { oidcToken: wrongNonce, publicKey: session.publicKey }), 400, 3, 'REQUEST_INVALID');
    expect(e1.message).toMatch(/nonce/i);
    const otherAudience = await oidc.obtainIdToken({ sub: subject, clientId: OTHER_CLIENT_ID, nonce: sha256Hex(session.publicKey) });
    const e2 = await expectRefusedWithoutWrites(() => submitRaw('oauth_login', 'ACTIVITY_TYPE_OAUTH_LOGIN', { oidcToken: otherAudience, publicKey: session.publicKey }), 404, 5, 'NOT_FOUND');
    expect(e2.message).toContain(`audience ${OTHER_CLIENT_ID} matches no OAuth provider`);
  });
});

describe('plain-http OIDC issuers', () => {
  it('refuses a token from an http issuer the server does not list (LATCHKEY_OIDC_HTTP_ISSUERS), before fetching anything, and writes nothing', async () => {
    const unlisted = await startOidcProvider({ clients: [{ clientId: APP_CLIENT_ID, redirectUris: [REDIRECT_URI] }] });
    try {
      const subject = uniqueName('uma');
      await createEndUser({ oidcSub: subject });
      const session = generateP256KeyPair();
      const oidcToken = await unlisted.obtainIdToken({ sub: subject, clientId: APP_CLIENT_ID, nonce: sha256Hex(session.publicKey) });
      const err = await expectRefusedWithoutWrites(() => submitRaw('oauth_login', 'ACTIVITY_TYPE_OAUTH_LOGIN', { oidcToken, publicKey: session.publicKey }), 400, 3, 'REQUEST_INVALID');
      expect(err.message).toContain(`issuer "${unlisted.issuer}" must use https`);
      expect(err.message).toContain('LATCHKEY_OIDC_HTTP_ISSUERS');
    } finally {
      await unlisted.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// CREDENTIAL_CONFLICT, list_suborgs, get_authenticator
// ---------------------------------------------------------------------------------------------

describe('credentials in several sub-organizations, finding sub-organizations, reading a passkey', () => {
  it('a passkey registered in two sub-organizations cannot log in through the parent (CREDENTIAL_CONFLICT, 401)', async () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    await createEndUser({ authenticator });
    await createEndUser({ authenticator });
    const body = JSON.stringify({ type: 'ACTIVITY_TYPE_STAMP_LOGIN', timestampMs: String(Date.now()), organizationId: parentOrgId, parameters: { publicKey: generateP256KeyPair().publicKey } });
    const res = () => rawRequest(`${latchkey.baseUrl}/public/v1/submit/stamp_login`, { body, headers: { 'content-type': 'application/json', 'X-Stamp-Webauthn': authenticator.stamp(body) } });
    const err = await expectRefusedWithoutWrites(res, 401, 16, 'CREDENTIAL_CONFLICT');
    expect(err.message).toContain('more than one suborg');
  });

  it('an e-mail address held in two sub-organizations cannot log in through the parent (email_auth and otp_login: CREDENTIAL_CONFLICT)', async () => {
    const email = uniqueEmail('twice');
    await createEndUser({ email });
    await createEndUser({ email });
    const target = generateP256KeyPair();
    const e1 = await expectRefusedWithoutWrites(() => submitRaw('email_auth', 'ACTIVITY_TYPE_EMAIL_AUTH_V3', { email, targetPublicKey: target.publicKeyUncompressed }), 401, 16, 'CREDENTIAL_CONFLICT');
    expect(e1.message).toContain('more than one suborg');

    const client = generateP256KeyPair();
    const { verificationToken, tokenId } = await verifiedEmail(email, client);
    const session = generateP256KeyPair();
    const message = JSON.stringify({ login: { publicKey: session.publicKey }, tokenId, type: 'USAGE_TYPE_LOGIN' });
    const e2 = await expectRefusedWithoutWrites(
      () => submitRaw('otp_login', 'ACTIVITY_TYPE_OTP_LOGIN_V2', { verificationToken, publicKey: session.publicKey, clientSignature: clientSignature(client, message) }),
      401,
      16,
      'CREDENTIAL_CONFLICT',
    );
    expect(e2.message).toContain('more than one suborg');
  });

  it('list_suborgs finds a sub-organization by PHONE_NUMBER and by NAME', async () => {
    const phone = `+1415558${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const name = uniqueName('findable');
    const user = await createEndUser({ phone, name });
    expect((await root.getSubOrgIds({ filterType: 'PHONE_NUMBER', filterValue: phone })).organizationIds).toEqual([user.subOrganizationId]);
    expect((await root.getSubOrgIds({ filterType: 'NAME', filterValue: name })).organizationIds).toEqual([user.subOrganizationId]);
    expect((await root.getSubOrgIds({ filterType: 'PHONE_NUMBER', filterValue: '+14155550000' })).organizationIds).toEqual([]);
  });

  it('get_authenticator answers with the aaguid and the transports of the registration', async () => {
    const aaguidHex = 'adce000235bcc60a648b0b25f1f05503';
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN, aaguidHex });
    const user = await createEndUser({ authenticator });
    const { authenticators } = await root.getAuthenticators({ organizationId: user.subOrganizationId, userId: user.userId });
    const { authenticator: one } = await root.getAuthenticator({ organizationId: user.subOrganizationId, authenticatorId: authenticators[0]!.authenticatorId });
    const uuid = `${aaguidHex.slice(0, 8)}-${aaguidHex.slice(8, 12)}-${aaguidHex.slice(12, 16)}-${aaguidHex.slice(16, 20)}-${aaguidHex.slice(20)}`;
    expect(one).toMatchObject({ credentialId: authenticator.credentialId, aaguid: uuid, transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'], attestationType: 'packed' });
  });
});
