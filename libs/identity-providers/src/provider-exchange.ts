/**
 * The two calls oauth2_authenticate makes to a provider: the authorization-code exchange
 * (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.5) and the user-info request with the access token.
 *
 * Why it is built this way:
 *  - The client authenticates with HTTP Basic (RFC 6749 §2.3.1: both halves form-encoded first),
 *    which X and Discord accept for confidential clients; `client_id` also goes in the body, as
 *    X asks of every client.
 *  - Redirects are refused: a token endpoint that redirects would carry the code and the
 *    secret's Basic header elsewhere.
 *  - Errors name the provider and its `error` code (and a clipped, printable
 *    `error_description`); never the secret, the code, the verifier or a token.
 *  - Answers are bounded (64 KiB) and time-limited.
 */
import type { TOauth2Provider } from '@latchkey/domain';
import type { TOauth2Endpoints } from './oauth2-config.js';

/** Why a provider call failed. */
export type TOauth2ProviderErrorReason =
  /** The provider refused the request (bad code, wrong verifier, redirect mismatch, bad client). */
  | 'REFUSED'
  /** The provider could not be reached, timed out, failed (5xx) or answered nonsense. */
  | 'UNAVAILABLE';

export class Oauth2ProviderError extends Error {
  override readonly name = 'Oauth2ProviderError';

  constructor(
    readonly reason: TOauth2ProviderErrorReason,
    message: string,
  ) {
    // No `cause`: fetch errors can carry the request, and so the Basic header.
    super(message);
  }
}

export interface TProviderCall {
  provider: TOauth2Provider;
  endpoints: TOauth2Endpoints;
  timeoutMs: number;
  fetch: typeof fetch;
}

const MAX_BODY = 64 * 1024;

/** A short, printable rendering of untrusted provider text. */
function clip(s: string): string {
  const printable = s.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 200 ? `${printable.slice(0, 200)}…` : printable;
}

const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

async function call(c: TProviderCall, what: string, url: string, init: RequestInit): Promise<{ status: number; json: unknown }> {
  let res: Response;
  try {
    res = await c.fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(c.timeoutMs) });
  } catch (e) {
    const why = (e as { name?: unknown }).name === 'TimeoutError' ? `no answer in ${c.timeoutMs} ms` : 'the request failed';
    throw new Oauth2ProviderError('UNAVAILABLE', `${c.provider} ${what}: ${why}`);
  }
  const text = await res.text().catch(() => '');
  if (text.length > MAX_BODY) throw new Oauth2ProviderError('UNAVAILABLE', `${c.provider} ${what}: the answer is larger than ${MAX_BODY} bytes`);
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json };
}

function providerError(c: TProviderCall, what: string, status: number, json: unknown): Oauth2ProviderError {
  const body = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const code = typeof body['error'] === 'string' ? clip(body['error']) : undefined;
  const description = typeof body['error_description'] === 'string' ? clip(body['error_description']) : undefined;
  const detail = code ? `${code}${description ? ` (${description})` : ''}` : `HTTP ${status}`;
  // 5xx and 429 are the provider's trouble; the rest means the request itself was refused.
  const reason = status >= 500 || status === 429 ? 'UNAVAILABLE' : 'REFUSED';
  return new Oauth2ProviderError(reason, `${c.provider} ${what} refused: ${detail}`);
}

export interface TCodeExchange {
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
}

/**
 * Exchanges an authorization code for an access token.
 * @throws Oauth2ProviderError REFUSED (the provider's `error` named) or UNAVAILABLE
 */
export async function exchangeAuthorizationCode(c: TProviderCall, x: TCodeExchange): Promise<{ accessToken: string }> {
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: x.code, redirect_uri: x.redirectUri, code_verifier: x.codeVerifier, client_id: x.clientId });
  const basic = Buffer.from(`${formEncode(x.clientId)}:${formEncode(x.clientSecret)}`, 'utf8').toString('base64');
  const { status, json } = await call(c, 'token endpoint', c.endpoints.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
    body: body.toString(),
  });
  if (status < 200 || status >= 300) throw providerError(c, 'token endpoint', status, json);
  const token = typeof json === 'object' && json !== null ? (json as Record<string, unknown>)['access_token'] : undefined;
  if (typeof token !== 'string' || token === '') throw new Oauth2ProviderError('UNAVAILABLE', `${c.provider} token endpoint answered without an access_token`);
  return { accessToken: token };
}

/** The user id in a user-info answer: X `{data: {id}}`, Discord `{id}`, OpenID Connect `{sub}`. */
function userIdOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const o = json as Record<string, unknown>;
  const data = typeof o['data'] === 'object' && o['data'] !== null ? (o['data'] as Record<string, unknown>) : undefined;
  for (const v of [data?.['id'], o['id'], o['sub']]) {
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/**
 * Asks the provider who the access token belongs to.
 * @throws Oauth2ProviderError REFUSED or UNAVAILABLE (also when the answer names no user id)
 */
export async function fetchProviderUserId(c: TProviderCall, accessToken: string): Promise<string> {
  const { status, json } = await call(c, 'user-info endpoint', c.endpoints.userinfoUrl, {
    method: 'GET',
    headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
  });
  if (status < 200 || status >= 300) throw providerError(c, 'user-info endpoint', status, json);
  const id = userIdOf(json);
  if (id === undefined || id.length > 256 || !/^[\x21-\x7e]+$/.test(id)) {
    throw new Oauth2ProviderError('UNAVAILABLE', `${c.provider} user-info endpoint answered without a usable user id (data.id, id or sub)`);
  }
  return id;
}
