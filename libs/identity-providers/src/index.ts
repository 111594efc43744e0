/**
 * @latchkey/identity-providers — every HTTP client of an identity provider, and Latchkey's own
 * issuer: OIDC discovery and JWKS verification of id_tokens (oauth_login, oauth, X-Stamp-Attested),
 * the OAuth 2.0 code exchange with X and Discord (oauth2_authenticate), and the id_tokens Latchkey
 * signs as an issuer. Implements the engine's `TIdTokenVerifier` and `TOauth2Providers` ports
 * without importing the engine.
 */
export {
  OidcError,
  createOidcVerifier,
  type TOidcErrorReason,
  type TOidcVerifier,
  type TOidcVerifierOptions,
  type TOidcVerifyOptions,
  type TVerifiedIdToken,
} from './oidc-verifier.js';
export { oidcNonceForPublicKey } from '@latchkey/crypto';
export { readOidcHttpIssuers } from './oidc-config.js';
export { OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH, OIDC_TOKEN_TTL_SECONDS, oidcDiscoveryDocument, oidcIssuerJwk, oidcIssuerJwks, signOidcToken, type TIssuedTokenClaims } from './oidc-issuer.js';
export { DEFAULT_OAUTH2_ENDPOINTS, OAUTH2_CONFIG_VARIABLES, readOauth2Config, subjectPrefix, type TOauth2Config, type TOauth2Endpoints } from './oauth2-config.js';
export { Oauth2ProviderError, exchangeAuthorizationCode, fetchProviderUserId, type TCodeExchange, type TOauth2ProviderErrorReason, type TProviderCall } from './provider-exchange.js';
export { createOauth2Providers, type TOauth2SignIn } from './oauth2-providers.js';
