/**
 * Wire enums of the Turnkey-compatible public API. Every value is spelled byte-exactly as on the
 * wire; each enum exports its value list (`CURVES`), its zod schema (`ZCurveSchema`) and its type
 * (`TCurve`). `test/wire-conformance.ts` checks each list against `@turnkey/http`'s types.
 */
import { z } from 'zod';

export const ACTIVITY_STATUSES = [
  'ACTIVITY_STATUS_CREATED',
  'ACTIVITY_STATUS_PENDING',
  'ACTIVITY_STATUS_COMPLETED',
  'ACTIVITY_STATUS_FAILED',
  'ACTIVITY_STATUS_CONSENSUS_NEEDED',
  'ACTIVITY_STATUS_REJECTED',
  'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED',
] as const;
export const ZActivityStatusSchema = z.enum(ACTIVITY_STATUSES);
export type TActivityStatus = z.infer<typeof ZActivityStatusSchema>;

export const CURVES = ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'] as const;
export const ZCurveSchema = z.enum(CURVES);
export type TCurve = z.infer<typeof ZCurveSchema>;

export const PATH_FORMATS = ['PATH_FORMAT_BIP32'] as const;
export const ZPathFormatSchema = z.enum(PATH_FORMATS);
export type TPathFormat = z.infer<typeof ZPathFormatSchema>;

export const BITCOIN_NETWORKS = ['MAINNET', 'TESTNET', 'SIGNET', 'REGTEST'] as const;
export type TBitcoinNetwork = (typeof BITCOIN_NETWORKS)[number];
export const BITCOIN_SCRIPT_TYPES = ['P2PKH', 'P2SH', 'P2WPKH', 'P2WSH', 'P2TR'] as const;
export type TBitcoinScriptType = (typeof BITCOIN_SCRIPT_TYPES)[number];
export type TBitcoinAddressFormat = `ADDRESS_FORMAT_BITCOIN_${TBitcoinNetwork}_${TBitcoinScriptType}`;

/** The 20 bitcoin formats, network-major (MAINNET_P2PKH … REGTEST_P2TR), as the swagger lists them. */
export const BITCOIN_ADDRESS_FORMATS: readonly TBitcoinAddressFormat[] = BITCOIN_NETWORKS.flatMap((network) =>
  BITCOIN_SCRIPT_TYPES.map((script) => `ADDRESS_FORMAT_BITCOIN_${network}_${script}` as const),
);

const NON_BITCOIN_ADDRESS_FORMATS = [
  'ADDRESS_FORMAT_UNCOMPRESSED',
  'ADDRESS_FORMAT_COMPRESSED',
  'ADDRESS_FORMAT_ETHEREUM',
  'ADDRESS_FORMAT_SOLANA',
  'ADDRESS_FORMAT_COSMOS',
  'ADDRESS_FORMAT_TRON',
  'ADDRESS_FORMAT_SUI',
  'ADDRESS_FORMAT_APTOS',
  'ADDRESS_FORMAT_SEI',
  'ADDRESS_FORMAT_XLM',
  'ADDRESS_FORMAT_XRP',
  'ADDRESS_FORMAT_DOGE_MAINNET',
  'ADDRESS_FORMAT_DOGE_TESTNET',
  'ADDRESS_FORMAT_TON_V3R2',
  'ADDRESS_FORMAT_TON_V4R2',
  'ADDRESS_FORMAT_TON_V5R1',
  'ADDRESS_FORMAT_SPARK_MAINNET',
  'ADDRESS_FORMAT_SPARK_REGTEST',
] as const;

export type TAddressFormat = (typeof NON_BITCOIN_ADDRESS_FORMATS)[number] | TBitcoinAddressFormat;
/** All 38 address formats of the spec: 18 named ones, then the 20 bitcoin network × script ones. */
export const ADDRESS_FORMATS: readonly TAddressFormat[] = [...NON_BITCOIN_ADDRESS_FORMATS, ...BITCOIN_ADDRESS_FORMATS];
export const ZAddressFormatSchema = z.enum(ADDRESS_FORMATS);

export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const;
export const ZMnemonicLengthSchema = z.literal(MNEMONIC_LENGTHS, {
  error: `must be one of ${MNEMONIC_LENGTHS.join(', ')}`,
});
export type TMnemonicLength = z.infer<typeof ZMnemonicLengthSchema>;
export const DEFAULT_MNEMONIC_LENGTH: TMnemonicLength = 12;

export const API_KEY_CURVES = ['API_KEY_CURVE_P256', 'API_KEY_CURVE_SECP256K1', 'API_KEY_CURVE_ED25519'] as const;
export const ZApiKeyCurveSchema = z.enum(API_KEY_CURVES);
export type TApiKeyCurve = z.infer<typeof ZApiKeyCurveSchema>;

export const CREDENTIAL_TYPES = [
  'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR',
  'CREDENTIAL_TYPE_API_KEY_P256',
  'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256',
  'CREDENTIAL_TYPE_API_KEY_SECP256K1',
  'CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256',
  'CREDENTIAL_TYPE_API_KEY_ED25519',
  'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256',
  'CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256',
  'CREDENTIAL_TYPE_OAUTH_KEY_P256',
  'CREDENTIAL_TYPE_LOGIN',
] as const;
export const ZCredentialTypeSchema = z.enum(CREDENTIAL_TYPES);
export type TCredentialType = z.infer<typeof ZCredentialTypeSchema>;

