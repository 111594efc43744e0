import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcNonceForPublicKey } from '@latchkey/crypto';
import { OidcError, createOidcVerifier, type TOidcErrorReason } from './oidc-verifier.js';

const PUBLIC_KEY = '026ff03b949241ce1dadd43519e6960e0a85b41a69a05c328103aa2bce1594ca16';
const NONCE = '86123115bca97d5421ad9005261475b0409a4b9eededa6ef4c7f9ac7c4e11b67';

/**
 * A real OpenID issuer on loopback: discovery document and JWKS over HTTP, tokens signed with
 * jose. (The full oidc-provider double is @latchkey/testkit's startOidcProvider, which a library
 * may not import; this one lets each test shape the exact token it needs.)
 */
interface TIssuer {
  issuer: string;
  hits: { discovery: number; jwks: number };
  /** Overrides what discovery answers (status or document). */
  discovery: { status: number; doc?: Record<string, unknown> };
  sign(claims: JWTPayload, opts?: { key?: CryptoKey; kid?: string; alg?: string }): Promise<string>;
  server: Server;
}

async function startIssuer(): Promise<TIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const ec = await generateKeyPair('ES256');
  const keys = [
    { ...(await exportJWK(publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
  ];
  const hits = { discovery: 0, jwks: 0 };
  const discovery: TIssuer['discovery'] = { status: 200 };
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      hits.discovery++;
      res.writeHead(discovery.status).end(JSON.stringify(discovery.doc ?? { issuer, jwks_uri: `${issuer}/jwks`, id_token_signing_alg_values_supported: ['RS256', 'ES256'] }));
    } else if (req.url === '/jwks') {
      hits.jwks++;
      res.writeHead(200).end(JSON.stringify({ keys }));
    } else {
      res.writeHead(404).end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    hits,
    discovery,
    server,
    sign(claims, opts = {}) {
      const alg = opts.alg ?? 'RS256';
      const key = opts.key ?? (alg === 'ES256' ? ec.privateKey : privateKey);
      return new SignJWT(claims).setProtectedHeader({ alg, kid: opts.kid ?? (alg === 'ES256' ? 'ec-1' : 'rsa-1'), typ: 'JWT' }).sign(key);
    },
  };
}

let idp: TIssuer;
beforeAll(async () => {
  idp = await startIssuer();
});
afterAll(async () => {
  await new Promise<void>((resolve) => idp.server.close(() => resolve()));
});

function claims(over: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: idp.issuer, sub: 'user-1', aud: 'client-a', iat: now, exp: now + 600, nonce: NONCE, email: 'alice@example.com', email_verified: true, ...over };
}

async function reasonOf(p: Promise<unknown>, token?: string): Promise<TOidcErrorReason> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof OidcError)) throw new Error(`expected an OidcError, got ${String(e)}`);
  if (token) {
    // Messages may name claims, never carry the token or its signature.
    expect(e.message).not.toContain(token);
    expect(e.message).not.toContain(token.split('.')[2]!);
  }
  return e.reason;
}

describe('oidcNonceForPublicKey', () => {
  it('is lowercase hex sha256 of the public key hex string (notes §8 example)', () => {
    expect(oidcNonceForPublicKey(PUBLIC_KEY)).toBe(NONCE);
  });
});

