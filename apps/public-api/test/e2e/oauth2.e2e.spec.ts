/**
 * OAuth 2.0 logins end to end (create_oauth2_credential → oauth2_authenticate → oauth_login)
 * against one real Latchkey whose "X" endpoints point at a real OpenID provider (`oidc-provider`,
 * a confidential client with PKCE): the client secret is encrypted with the unmodified
 * `@turnkey/crypto` `encryptOauth2ClientSecret` to the server's published TLS-fetcher key, the
 * activities are driven by the unmodified `@turnkey/sdk-server`, and the OIDC token Latchkey
 * issues is verified with `jose` from Latchkey's own discovery document before it logs a
 * sub-organization's user in.
 */
import { createHash } from 'node:crypto';
import { encryptOauth2ClientSecret, generateP256KeyPair, hpkeDecrypt } from '@turnkey/crypto';
import { Turnkey } from '@turnkey/sdk-server';
import { pkcePair, startLatchkey, startOidcProvider, type TLatchkey, type TOidcProvider } from '@latchkey/testkit';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpPublicSchema, turnkeyErrorCodes, uniqueName } from './e2e-helpers.js';

const CLIENT_ID = 'latchkey-x-app';
// Distinctive, so a leak anywhere (database, logs, errors) is unmistakable.
const CLIENT_SECRET = 'cs_9f3Kq7LmZ2pXvR8tWb4NcY6hJ1dS5gE0';
const REDIRECT_URI = 'http://127.0.0.1/oauth2/callback';

let latchkey: TLatchkey;
let oidc: TOidcProvider;
let root: ReturnType<Turnkey['apiClient']>;
let credentialId: string;

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

async function rejectionOf(promise: Promise<unknown>): Promise<{ message: string; code: number; codes: string[] }> {
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

/** The browser leg: the user signs in at the provider, which redirects back with a code. */
async function signInAtProvider(sub: string, nonce: string): Promise<{ authCode: string; codeVerifier: string }> {
  const { codeVerifier, codeChallenge } = pkcePair();
  const { code } = await oidc.authorize({ clientId: CLIENT_ID, redirectUri: REDIRECT_URI, sub, nonce, codeChallenge, scope: 'openid' });
  return { authCode: code, codeVerifier };
}

beforeAll(async () => {
  oidc = await startOidcProvider({ clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [REDIRECT_URI] }] });
  latchkey = await startLatchkey({ apps: ['public-api'],
    env: {
      LATCHKEY_OAUTH2_X_TOKEN_URL: oidc.tokenEndpoint,
      // oidc-provider's user-info endpoint: `{sub}` (X itself answers `{data: {id}}`).
      LATCHKEY_OAUTH2_X_USERINFO_URL: `${oidc.issuer}/me`,
    },
  });
  const b = latchkey.bootstrap;
  root = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: b.apiPublicKey, apiPrivateKey: b.apiPrivateKey!, defaultOrganizationId: b.organizationId }).apiClient();
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
  await oidc?.stop();
});

