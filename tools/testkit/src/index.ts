/** @latchkey/testkit — a real Latchkey for end-to-end tests and benchmarks. */
export { startLatchkey, repoRoot, type TLatchkey, type TStartOptions, type TBootstrapJson } from './start-latchkey.js';
export { startSmtpCapture, parseMail, decodeEncodedWords, type TCapturedMail, type TSmtpCapture, type TSmtpCaptureOptions } from './smtp-capture.js';
export { startOidcProvider, pkcePair, type TOidcProvider, type TOidcProviderOptions, type TOidcClient, type TAuthorizeRequest } from './oidc-provider.js';
export {
  createSoftwareAuthenticator,
  encodeCbor,
  type TSoftwareAttestation,
  type TSoftwareAttestationFormat,
  type TSoftwareAuthenticator,
  type TSoftwareAuthenticatorOptions,
  type TSoftwareAuthenticatorParams,
  type TWebauthnTestStamper,
} from './software-authenticator.js';
