/**
 * OAuth 2.0 credentials and oauth2_authenticate against a real database, the real client crypto
 * (`@turnkey/crypto` encryptOauth2ClientSecret, hpkeDecrypt) and a provider on 127.0.0.1 that
 * behaves like X's and Discord's token and user endpoints: PKCE S256, HTTP Basic client auth,
 * single-use codes, RFC 6749 error bodies. The same server publishes Latchkey's discovery
 * document and JWKS for the issuer URL the engine is configured with, so the tokens oauth2_authenticate
 * issues are then checked by the engine's own OIDC verifier in oauth_login.
 * (The public-API e2e spec runs the same flow against the certified `oidc-provider`.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeSessionJwt, generateP256KeyPair } from '@latchkey/crypto';
import { AppError, type TActivity } from '@latchkey/domain';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { encryptOauth2ClientSecret, hpkeDecrypt } from '@turnkey/crypto';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, loadServerPublicKeys, oauth2ClientSecretAad as clientSecretAad, unconfiguredServices, type TEngine, type TEngineServices, type TServerPublicKeys } from '@latchkey/activity-engine';
import { createFixture, type TFixture, type TKeyPair } from '@latchkey/activity-engine/testing';
import { createOauth2Providers, createOidcVerifier, DEFAULT_OAUTH2_ENDPOINTS, oidcDiscoveryDocument, oidcIssuerJwks, oidcNonceForPublicKey, readOauth2Config, type TOauth2Config } from '@latchkey/identity-providers';

const X_CLIENT = { clientId: 'x-app-client', clientSecret: 'x-secret-Q29uZmlkZW50aWFs' };
const DISCORD_CLIENT = { clientId: '112233445566778899', clientSecret: 'discord-secret-value-0123456789' };
const REDIRECT_URI = 'https://app.example.com/oauth/callback';

interface TPendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  userId: string;
}

/** A provider like X / Discord (token + user endpoints) that also serves Latchkey's issuer documents. */
interface TProviderStandIn {
  url: string;
  issueCode(c: TPendingCode): string;
  /** Access tokens handed out, newest last. */
  accessTokens: string[];
  /** What the token endpoint received, for assertions. */
  tokenRequests: { authorization: string; body: URLSearchParams }[];
  failNext: number | undefined;
  stop(): Promise<void>;
}

