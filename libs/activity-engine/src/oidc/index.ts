/** OpenID Connect id-token verification for oauth_login / oauth, and the nonce rule of §8. */
export {
  OidcError,
  createOidcVerifier,
  oidcNonceForPublicKey,
  type TOidcErrorReason,
  type TOidcVerifier,
  type TOidcVerifierOptions,
  type TOidcVerifyOptions,
  type TVerifiedIdToken,
} from './oidc-verifier.js';
export { readOidcHttpIssuers } from './oidc-config.js';
