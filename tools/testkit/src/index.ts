/**
 * @latchkey/testkit — a real, throw-away Latchkey for tests (yours and the project's own), plus the
 * doubles its end-to-end tests use: an SMTP capture, a Twilio-compatible SMS capture, an OIDC
 * provider and a software WebAuthn authenticator.
 */
export { startLatchkey, repoRoot, DEFAULT_APPS, FIXED_TEST_SEED, LATCHKEY_APPS, type TLatchkey, type TLatchkeyApp, type TStartOptions, type TBootstrapJson } from './start-latchkey.js';
export { type TInboxMessage, type TMessageInbox } from './message-inbox.js';
export { defaultCacheDir, ensureDataDirTemplate, templateKey, type TDataDirTemplate, type TTemplateOptions } from './data-dir-template.js';
export { AnvilRpcError, anvilBinary, startAnvil, type TAnvil, type TAnvilOptions } from './anvil.js';
export { startSmsCapture, type TCapturedSms, type TSmsCapture } from './sms-capture.js';
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