export const AUTHENTICATOR_TRANSPORTS = [
  'AUTHENTICATOR_TRANSPORT_BLE',
  'AUTHENTICATOR_TRANSPORT_INTERNAL',
  'AUTHENTICATOR_TRANSPORT_NFC',
  'AUTHENTICATOR_TRANSPORT_USB',
  'AUTHENTICATOR_TRANSPORT_HYBRID',
] as const;
export const ZAuthenticatorTransportSchema = z.enum(AUTHENTICATOR_TRANSPORTS);
export type TAuthenticatorTransport = z.infer<typeof ZAuthenticatorTransportSchema>;

export const EFFECTS = ['EFFECT_ALLOW', 'EFFECT_DENY'] as const;
export const ZEffectSchema = z.enum(EFFECTS);
export type TEffect = z.infer<typeof ZEffectSchema>;

export const VOTE_SELECTIONS = ['VOTE_SELECTION_APPROVED', 'VOTE_SELECTION_REJECTED'] as const;
export const ZVoteSelectionSchema = z.enum(VOTE_SELECTIONS);
export type TVoteSelection = z.infer<typeof ZVoteSelectionSchema>;

/** Organization feature names (`set_organization_feature`); `FEATURE_NAME_WEBHOOK` turns on delivery. */
export const FEATURE_NAMES = [
  'FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY',
  'FEATURE_NAME_WEBAUTHN_ORIGINS',
  'FEATURE_NAME_EMAIL_AUTH',
  'FEATURE_NAME_EMAIL_RECOVERY',
  'FEATURE_NAME_WEBHOOK',
  'FEATURE_NAME_SMS_AUTH',
  'FEATURE_NAME_OTP_EMAIL_AUTH',
  'FEATURE_NAME_AUTH_PROXY',
  'FEATURE_NAME_SOLANA_RENT_PREFUND_ENABLED',
  'FEATURE_NAME_SWAP_CONFIG',
  'FEATURE_NAME_EARN_CONFIG',
] as const;
export const ZFeatureNameSchema = z.enum(FEATURE_NAMES);
export type TFeatureName = z.infer<typeof ZFeatureNameSchema>;

/**
 * Schemes of the API-key stamp (`X-Stamp`), also recorded as a vote's `scheme`. The wire type of
 * `vote.scheme` is a plain string, so this list can grow without breaking clients.
 */
export const SIGNATURE_SCHEMES = [
  'SIGNATURE_SCHEME_TK_API_P256',
  'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
  'SIGNATURE_SCHEME_TK_API_ED25519',
] as const;
export const ZSignatureSchemeSchema = z.enum(SIGNATURE_SCHEMES);
export type TSignatureScheme = z.infer<typeof ZSignatureSchemeSchema>;

/** Scheme of an enclave app proof (`activity.appProofs[].scheme`); distinct from the stamp schemes. */
export const APP_PROOF_SCHEMES = ['SIGNATURE_SCHEME_EPHEMERAL_KEY_P256'] as const;
export const ZAppProofSchemeSchema = z.enum(APP_PROOF_SCHEMES);
export type TAppProofScheme = z.infer<typeof ZAppProofSchemeSchema>;

// Enums below appear only inside records of `get_organization` (users, invitations, tags).

export const AUTHENTICATION_TYPES = [
  'AUTHENTICATION_TYPE_EMAIL_OTP',
  'AUTHENTICATION_TYPE_SMS_OTP',
  'AUTHENTICATION_TYPE_PASSKEY',
  'AUTHENTICATION_TYPE_API_KEY',
  'AUTHENTICATION_TYPE_OAUTH',
  'AUTHENTICATION_TYPE_SESSION',
] as const;
export const ZAuthenticationTypeSchema = z.enum(AUTHENTICATION_TYPES);
export type TAuthenticationType = z.infer<typeof ZAuthenticationTypeSchema>;

export const ACCESS_TYPES = ['ACCESS_TYPE_WEB', 'ACCESS_TYPE_API', 'ACCESS_TYPE_ALL'] as const;
export const ZAccessTypeSchema = z.enum(ACCESS_TYPES);
export type TAccessType = z.infer<typeof ZAccessTypeSchema>;

export const INVITATION_STATUSES = [
  'INVITATION_STATUS_CREATED',
  'INVITATION_STATUS_ACCEPTED',
  'INVITATION_STATUS_REVOKED',
] as const;
export const ZInvitationStatusSchema = z.enum(INVITATION_STATUSES);
export type TInvitationStatus = z.infer<typeof ZInvitationStatusSchema>;

export const TAG_TYPES = ['TAG_TYPE_USER', 'TAG_TYPE_PRIVATE_KEY'] as const;
export const ZTagTypeSchema = z.enum(TAG_TYPES);
export type TTagType = z.infer<typeof ZTagTypeSchema>;