describe('Latchkey as an OpenID issuer', () => {
  it('publishes the TLS-fetcher and issuer keys, its discovery document and its JWKS', async () => {
    const wellKnown = (await (await fetch(`${latchkey.baseUrl}/.well-known/latchkey.json`)).json()) as Record<string, string>;
    expect(wellKnown['tlsFetcherPublicKey']).toBe(latchkey.bootstrap.tlsFetcherPublicKey);
    expect(wellKnown['oidcIssuerPublicKey']).toBe(latchkey.bootstrap.oidcIssuerPublicKey);
    expect(latchkey.bootstrap.tlsFetcherPublicKey).toMatch(/^04[0-9a-f]{128}$/);

    const res = await fetch(`${latchkey.baseUrl}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
    const discovery = (await res.json()) as Record<string, unknown>;
    expect(discovery).toEqual(
      expect.objectContaining({
        issuer: latchkey.baseUrl,
        jwks_uri: `${latchkey.baseUrl}/oauth2/jwks`,
        id_token_signing_alg_values_supported: ['ES256'],
        response_types_supported: expect.any(Array),
        subject_types_supported: ['public'],
      }),
    );
    const jwks = (await (await fetch(`${latchkey.baseUrl}/oauth2/jwks`)).json()) as { keys: Record<string, string>[] };
    expect(jwks.keys).toHaveLength(1);
    const [key] = jwks.keys;
    expect(key).toEqual(expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) }));
    const raw = Buffer.concat([Buffer.from([4]), Buffer.from(key!['x']!, 'base64url'), Buffer.from(key!['y']!, 'base64url')]).toString('hex');
    expect(raw).toBe(latchkey.bootstrap.oidcIssuerPublicKey);
  });
});

describe('OAuth 2.0 credentials', () => {
  it('creates a credential from a secret encrypted with the real encryptOauth2ClientSecret, and reads it back', async () => {
    const encryptedClientSecret = await encryptOauth2ClientSecret(CLIENT_SECRET, latchkey.bootstrap.tlsFetcherPublicKey);
    const created = await root.createOauth2Credential({ provider: 'OAUTH2_PROVIDER_X', clientId: CLIENT_ID, encryptedClientSecret });
    credentialId = created.oauth2CredentialId;
    expect(credentialId).toMatch(/^[0-9a-f-]{36}$/);

    const { oauth2Credential } = await root.getOauth2Credential({ oauth2CredentialId: credentialId });
    expect(oauth2Credential).toEqual(
      expect.objectContaining({ oauth2CredentialId: credentialId, organizationId: latchkey.bootstrap.organizationId, provider: 'OAUTH2_PROVIDER_X', clientId: CLIENT_ID, encryptedClientSecret }),
    );
    const { oauth2Credentials } = await root.listOauth2Credentials({});
    expect(oauth2Credentials.map((c) => c.oauth2CredentialId)).toContain(credentialId);
  });

  it('fails a secret encrypted to Turnkey production key (not this server), naming tlsFetcherPublicKey', async () => {
    const encryptedClientSecret = await encryptOauth2ClientSecret(CLIENT_SECRET);
    // A refused configuration activity is recorded as FAILED (HTTP 200), which sdk-server hands back as is.
    const answer = (await root.createOauth2Credential({ provider: 'OAUTH2_PROVIDER_X', clientId: CLIENT_ID, encryptedClientSecret })) as unknown as {
      activity?: { status: string; failure?: { message: string } };
    };
    expect(answer.activity?.status).toBe('ACTIVITY_STATUS_FAILED');
    expect(answer.activity?.failure?.message).toMatch(/encryptedClientSecret.*tlsFetcherPublicKey/);
    expect(JSON.stringify(answer)).not.toContain(CLIENT_SECRET);
  });

  it('updates and deletes a credential', async () => {
    const other = await root.createOauth2Credential({ provider: 'OAUTH2_PROVIDER_DISCORD', clientId: 'discord-app', encryptedClientSecret: await encryptOauth2ClientSecret('s1', latchkey.bootstrap.tlsFetcherPublicKey) });
    const updated = await root.updateOauth2Credential({
      oauth2CredentialId: other.oauth2CredentialId,
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: 'discord-app-2',
      encryptedClientSecret: await encryptOauth2ClientSecret('s2', latchkey.bootstrap.tlsFetcherPublicKey),
    });
    expect(updated.oauth2CredentialId).toBe(other.oauth2CredentialId);
    expect((await root.getOauth2Credential({ oauth2CredentialId: other.oauth2CredentialId })).oauth2Credential.clientId).toBe('discord-app-2');
    await root.deleteOauth2Credential({ oauth2CredentialId: other.oauth2CredentialId });
    const gone = await rejectionOf(root.getOauth2Credential({ oauth2CredentialId: other.oauth2CredentialId }));
    expect(gone.codes).toContain('NOT_FOUND');
  });
});

describe('oauth2_authenticate', () => {
  it('exchanges the code, issues a token jose verifies from the discovery document, and oauth_login logs the sub-organization user in', async () => {
    const subject = uniqueName('x-user');
    const session = generateP256KeyPair();
    const nonce = sha256Hex(session.publicKey);
    const { authCode, codeVerifier } = await signInAtProvider(subject, nonce);
    const { oidcToken } = await root.oauth2Authenticate({ oauth2CredentialId: credentialId, authCode, redirectUri: REDIRECT_URI, codeVerifier, nonce });

    const discovery = (await (await fetch(`${latchkey.baseUrl}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string };
    const { payload, protectedHeader } = await jwtVerify(oidcToken, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
      issuer: discovery.issuer,
      audience: CLIENT_ID,
      algorithms: ['ES256'],
    });
    expect(protectedHeader).toEqual(expect.objectContaining({ alg: 'ES256', typ: 'JWT' }));
    expect(payload).toEqual(expect.objectContaining({ iss: latchkey.baseUrl, sub: `x:${subject}`, aud: CLIENT_ID, nonce }));
    expect(payload.exp! - payload.iat!).toBe(3600);

    const sub = await root.createSubOrganization({
      subOrganizationName: uniqueName('x-end-user'),
      rootQuorumThreshold: 1,
      rootUsers: [
        {
          userName: 'X user',
          apiKeys: [],
          authenticators: [],
          oauthProviders: [{ providerName: 'X', oidcClaims: { iss: String(payload.iss), sub: String(payload.sub), aud: CLIENT_ID } }],
        },
      ],
    });
    // The app's backend (the parent) logs its end user in: the identity is found in the sub-organization.
    const { session: jwt } = await root.oauthLogin({ oidcToken, publicKey: session.publicKey });
    expect(claimsOf(jwt)).toEqual(expect.objectContaining({ organization_id: sub.subOrganizationId, user_id: sub.rootUserIds?.[0], public_key: session.publicKey }));
  });

  it('returns the provider access token encrypted to bearerTokenTargetPublicKey, usable at the provider', async () => {
    const target = generateP256KeyPair();
    const { authCode, codeVerifier } = await signInAtProvider(uniqueName('bearer'), 'some-nonce');
    const { oidcToken } = await root.oauth2Authenticate({ oauth2CredentialId: credentialId, authCode, redirectUri: REDIRECT_URI, codeVerifier, nonce: 'some-nonce', bearerTokenTargetPublicKey: target.publicKey });
    const sealed = JSON.parse(String(claimsOf(oidcToken)['encrypted_bearer_token'])) as { encappedPublic: string; ciphertext: string };
    const accessToken = new TextDecoder().decode(
      hpkeDecrypt({ ciphertextBuf: Buffer.from(sealed.ciphertext, 'hex'), encappedKeyBuf: Buffer.from(sealed.encappedPublic, 'hex'), receiverPriv: target.privateKey }),
    );
    const me = await fetch(`${oidc.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(me.status).toBe(200);
    expect(decodeProtectedHeader(oidcToken).alg).toBe('ES256');
  });

  it('answers a wrong code verifier with a 4xx naming the provider error, and leaves nothing behind', async () => {
    const { authCode } = await signInAtProvider(uniqueName('wrong'), 'n');
    const e = await rejectionOf(root.oauth2Authenticate({ oauth2CredentialId: credentialId, authCode, redirectUri: REDIRECT_URI, codeVerifier: pkcePair().codeVerifier, nonce: 'n' }));
    expect(e.code).toBe(3);
    expect(e.message).toMatch(/OAUTH2_PROVIDER_X token endpoint refused: invalid_grant/);
    expect(e.message).not.toContain(CLIENT_SECRET);
    const { activities } = await root.getActivities({ filterByType: ['ACTIVITY_TYPE_OAUTH2_AUTHENTICATE'] });
    expect(activities.every((a) => a.status === 'ACTIVITY_STATUS_COMPLETED')).toBe(true);
  });

  it('answers an unknown credential with 404', async () => {
    const { authCode, codeVerifier } = await signInAtProvider(uniqueName('nobody'), 'n');
    const e = await rejectionOf(root.oauth2Authenticate({ oauth2CredentialId: 'no-such-credential', authCode, redirectUri: REDIRECT_URI, codeVerifier, nonce: 'n' }));
    expect(e.codes).toContain('NOT_FOUND');
  });

  it('keeps the client secret out of the database and the logs', async () => {
    const { dump } = await dumpPublicSchema(await latchkey.databaseUrl());
    expect(dump).toContain(credentialId);
    for (const form of [CLIENT_SECRET, Buffer.from(CLIENT_SECRET).toString('hex'), Buffer.from(CLIENT_SECRET).toString('base64')]) {
      expect(dump).not.toContain(form);
      expect(latchkey.output()).not.toContain(form);
    }
  });
});
