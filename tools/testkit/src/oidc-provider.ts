/**
 * A real OpenID provider on 127.0.0.1 — the `oidc-provider` package, the certified
 * implementation — for tests of oauth_login / oauth / oauth2_authenticate. Its id-tokens are
 * genuine: obtained through the authorization-code flow with PKCE and signed with the provider's
 * own RS256 key, published at its jwks_uri behind a real discovery document.
 *
 * The user interaction (login, consent) is driven programmatically: the authorization request
 * carries `login_hint=<sub>`, and this module's own interaction route logs that account in and
 * grants the requested scopes through `provider.interactionFinished`, exactly as an application's
 * login page would. Any `sub` exists; its e-mail is whatever the last call said.
 *
 * oidc-provider 9 prints that it wants Node 22 at import; it runs on Node 20 for this purpose.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';

export interface TOidcClient {
  clientId: string;
  /** Without one the client is public (token_endpoint_auth_method none, PKCE required). */
  clientSecret?: string;
  redirectUris: string[];
}

export interface TOidcProviderOptions {
  clients: TOidcClient[];
  /** id_token lifetime. Default 3600. */
  idTokenTtlSeconds?: number;
}

export interface TAuthorizeRequest {
  clientId: string;
  redirectUri: string;
  sub: string;
  nonce: string;
  /** base64url(sha256(code_verifier)) — S256 is the only method. */
  codeChallenge: string;
  state?: string;
  email?: string;
  /** Default `openid email`. */
  scope?: string;
}

export interface TOidcProvider {
  /** http://127.0.0.1:<port> (no trailing slash), the `iss` of every token. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  /** A genuine id_token for `sub`, with `nonce` and `aud` = clientId (code flow + PKCE, run here). */
  obtainIdToken(req: { sub: string; clientId: string; nonce: string; email?: string; redirectUri?: string }): Promise<string>;
  /** Runs the authorization-code flow up to the redirect and returns the code (and state) it carries. */
  authorize(req: TAuthorizeRequest): Promise<{ code: string; state?: string }>;
  stop(): Promise<void>;
}

// The parts of oidc-provider's API this module uses.
interface TGrant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(indicator: string, scope: string): void;
  save(): Promise<string>;
}
interface TInteraction {
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> } };
  params: Record<string, unknown>;
  session?: { accountId?: string };
  grantId?: string;
}
interface TProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<TInteraction>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, opts?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  Grant: { new (init: { accountId: string; clientId: string }): TGrant; find(id: string): Promise<TGrant | undefined> };
}
/**
 * Loaded on first use: importing oidc-provider costs time and prints a Node-version warning, which
 * every user of the testkit would pay even if it never starts an OIDC provider.
 */
async function loadProvider(): Promise<new (issuer: string, config: object) => TProvider> {
  // A variable specifier: oidc-provider ships no type declarations (the few members used are typed above).
  const name = 'oidc-provider';
  const mod = (await import(name)) as { default: unknown };
  return mod.default as new (issuer: string, config: object) => TProvider;
}

const b64url = (b: Buffer): string => b.toString('base64url');

/** The PKCE pair for a fresh code verifier. */
export function pkcePair(): { codeVerifier: string; codeChallenge: string } {
  const codeVerifier = b64url(randomBytes(32));
  return { codeVerifier, codeChallenge: b64url(createHash('sha256').update(codeVerifier).digest()) };
}

