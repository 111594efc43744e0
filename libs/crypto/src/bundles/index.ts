/**
 * Encrypted bundles (protocol notes §5): Turnkey's HPKE, the signed envelope, and the export,
 * import and credential bundle formats, all byte-compatible with `@turnkey/crypto`.
 */
export { BundleError, type TBundleErrorReason } from './bundle-error.js';
export { TURNKEY_HPKE_INFO, hpkeOpen, hpkeSeal, type THpkeCiphertext } from './hpke.js';
export {
  SIGNED_ENVELOPE_VERSION,
  signEnvelope,
  type TEnvelopeSigner,
  type TSignedEnvelope,
} from './signed-envelope.js';
export { createExportBundle, type TCreateExportBundleParams } from './export-bundle.js';
export {
  IMPORT_KEY_FORMATS,
  createImportBundle,
  decodeImportedMnemonic,
  decodeImportedPrivateKey,
  openImportedBundle,
  type TCreateImportBundleParams,
  type TImportKeyFormat,
} from './import-bundle.js';
export { createCredentialBundle } from './credential-bundle.js';
export { SECRET_TRANSPORT_SUITE, assertSecretPlaintext, createSecretTargetMessage, type TCreateSecretTargetParams } from './secret-bundles.js';
export { decodeEnclaveEnvelope, openEnclaveEnvelope, type TEnclaveEnvelope } from './enclave-envelope.js';