describe('createOidcVerifier', () => {
  it('accepts a genuine token and returns its identity, nonce and e-mail', async () => {
    const v = createOidcVerifier();
    const token = await idp.sign(claims());
    const out = await v.verify(token, { expectedNonce: oidcNonceForPublicKey(PUBLIC_KEY), expectedAudiences: ['client-x', 'client-a'] });
    expect(out).toMatchObject({ iss: idp.issuer, sub: 'user-1', aud: 'client-a', audiences: ['client-a'], nonce: NONCE, email: 'alice@example.com', emailVerified: true });
    expect(out.claims['exp']).toBeTypeOf('number');
  });

  it('accepts the algorithms the issuer advertises (ES256 too) and reads email_verified given as a string', async () => {
    const out = await createOidcVerifier().verify(await idp.sign(claims({ email_verified: 'false' }), { alg: 'ES256' }));
    expect(out.emailVerified).toBe(false);
  });

  it('caches the discovery document and key set per issuer', async () => {
    const v = createOidcVerifier();
    const before = { ...idp.hits };
    await v.verify(await idp.sign(claims()));
    await v.verify(await idp.sign(claims({ sub: 'user-2' })));
    await Promise.all([v.verify(await idp.sign(claims())), v.verify(await idp.sign(claims()))]);
    expect(idp.hits.discovery - before.discovery).toBe(1);
    expect(idp.hits.jwks - before.jwks).toBe(1);
  });

  it('refetches discovery once the cache TTL has passed', async () => {
    const v = createOidcVerifier({ cacheTtlMs: 1 });
    const before = idp.hits.discovery;
    await v.verify(await idp.sign(claims()));
    await new Promise((r) => setTimeout(r, 5));
    await v.verify(await idp.sign(claims()));
    expect(idp.hits.discovery - before).toBe(2);
  });

  it('refuses a wrong or missing nonce', async () => {
    const v = createOidcVerifier();
    const wrong = await idp.sign(claims({ nonce: oidcNonceForPublicKey('03'.padEnd(66, 'a')) }));
    expect(await reasonOf(v.verify(wrong, { expectedNonce: NONCE }), wrong)).toBe('NONCE_MISMATCH');
    const none = await idp.sign(claims({ nonce: undefined }));
    expect(await reasonOf(v.verify(none, { expectedNonce: NONCE }), none)).toBe('NONCE_MISMATCH');
  });

  it('refuses a token for another audience and reports the matching one of several', async () => {
    const v = createOidcVerifier();
    const token = await idp.sign(claims({ aud: 'client-b' }));
    expect(await reasonOf(v.verify(token, { expectedAudiences: ['client-a'] }), token)).toBe('AUDIENCE_MISMATCH');
    const multi = await idp.sign(claims({ aud: ['client-b', 'client-a'], azp: 'client-b' }));
    expect((await v.verify(multi, { expectedAudiences: ['client-a'] })).aud).toBe('client-a');
    expect((await v.verify(multi)).aud).toBe('client-b');
  });

  it('refuses an expired token (with 60 s of tolerance) and one issued in the future', async () => {
    const v = createOidcVerifier();
    const token = await idp.sign(claims());
    expect(await reasonOf(v.verify(token, { now: new Date(Date.now() + 3_600_000) }), token)).toBe('EXPIRED');
    const now = Math.floor(Date.now() / 1000);
    await expect(v.verify(await idp.sign(claims({ exp: now - 30 })))).resolves.toMatchObject({ sub: 'user-1' });
    expect(await reasonOf(v.verify(await idp.sign(claims({ exp: now - 120 }))))).toBe('EXPIRED');
    expect(await reasonOf(v.verify(await idp.sign(claims({ iat: now + 600, exp: now + 1200 }))))).toBe('NOT_YET_VALID');
    expect(await reasonOf(v.verify(await idp.sign(claims({ nbf: now + 600 }))))).toBe('NOT_YET_VALID');
  });

  it('refuses a tampered payload, a foreign signature and an unknown key id', async () => {
    const v = createOidcVerifier();
    const token = await idp.sign(claims());
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url')}.${s}`;
    expect(await reasonOf(v.verify(forged), forged)).toBe('SIGNATURE_INVALID');

    const foreign = await generateKeyPair('RS256');
    const byStranger = await idp.sign(claims(), { key: foreign.privateKey, kid: 'rsa-1' });
    expect(await reasonOf(v.verify(byStranger), byStranger)).toBe('SIGNATURE_INVALID');
    const unknownKid = await idp.sign(claims(), { key: foreign.privateKey, kid: 'rsa-9' });
    expect(await reasonOf(v.verify(unknownKid), unknownKid)).toBe('SIGNATURE_INVALID');
  });

  it('refuses unsigned and HMAC tokens', async () => {
    const v = createOidcVerifier();
    const unsigned = new UnsecuredJWT(claims()).encode();
    expect(await reasonOf(v.verify(unsigned))).toBe('SIGNATURE_INVALID');
    const hmac = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' }).sign(new TextEncoder().encode('x'.repeat(32)));
    expect(await reasonOf(v.verify(hmac), hmac)).toBe('SIGNATURE_INVALID');
  });

  it('refuses plain-http issuers off loopback, and on loopback when not allowed, without fetching', async () => {
    let fetched = 0;
    const countingFetch: typeof fetch = (...args) => {
      fetched++;
      return fetch(...args);
    };
    const v = createOidcVerifier({ fetch: countingFetch });
    const remote = await idp.sign(claims({ iss: 'http://accounts.example.com' }));
    expect(await reasonOf(v.verify(remote), remote)).toBe('ISSUER_NOT_ALLOWED');
    const strict = createOidcVerifier({ httpIssuers: [], fetch: countingFetch });
    expect(await reasonOf(strict.verify(await idp.sign(claims())))).toBe('ISSUER_NOT_ALLOWED');
    // A list of http issuers is exact: another loopback issuer (a service on the server's own
    // loopback, say) is not fetched.
    const listed = createOidcVerifier({ httpIssuers: ['http://127.0.0.1:1'], fetch: countingFetch });
    expect(await reasonOf(listed.verify(await idp.sign(claims())))).toBe('ISSUER_NOT_ALLOWED');
    expect(await reasonOf(v.verify(await idp.sign(claims({ iss: 'ftp://127.0.0.1/' }))))).toBe('ISSUER_NOT_ALLOWED');
    expect(await reasonOf(v.verify(await idp.sign(claims()), { allowedIssuers: ['https://accounts.google.com'] }))).toBe('ISSUER_NOT_ALLOWED');
    expect(fetched).toBe(0);
  });

  it('accepts a listed http issuer, and its key set only from its own origin', async () => {
    const v = createOidcVerifier({ httpIssuers: [idp.issuer] });
    expect((await v.verify(await idp.sign(claims()))).sub).toBe('user-1');
    const elsewhere = createOidcVerifier({ httpIssuers: [idp.issuer] });
    idp.discovery.doc = { issuer: idp.issuer, jwks_uri: 'http://localhost:1/jwks', id_token_signing_alg_values_supported: ['RS256'] };
    try {
      const e = await elsewhere.verify(await idp.sign(claims())).then(
        () => undefined,
        (err: unknown) => err as OidcError,
      );
      expect(e?.reason).toBe('DISCOVERY_FAILED');
      expect(e?.message).toContain('from their own origin');
    } finally {
      delete idp.discovery.doc;
    }
  });

  it('fails discovery when the document names another issuer, is missing, or the issuer is unreachable', async () => {
    try {
      idp.discovery.doc = { issuer: 'https://accounts.google.com', jwks_uri: `${idp.issuer}/jwks` };
      expect(await reasonOf(createOidcVerifier().verify(await idp.sign(claims())))).toBe('DISCOVERY_FAILED');
      idp.discovery.doc = { issuer: idp.issuer, jwks_uri: 'http://jwks.example.com/keys' };
      expect(await reasonOf(createOidcVerifier().verify(await idp.sign(claims())))).toBe('DISCOVERY_FAILED');
      idp.discovery.doc = { issuer: idp.issuer, jwks_uri: `${idp.issuer}/jwks`, id_token_signing_alg_values_supported: ['HS256', 'none'] };
      expect(await reasonOf(createOidcVerifier().verify(await idp.sign(claims())))).toBe('DISCOVERY_FAILED');
      delete idp.discovery.doc;
      idp.discovery.status = 404;
      expect(await reasonOf(createOidcVerifier().verify(await idp.sign(claims())))).toBe('DISCOVERY_FAILED');
    } finally {
      delete idp.discovery.doc;
      idp.discovery.status = 200;
    }
    // Nothing listens on this port any more.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', () => resolve()));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const e = await createOidcVerifier()
      .verify(await idp.sign(claims({ iss: `http://localhost:${port}` })))
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(OidcError);
    expect((e as OidcError).reason).toBe('DISCOVERY_FAILED');
    expect((e as OidcError).message).toContain(`http://localhost:${port}`);
  });

  it('refuses what is not a JWT or lacks required claims', async () => {
    const v = createOidcVerifier();
    for (const bad of ['', 'abc', 'a.b.c', 'x'.repeat(20_000)]) expect(await reasonOf(v.verify(bad))).toBe('MALFORMED');
    expect(await reasonOf(v.verify(await idp.sign(claims({ iss: undefined }))))).toBe('MALFORMED');
    expect(await reasonOf(v.verify(await idp.sign(claims({ exp: undefined }))))).toBe('MALFORMED');
    expect(await reasonOf(v.verify(await idp.sign(claims({ sub: undefined }))))).toBe('MALFORMED');
    expect(await reasonOf(v.verify(await idp.sign(claims({ iat: undefined }))))).toBe('MALFORMED');
    expect(await reasonOf(v.verify(await idp.sign(claims({ aud: undefined })), { expectedAudiences: ['client-a'] }))).toBe('MALFORMED');
  });
});