async function startProvider(issuerKeys: () => TServerPublicKeys): Promise<TProviderStandIn> {
  const codes = new Map<string, TPendingCode>();
  const tokens = new Map<string, string>();
  const clients = new Map([X_CLIENT, DISCORD_CLIENT].map((c) => [c.clientId, c.clientSecret]));
  const state: TProviderStandIn = {
    url: '',
    accessTokens: [],
    tokenRequests: [],
    failNext: undefined,
    issueCode(c) {
      const code = randomBytes(16).toString('base64url');
      codes.set(code, c);
      return code;
    },
    stop: async () => {
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  async function token(req: IncomingMessage, res: ServerResponse, body: URLSearchParams): Promise<void> {
    state.tokenRequests.push({ authorization: req.headers.authorization ?? '', body });
    if (state.failNext !== undefined) {
      const status = state.failNext;
      state.failNext = undefined;
      return json(res, status, { error: 'temporarily_unavailable' });
    }
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map((s) => decodeURIComponent(s.replace(/\+/g, ' '))) : [];
    if (!id || clients.get(id) !== secret) return json(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
    if (body.get('grant_type') !== 'authorization_code') return json(res, 400, { error: 'unsupported_grant_type' });
    const code = codes.get(body.get('code') ?? '');
    codes.delete(body.get('code') ?? '');
    if (!code || code.clientId !== id) return json(res, 400, { error: 'invalid_grant', error_description: 'grant request is invalid' });
    if (code.redirectUri !== body.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
    const challenge = createHash('sha256').update(body.get('code_verifier') ?? '').digest('base64url');
    if (challenge !== code.codeChallenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, code.userId);
    state.accessTokens.push(accessToken);
    return json(res, 200, { token_type: 'bearer', expires_in: 7200, access_token: accessToken, scope: 'users.read' });
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const who = bearer ? tokens.get(bearer) : undefined;
      if (req.method === 'POST' && (path === '/x/token' || path === '/discord/token')) return void token(req, res, new URLSearchParams(raw));
      if (req.method === 'GET' && path === '/x/users/me') return who ? json(res, 200, { data: { id: who, name: 'X user', username: 'xuser' } }) : json(res, 401, { title: 'Unauthorized' });
      if (req.method === 'GET' && path === '/discord/users/@me') return who ? json(res, 200, { id: who, username: 'discorduser' }) : json(res, 401, { message: '401: Unauthorized' });
      if (req.method === 'GET' && path === '/.well-known/openid-configuration') return json(res, 200, oidcDiscoveryDocument(state.url));
      if (req.method === 'GET' && path === '/oauth2/jwks') return void oidcIssuerJwks(issuerKeys().oidcIssuerPublicKey).then((k) => json(res, 200, k));
      json(res, 404, { error: 'not_found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

let f: TFixture;
let provider: TProviderStandIn;
let serverKeys: TServerPublicKeys;
let engine: TEngine;
let oauth2: TOauth2Config;

beforeAll(async () => {
  f = await createFixture();
  serverKeys = await loadServerPublicKeys(f.store);
  provider = await startProvider(() => serverKeys);
  oauth2 = readOauth2Config(
    {
      LATCHKEY_OAUTH2_X_TOKEN_URL: `${provider.url}/x/token`,
      LATCHKEY_OAUTH2_X_USERINFO_URL: `${provider.url}/x/users/me`,
      LATCHKEY_OAUTH2_DISCORD_TOKEN_URL: `${provider.url}/discord/token`,
      LATCHKEY_OAUTH2_DISCORD_USERINFO_URL: `${provider.url}/discord/users/@me`,
    },
    provider.url,
  );
  const services: TEngineServices = { ...unconfiguredServices(), oidc: createOidcVerifier(), oauth2: createOauth2Providers(oauth2) };
  engine = createEngine({ store: f.store, vault: f.vault, timestampWindowMs: 300_000, services });
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  await f?.close();
  await stopTestPostgres();
});

async function submit(path: string, type: string, parameters: object, key: TKeyPair = f.root, e: TEngine = engine): Promise<TActivity> {
  const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: f.root.organizationId, parameters });
  return (await e.submit(path, f.stamp(body, key), Buffer.from(body))).activity;
}

async function query<T>(path: string, body: object): Promise<T> {
  const text = JSON.stringify({ organizationId: f.root.organizationId, ...body });
  return (await engine.query(path, f.stamp(text), Buffer.from(text))) as T;
}

function resultOf<T>(a: TActivity, key: string): T {
  expect(a.status, JSON.stringify(a.failure)).toBe('ACTIVITY_STATUS_COMPLETED');
  return a.result[key] as T;
}

/** The AppError a rejected submission throws. */
async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

async function createCredential(provider: 'OAUTH2_PROVIDER_X' | 'OAUTH2_PROVIDER_DISCORD', client: { clientId: string; clientSecret: string }): Promise<string> {
  const encryptedClientSecret = await encryptOauth2ClientSecret(client.clientSecret, serverKeys.tlsFetcherPublicKey);
  const a = await submit('create_oauth2_credential', 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL', { provider, clientId: client.clientId, encryptedClientSecret });
  return resultOf<{ oauth2CredentialId: string }>(a, 'createOauth2CredentialResult').oauth2CredentialId;
}

function pkce(): { codeVerifier: string; codeChallenge: string } {
  const codeVerifier = randomBytes(32).toString('base64url');
  return { codeVerifier, codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url') };
}

/** What the browser leg of the flow yields: a code for `userId`, and the verifier that goes with it. */
function authorize(clientId: string, userId: string): { authCode: string; codeVerifier: string } {
  const { codeVerifier, codeChallenge } = pkce();
  return { authCode: provider.issueCode({ clientId, redirectUri: REDIRECT_URI, codeChallenge, userId }), codeVerifier };
}

async function authenticate(oauth2CredentialId: string, params: { authCode: string; codeVerifier: string; nonce: string; bearerTokenTargetPublicKey?: string }): Promise<string> {
  const a = await submit('oauth2_authenticate', 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE', { oauth2CredentialId, redirectUri: REDIRECT_URI, ...params });
  return resultOf<{ oidcToken: string }>(a, 'oauth2AuthenticateResult').oidcToken;
}

describe('oauth2 configuration', () => {
  it('defaults to the X and Discord endpoints and refuses a malformed override by name', () => {
    expect(readOauth2Config({}, 'https://wallet.example.com')).toEqual({ issuer: 'https://wallet.example.com', providers: DEFAULT_OAUTH2_ENDPOINTS });
    expect(() => readOauth2Config({ LATCHKEY_OAUTH2_DISCORD_TOKEN_URL: 'ftp://x' }, 'https://i')).toThrow(/LATCHKEY_OAUTH2_DISCORD_TOKEN_URL/);
    expect(() => readOauth2Config({ LATCHKEY_OAUTH2_X_USERINFO_URL: 'not a url' }, 'https://i')).toThrow(/LATCHKEY_OAUTH2_X_USERINFO_URL/);
  });
});

describe('OAuth 2.0 credentials', () => {
  it('stores a credential with the secret re-sealed by the vault, never in the clear', async () => {
    const id = await createCredential('OAUTH2_PROVIDER_X', X_CLIENT);
    const row = await f.store.oauth2Credentials.findById(f.root.organizationId, id);
    expect(row).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(X_CLIENT.clientSecret);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(X_CLIENT.clientSecret).toString('hex'));
    expect(new TextDecoder().decode(f.vault.open(row!.sealedClientSecret, clientSecretAad(id)))).toBe(X_CLIENT.clientSecret);
    // Bound to its row: the sealed secret does not open as another credential's.
    expect(() => f.vault.open(row!.sealedClientSecret, clientSecretAad('another'))).toThrow();
    // The recorded activity holds the client's envelope only.
    const [recorded] = await f.store.activities.list({ organizationId: f.root.organizationId, types: ['ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL'], limit: 1 });
    expect(recorded?.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(JSON.stringify(recorded)).not.toContain(X_CLIENT.clientSecret);
  });

  it('reads credentials back through get_oauth2_credential and list_oauth2_credentials', async () => {
    const encryptedClientSecret = await encryptOauth2ClientSecret(DISCORD_CLIENT.clientSecret, serverKeys.tlsFetcherPublicKey);
    const a = await submit('create_oauth2_credential', 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL', { provider: 'OAUTH2_PROVIDER_DISCORD', clientId: DISCORD_CLIENT.clientId, encryptedClientSecret });
    const id = resultOf<{ oauth2CredentialId: string }>(a, 'createOauth2CredentialResult').oauth2CredentialId;
    const got = await query<{ oauth2Credential: Record<string, unknown> }>('get_oauth2_credential', { oauth2CredentialId: id });
    expect(got.oauth2Credential).toEqual(
      expect.objectContaining({ oauth2CredentialId: id, organizationId: f.root.organizationId, provider: 'OAUTH2_PROVIDER_DISCORD', clientId: DISCORD_CLIENT.clientId, encryptedClientSecret }),
    );
    expect(got.oauth2Credential['createdAt']).toEqual({ seconds: expect.stringMatching(/^\d+$/), nanos: expect.stringMatching(/^\d+$/) });
    const list = await query<{ oauth2Credentials: { oauth2CredentialId: string }[] }>('list_oauth2_credentials', {});
    expect(list.oauth2Credentials.map((c) => c.oauth2CredentialId)).toContain(id);
    await expect(query('get_oauth2_credential', { oauth2CredentialId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('fails a secret that is not encrypted to this server, naming the field and not the secret', async () => {
    const encryptedClientSecret = await encryptOauth2ClientSecret('a-secret-for-someone-else', generateP256KeyPair().publicKeyUncompressed);
    const a = await submit('create_oauth2_credential', 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL', { provider: 'OAUTH2_PROVIDER_X', clientId: 'c', encryptedClientSecret });
    expect(a.status).toBe('ACTIVITY_STATUS_FAILED');
    expect(JSON.stringify(a.failure)).toMatch(/encryptedClientSecret.*tlsFetcherPublicKey/);
    expect(JSON.stringify(a)).not.toContain('a-secret-for-someone-else');
  });

  it('updates and deletes a credential', async () => {
    const id = await createCredential('OAUTH2_PROVIDER_X', { clientId: 'old-client', clientSecret: 'old-secret' });
    const encryptedClientSecret = await encryptOauth2ClientSecret(X_CLIENT.clientSecret, serverKeys.tlsFetcherPublicKey);
    const u = await submit('update_oauth2_credential', 'ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL', { oauth2CredentialId: id, provider: 'OAUTH2_PROVIDER_X', clientId: X_CLIENT.clientId, encryptedClientSecret });
    expect(resultOf(u, 'updateOauth2CredentialResult')).toEqual({ oauth2CredentialId: id });
    const row = await f.store.oauth2Credentials.findById(f.root.organizationId, id);
    expect(row?.clientId).toBe(X_CLIENT.clientId);
    expect(new TextDecoder().decode(f.vault.open(row!.sealedClientSecret, clientSecretAad(id)))).toBe(X_CLIENT.clientSecret);
    // The updated credential works.
    const { authCode, codeVerifier } = authorize(X_CLIENT.clientId, 'u-updated');
    expect(await authenticate(id, { authCode, codeVerifier, nonce: 'n' })).toMatch(/^ey/);

    const d = await submit('delete_oauth2_credential', 'ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL', { oauth2CredentialId: id });
    expect(resultOf(d, 'deleteOauth2CredentialResult')).toEqual({ oauth2CredentialId: id });
    expect(await f.store.oauth2Credentials.findById(f.root.organizationId, id)).toBeNull();
    const again = await submit('delete_oauth2_credential', 'ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL', { oauth2CredentialId: id });
    expect(again.status).toBe('ACTIVITY_STATUS_FAILED');
    const e = await refusal(authenticate(id, { ...authorize(X_CLIENT.clientId, 'u'), nonce: 'n' }));
    expect(e.code).toBe('NOT_FOUND');
  });
});

describe('oauth2_authenticate', () => {
  let xCredential: string;
  let discordCredential: string;
  beforeAll(async () => {
    xCredential = await createCredential('OAUTH2_PROVIDER_X', X_CLIENT);
    discordCredential = await createCredential('OAUTH2_PROVIDER_DISCORD', DISCORD_CLIENT);
  });

  it('exchanges the code with PKCE and Basic auth and issues an ES256 token the issuer JWKS verifies', async () => {
    const session = generateP256KeyPair();
    const nonce = oidcNonceForPublicKey(session.publicKey);
    const { authCode, codeVerifier } = authorize(X_CLIENT.clientId, '1234567890');
    const before = Math.floor(Date.now() / 1000);
    const token = await authenticate(xCredential, { authCode, codeVerifier, nonce });

    const sent = provider.tokenRequests.at(-1)!;
    expect(sent.authorization).toBe(`Basic ${Buffer.from(`${X_CLIENT.clientId}:${X_CLIENT.clientSecret}`).toString('base64')}`);
    expect(Object.fromEntries(sent.body)).toEqual({ grant_type: 'authorization_code', code: authCode, redirect_uri: REDIRECT_URI, code_verifier: codeVerifier, client_id: X_CLIENT.clientId });

    const header = decodeProtectedHeader(token);
    expect(header).toEqual({ alg: 'ES256', typ: 'JWT', kid: expect.any(String) });
    const jwks = createRemoteJWKSet(new URL(`${provider.url}/oauth2/jwks`));
    const { payload } = await jwtVerify(token, jwks, { issuer: provider.url, audience: X_CLIENT.clientId, algorithms: ['ES256'] });
    expect(payload).toEqual(expect.objectContaining({ iss: provider.url, sub: 'x:1234567890', aud: X_CLIENT.clientId, nonce }));
    expect(payload.iat).toBeGreaterThanOrEqual(before - 1);
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload['encrypted_bearer_token']).toBeUndefined();
  });

  it('namespaces Discord users by provider (sub discord:<id>)', async () => {
    const { authCode, codeVerifier } = authorize(DISCORD_CLIENT.clientId, '80351110224678912');
    const token = await authenticate(discordCredential, { authCode, codeVerifier, nonce: 'n-discord' });
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims).toEqual(expect.objectContaining({ sub: 'discord:80351110224678912', aud: DISCORD_CLIENT.clientId, nonce: 'n-discord' }));
  });

  it('puts the access token, HPKE-encrypted to bearerTokenTargetPublicKey, in encrypted_bearer_token', async () => {
    const target = generateP256KeyPair();
    const { authCode, codeVerifier } = authorize(X_CLIENT.clientId, 'bearer-user');
    const token = await authenticate(xCredential, { authCode, codeVerifier, nonce: 'n', bearerTokenTargetPublicKey: target.publicKey });
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { encrypted_bearer_token: string };
    const sealed = JSON.parse(claims.encrypted_bearer_token) as { encappedPublic: string; ciphertext: string };
    const plain = hpkeDecrypt({ ciphertextBuf: Buffer.from(sealed.ciphertext, 'hex'), encappedKeyBuf: Buffer.from(sealed.encappedPublic, 'hex'), receiverPriv: target.privateKey });
    expect(new TextDecoder().decode(plain)).toBe(provider.accessTokens.at(-1));
    expect(token).not.toContain(provider.accessTokens.at(-1)!);
  });

  it('logs the user in through oauth_login with the token (iss = the issuer, sub, aud = client id)', async () => {
    const { authCode, codeVerifier } = authorize(X_CLIENT.clientId, 'login-user-42');
    const session = generateP256KeyPair();
    const token = await authenticate(xCredential, { authCode, codeVerifier, nonce: oidcNonceForPublicKey(session.publicKey) });
    const providers = await submit('create_oauth_providers', 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2', {
      userId: f.root.userId,
      oauthProviders: [{ providerName: 'X via Latchkey', oidcClaims: { iss: provider.url, sub: 'x:login-user-42', aud: X_CLIENT.clientId } }],
    });
    expect(providers.status, JSON.stringify(providers.failure)).toBe('ACTIVITY_STATUS_COMPLETED');
    const login = await submit('oauth_login', 'ACTIVITY_TYPE_OAUTH_LOGIN', { oidcToken: token, publicKey: session.publicKey });
    const { claims } = decodeSessionJwt(resultOf<{ session: string }>(login, 'oauthLoginResult').session);
    expect(claims).toEqual(expect.objectContaining({ user_id: f.root.userId, organization_id: f.root.organizationId, public_key: session.publicKey }));
  });

  it('rejects a wrong code verifier with a 400 naming the provider error, leaving no activity and no secret in the message', async () => {
    const { authCode } = authorize(X_CLIENT.clientId, 'u1');
    const recorded = async () => (await f.store.activities.list({ organizationId: f.root.organizationId, types: ['ACTIVITY_TYPE_OAUTH2_AUTHENTICATE'], limit: 100 })).length;
    const before = await recorded();
    const e = await refusal(authenticate(xCredential, { authCode, codeVerifier: pkce().codeVerifier, nonce: 'n' }));
    expect(e.code).toBe('BAD_REQUEST');
    expect(e.httpStatus).toBe(400);
    expect(e.message).toMatch(/OAUTH2_PROVIDER_X token endpoint refused: invalid_grant \(PKCE verification failed\)/);
    expect(e.message).not.toContain(X_CLIENT.clientSecret);
    expect(e.message).not.toContain(authCode);
    expect(await recorded()).toBe(before);
  });

  it('rejects a code used twice, and a code issued to another client', async () => {
    const first = authorize(X_CLIENT.clientId, 'u2');
    await authenticate(xCredential, { ...first, nonce: 'n' });
    expect((await refusal(authenticate(xCredential, { ...first, nonce: 'n' }))).message).toMatch(/invalid_grant/);
    const foreign = authorize(DISCORD_CLIENT.clientId, 'u3');
    expect((await refusal(authenticate(xCredential, { ...foreign, nonce: 'n' }))).code).toBe('BAD_REQUEST');
  });

  it('answers 503 when the provider fails, and 404 for an unknown credential', async () => {
    provider.failNext = 502;
    const e = await refusal(authenticate(xCredential, { ...authorize(X_CLIENT.clientId, 'u4'), nonce: 'n' }));
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toMatch(/OAUTH2_PROVIDER_X token endpoint refused: temporarily_unavailable/);
    expect((await refusal(authenticate('no-such-credential', { ...authorize(X_CLIENT.clientId, 'u5'), nonce: 'n' }))).code).toBe('NOT_FOUND');
  });

  it('refuses a bearer target that is not a P-256 point before the code is spent', async () => {
    const code = authorize(X_CLIENT.clientId, 'u6');
    const e = await refusal(authenticate(xCredential, { ...code, nonce: 'n', bearerTokenTargetPublicKey: `02${'ff'.repeat(32)}` }));
    expect(e.code).toBe('BAD_REQUEST');
    expect(await authenticate(xCredential, { ...code, nonce: 'n' })).toMatch(/^ey/);
  });

  it('is refused by an engine without OAuth 2.0 configuration', async () => {
    const bare = createEngine({ store: f.store, vault: f.vault, timestampWindowMs: 300_000, services: { ...unconfiguredServices() } });
    const e = await refusal(submit('oauth2_authenticate', 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE', { oauth2CredentialId: xCredential, redirectUri: REDIRECT_URI, nonce: 'n', ...authorize(X_CLIENT.clientId, 'u7') }, f.root, bare));
    expect(e.code).toBe('UNAVAILABLE');
  });
});
