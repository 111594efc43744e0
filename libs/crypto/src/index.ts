/**
 * @latchkey/crypto: request-stamp verification (one verifier per scheme), the key vault (barrier),
 * P-256 key helpers, hashing and id generation.
 */
export { StampError, VaultError, type TStampErrorReason, type TVaultErrorReason } from './errors.js';

export {
  API_KEY_STAMP_SCHEMES,
  type TApiKeyStamp,
  type TApiKeyStampScheme,
} from './stamp/api-key-stamp.types.js';
export { MAX_STAMP_HEADER_LENGTH, parseStampHeader } from './stamp/parse-stamp-header.js';
export { verifyP256Stamp } from './stamp/verify-p256.js';
export { eip191Digest, verifySecp256k1Eip191Stamp } from './stamp/verify-secp256k1-eip191.js';
export { verifyEd25519Stamp } from './stamp/verify-ed25519.js';
export { verifyApiKeyStamp, verifyParsedApiKeyStamp } from './stamp/verify-api-key-stamp.js';
export {
  MAX_WEBAUTHN_STAMP_HEADER_LENGTH,
  expectedWebauthnChallenge,
  parseWebauthnStamp,
  verifyWebauthnStamp,
  type TWebauthnStamp,
} from './stamp/verify-webauthn-stamp.js';
export { STAMP_HEADER_NAMES, selectStampHeader, type TStampHeader } from './stamp/select-stamp-header.js';
export { ATTESTED_STAMP_SCHEMES, verifyAttestedStamp, type TAttestedStamp, type TAttestedStampScheme } from './stamp/verify-attested-stamp.js';

export {
  createKeyVault,
  generateMasterKey,
  loadOrCreateMasterKeyFile,
  parseMasterKey,
  type TKeyVault,
} from './vault/key-vault.js';

export {
  compressP256PublicKey,
  decompressP256PublicKey,
  generateP256KeyPair,
  isCompressedP256PublicKey,
  signP256,
  type TP256KeyPair,
} from './keys/p256.js';

export { activityFingerprint, sha256Hex } from './hash.js';
export { idTimestamp, newId } from './ids.js';
export { fixedSeedEntropy, randomEntropy, type TInstallEntropy } from './install-entropy.js';

export { HARDENED_OFFSET, DerivationError, parseDerivationPath, type TParsedPath } from './derivation/derivation-path.js';
export {
  createDerivationPool,
  defaultDerivationWorkers,
  deriveAccountBatch,
  inlineDerivation,
  type TAccountSpec,
  type TDerivationPool,
  type TDerivationPoolOptions,
  type TDerivedAccount,
} from './derivation/derivation-pool.js';
export { createFreshWalletSource, type TFreshWallet, type TFreshWalletOptions, type TFreshWalletSource } from './derivation/fresh-wallets.js';
export { MNEMONIC_LENGTHS, SeedDeriver, createMnemonic, isValidMnemonic, mnemonicToSeed, type TCurveName, type TDerivedKey } from './derivation/derive-key.js';
export { AddressFormatError, SUPPORTED_ADDRESS_FORMATS, assertAddressFormat, curvesForAddressFormat, encodeAddress } from './addresses/encode-address.js';
export type { TFormatSpec, TFormatTable } from './addresses/format-spec.js';
export { ethereumAddress, toChecksumAddress } from './addresses/ethereum.js';
export { SLIP10_CURVES, slip10DeriveChild, slip10MasterNode, slip10PublicKey, type TSlip10Curve, type TSlip10Node } from './derivation/slip10.js';
export { generateCurveKeyPair, publicKeyForCurve, type TCurveKeyPair } from './keys/curve-keys.js';
export { normalizeApiKeyPublicKey, type TApiKeyCurveName } from './keys/api-key-public-key.js';
export * from './bundles/index.js';
export * from './signing/index.js';
export * from './chains/index.js';

export { LoginTokenError, ClientSignatureError, type TLoginTokenErrorReason, type TClientSignatureErrorReason } from './login/login-errors.js';
export { oidcNonceForPublicKey } from './login/oidc-nonce.js';
export { SESSION_TYPES, decodeSessionJwt, signSessionJwt, verifySessionJwt, type TDecodedSessionJwt, type TSessionJwtClaims } from './login/session-jwt.js';
export { VERIFICATION_TYPES, signVerificationToken, verifyVerificationToken, type TVerificationTokenClaims, type TVerificationType } from './login/verification-token.js';
export { MAX_ENCRYPTED_OTP_BUNDLE_LENGTH, createOtpEncryptionTargetBundle, openEncryptedOtpBundle, type TCreateOtpEncryptionTargetBundleParams, type TOpenedOtpBundle } from './login/otp-bundle.js';
export {
  CLIENT_SIGNATURE_SCHEME_API_P256,
  MAX_CLIENT_SIGNATURE_MESSAGE_LENGTH,
  loginClientSignatureMessage,
  parseTokenUsageMessage,
  signClientSignature,
  signupClientSignatureMessage,
  verifyClientSignature,
  type TClientSignature,
  type TSignupUsageFields,
  type TTokenUsage,
} from './login/client-signature.js';
export { CROCKFORD_BASE32_ALPHABET, MAX_OTP_LENGTH, MIN_OTP_LENGTH, generateOtpCode, generateOtpSalt, hashOtpCode, normalizeOtpCode, otpCodeMatches } from './login/otp-code.js';
export { WebauthnRegistrationError, type TWebauthnRegistrationErrorReason } from './webauthn/webauthn-registration-error.js';
export {
  ATTESTATION_FORMATS,
  AUTHENTICATOR_TRANSPORTS,
  verifyWebauthnRegistration,
  type TAuthenticatorTransport,
  type TVerifiedWebauthnRegistration,
  type TVerifyWebauthnRegistrationParams,
  type TWebauthnAttestation,
} from './webauthn/verify-registration.js';
export { AUTHENTICATOR_DATA_HEAD_LENGTH, parseAuthenticatorDataHead, rpIdHashMatches, signCountAdvances, type TAuthenticatorDataHead } from './webauthn/authenticator-data.js';
export * from './webhooks/index.js';
export { loadVault } from './vault/open-vault.js';
export { internalRequestProblem, sealInternalRequest } from './vault/internal-request.js';
export { canonicalJson, type TJsonValue } from './tvc/canonical-json.js';
export { isUncompressedP256PublicKey, verifyManifestApproval } from './tvc/manifest-signature.js';
