/**
 * The engine's `TOauth2Providers` port over the provider clients and Latchkey's own issuer: the
 * code exchange and user lookup at X / Discord (provider-exchange.ts), the subject namespaced by
 * provider (oauth2-config.ts), and the id_token Latchkey signs (oidc-issuer.ts). A provider's
 * refusal is the caller's error (400, naming the field), its outage a 503.
 */
import { AppError, type TOauth2Provider } from '@latchkey/domain';
import { subjectPrefix, type TOauth2Config } from './oauth2-config.js';
import { signOidcToken } from './oidc-issuer.js';
import { exchangeAuthorizationCode, fetchProviderUserId, Oauth2ProviderError, type TCodeExchange, type TProviderCall } from './provider-exchange.js';

const DEFAULT_TIMEOUT_MS = 10_000;

/** What `authenticate` returns: the provider's access token and the namespaced subject (`x:123`). */
export interface TOauth2SignIn {
  accessToken: string;
  subject: string;
}

function appErrorOf(e: unknown): unknown {
  if (!(e instanceof Oauth2ProviderError)) return e;
  return e.reason === 'REFUSED' ? new AppError('BAD_REQUEST', e.message, { field: 'authCode' }) : new AppError('UNAVAILABLE', e.message);
}

export function createOauth2Providers(config: TOauth2Config) {
  return {
    /** @throws AppError BAD_REQUEST when the provider refuses the code, UNAVAILABLE when it fails */
    async authenticate(provider: TOauth2Provider, exchange: TCodeExchange): Promise<TOauth2SignIn> {
      const call: TProviderCall = { provider, endpoints: config.providers[provider], timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetch: config.fetch ?? fetch };
      try {
        const { accessToken } = await exchangeAuthorizationCode(call, exchange);
        const userId = await fetchProviderUserId(call, accessToken);
        return { accessToken, subject: `${subjectPrefix(provider)}${userId}` };
      } catch (e) {
        throw appErrorOf(e);
      }
    },
    signIdToken(
      key: { privateKey: Uint8Array; publicKeyUncompressedHex: string },
      c: { subject: string; audience: string; nonce: string; jti: string; now: Date; encryptedBearerToken?: string },
    ): Promise<string> {
      return signOidcToken(key, { issuer: config.issuer, ...c });
    },
  };
}
