/**
 * The ports of the engine: what handlers reach beyond the database and the vault, declared here
 * as the engine needs them and implemented outside it — message delivery by `@latchkey/delivery`,
 * id-token verification and the OAuth 2.0 providers by `@latchkey/identity-providers`, the
 * derivation pool by `@latchkey/crypto`. `@latchkey/platform` plugs the real ones in; tests pass
 * their own (a real SMTP capture server, a real OpenID provider) behind the same interfaces.
 */
import type { TDerivationPool, TEvmRpc, TFreshWalletSource, TResolver } from '@latchkey/crypto';
import type { TIdTokenVerifyOptions, TMessageSender, TOauth2Provider, TVerifiedIdToken } from '@latchkey/domain';
import type { TServerKey } from '../keys/server-keys.js';

export type { TIdTokenVerifyOptions, TMessageSender, TVerifiedIdToken } from '@latchkey/domain';

/** Verifies OIDC id_tokens. @throws AppError (400/401) for a token that does not verify, 503 when the issuer cannot be reached */
export interface TIdTokenVerifier {
  verify(token: string, options: TIdTokenVerifyOptions): Promise<TVerifiedIdToken>;
}

export interface TOauth2CodeExchange {
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
}

/** The claims of an id_token Latchkey issues for oauth2_authenticate. */
export interface TIssuedIdToken {
  subject: string;
  audience: string;
  nonce: string;
  jti: string;
  now: Date;
  encryptedBearerToken?: string;
}

/** oauth2_authenticate's providers (X, Discord) and Latchkey's own OIDC issuer. */
export interface TOauth2Providers {
  /**
   * Exchanges an authorization code (PKCE) at the provider and reads the user's id.
   * @returns the access token and the subject, namespaced by provider (`x:123`)
   * @throws AppError BAD_REQUEST when the provider refuses, UNAVAILABLE when it cannot be reached
   */
  authenticate(provider: TOauth2Provider, exchange: TOauth2CodeExchange): Promise<{ accessToken: string; subject: string }>;
  /** Signs an id_token as Latchkey's issuer with the `oidc_issuer` server key. */
  signIdToken(key: TServerKey, claims: TIssuedIdToken): Promise<string>;
}

export interface TEngineServices {
  messages: TMessageSender;
  oidc: TIdTokenVerifier;
  /** oauth2_authenticate's providers; absent: that activity is refused. */
  oauth2?: TOauth2Providers;
  /** Worker threads for large account batches (derivation-pool.ts); absent: derivation runs inline. */
  derivation?: TDerivationPool;
  /**
   * New wallets' mnemonics with their seeds made ahead of time, off the event loop
   * (fresh-wallets.ts); absent: a new wallet's mnemonic is made and stretched on the request.
   */
  freshWallets?: TFreshWalletSource;
  /**
   * Where webhook endpoints may point (create/update_webhook_endpoint, FEATURE_NAME_WEBHOOK):
   * `allowInsecure` is LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS, read by the platform with the worker's
   * parser; `resolve` replaces DNS in tests. Absent: public https:// only.
   */
  webhookUrls?: { allowInsecure: boolean; resolve?: TResolver };
  /**
   * The QuorumOS versions create_tvc_deployment accepts, the recommended one first
   * (LATCHKEY_TVC_QOS_VERSIONS, read by `readTvcQosVersions`). Absent: `DEFAULT_TVC_QOS_VERSIONS`.
   */
  tvc?: { qosVersions: readonly string[] };
  /**
   * The EVM nodes eth_send_transaction fills, broadcasts and is followed on, by CAIP-2 id
   * (LATCHKEY_EVM_RPC_URLS). Absent or without the chain: that chain is refused (400).
   */
  evm?: ReadonlyMap<string, TEvmRpc>;
  /** USD per whole native token of each chain (LATCHKEY_GAS_PRICE_USD, decimal strings): prices sponsored gas. */
  gasPricesUsd?: ReadonlyMap<string, string>;
}

/** Services that refuse to deliver: for engines that run no login flows (tools, some tests). */
export function unconfiguredServices(): TEngineServices {
  const refuse = (what: string) => () => Promise.reject(new Error(`${what} is not configured in this process`));
  const mail = refuse('message delivery');
  return { messages: { otpEmail: mail, otpSms: mail, emailAuth: mail, recovery: mail, invitation: mail }, oidc: { verify: refuse('OIDC verification') } };
}