/** Starts the provider on a free loopback port. */
export async function startOidcProvider(opts: TOidcProviderOptions): Promise<TOidcProvider> {
  if (opts.clients.length === 0) throw new Error('startOidcProvider: at least one client is needed');
  const Provider = await loadProvider();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const emails = new Map<string, string>();

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: b64url(randomBytes(8)), alg: 'RS256', use: 'sig' };
  const ttl = opts.idTokenTtlSeconds ?? 3600;

  const provider = new Provider(issuer, {
    clients: opts.clients.map((c) => ({
      client_id: c.clientId,
      ...(c.clientSecret !== undefined ? { client_secret: c.clientSecret, token_endpoint_auth_method: 'client_secret_basic' } : { token_endpoint_auth_method: 'none' }),
      redirect_uris: c.redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
    })),
    jwks: { keys: [signingKey] },
    cookies: { keys: [b64url(randomBytes(32))] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // Like Google and most social providers: scope claims go into the id_token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: { AccessToken: 3600, AuthorizationCode: 120, IdToken: ttl, Interaction: 600, Session: 3600, Grant: 3600 },
    async findAccount(_ctx: unknown, sub: string) {
      return {
        accountId: sub,
        async claims() {
          const email = emails.get(sub);
          return email !== undefined ? { sub, email, email_verified: true } : { sub };
        },
      };
    },
  });
  const handle = provider.callback();

  /** The application's "login page": logs in login_hint and grants what is asked. */
  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const sub = details.params['login_hint'];
      if (typeof sub !== 'string' || sub === '') throw new Error('authorization request without login_hint');
      await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
      return;
    }
    if (details.prompt.name === 'consent') {
      const accountId = details.session?.accountId;
      const clientId = details.params['client_id'];
      if (typeof accountId !== 'string' || typeof clientId !== 'string') throw new Error('consent without a session or client');
      const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
      const d = details.prompt.details;
      if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
      if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      return;
    }
    throw new Error(`unexpected interaction prompt ${details.prompt.name}`);
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${(e as Error).message}`);
      });
      return;
    }
    handle(req, res);
  });

  const authorizationEndpoint = `${issuer}/auth`;
  const tokenEndpoint = `${issuer}/token`;

  async function authorize(r: TAuthorizeRequest): Promise<{ code: string; state?: string }> {
    if (r.email !== undefined) emails.set(r.sub, r.email);
    const url = new URL(authorizationEndpoint);
    url.search = new URLSearchParams({
      client_id: r.clientId,
      redirect_uri: r.redirectUri,
      response_type: 'code',
      scope: r.scope ?? 'openid email',
      nonce: r.nonce,
      code_challenge: r.codeChallenge,
      code_challenge_method: 'S256',
      login_hint: r.sub,
      prompt: 'login consent',
      ...(r.state !== undefined ? { state: r.state } : {}),
    }).toString();
    // A fresh cookie jar per flow: every call is a new browser.
    const jar = new Map<string, string>();
    let next = url.href;
    for (let hop = 0; hop < 12; hop++) {
      const res = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of res.headers.getSetCookie()) {
        const [pair = '', ...attrs] = c.split(';');
        const i = pair.indexOf('=');
        const name = pair.slice(0, i).trim();
        const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=').slice(1).join('=')) < Date.now()));
        if (expired) jar.delete(name);
        else jar.set(name, pair.slice(i + 1).trim());
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) {
        const body = (await res.text()).slice(0, 500);
        throw new Error(`authorization flow stopped at ${new URL(next).pathname} with HTTP ${res.status}: ${body}`);
      }
      await res.body?.cancel();
      const target = new URL(location, next);
      if (`${target.origin}${target.pathname}` === new URL(r.redirectUri).href.replace(/[?#].*$/, '')) {
        const error = target.searchParams.get('error');
        if (error) throw new Error(`authorization refused: ${error}: ${target.searchParams.get('error_description') ?? ''}`);
        const code = target.searchParams.get('code');
        if (!code) throw new Error('redirect without a code');
        const state = target.searchParams.get('state');
        return state !== null ? { code, state } : { code };
      }
      next = target.href;
    }
    throw new Error('authorization flow did not reach the redirect URI in 12 hops');
  }

  return {
    issuer,
    authorizationEndpoint,
    tokenEndpoint,
    jwksUri: `${issuer}/jwks`,
    authorize,
    async obtainIdToken(r) {
      const client = opts.clients.find((c) => c.clientId === r.clientId);
      if (!client) throw new Error(`unknown client ${r.clientId}`);
      const redirectUri = r.redirectUri ?? client.redirectUris[0];
      if (!redirectUri) throw new Error(`client ${r.clientId} has no redirect URI`);
      const { codeVerifier, codeChallenge } = pkcePair();
      const { code } = await authorize({ clientId: r.clientId, redirectUri, sub: r.sub, nonce: r.nonce, codeChallenge, ...(r.email !== undefined ? { email: r.email } : {}) });
      const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (client.clientSecret !== undefined) {
        // RFC 6749 §2.3.1: both parts form-encoded before the basic-auth base64.
        const enc = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');
        headers['authorization'] = `Basic ${Buffer.from(`${enc(client.clientId)}:${enc(client.clientSecret)}`).toString('base64')}`;
      } else {
        form.set('client_id', client.clientId);
      }
      const res = await fetch(tokenEndpoint, { method: 'POST', headers, body: form.toString() });
      const json = (await res.json()) as { id_token?: unknown; error?: unknown; error_description?: unknown };
      if (!res.ok || typeof json.id_token !== 'string') throw new Error(`token endpoint answered HTTP ${res.status}: ${String(json.error)} ${String(json.error_description ?? '')}`);
      return json.id_token;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
