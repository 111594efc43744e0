/**
 * Wire schemas of organizations and sessions: create_sub_organization (V7, V8),
 * delete_sub_organization, set/remove_organization_feature, stamp_login,
 * create_read_write_session (V2), and the queries list_suborgs and get_organization_configs.
 */
import { z } from 'zod';
import { emailAddress } from '../email-address.js';
import { ZIdentifierSchema, ZPaginationOptionsSchema } from '../common.js';
import { DEFAULT_MNEMONIC_LENGTH, ZFeatureNameSchema, ZMnemonicLengthSchema } from '../enums.js';
import { ZFeatureSchema, ZQuorumSchema } from '../queries.js';
import { ZWalletAccountParamsSchema } from './create-wallet.js';
import {
  ZAuthenticatorParamsV2Schema,
  ZClientSignatureSchema,
  ZCredentialApiKeyParamsSchema,
  ZExpirationSecondsSchema,
  ZOauthProviderParamsV2Schema,
} from './credentials.js';
import { defineActivityWire } from '../activity.js';

const name = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const email = emailAddress('must be an e-mail address');
const phone = z.string().regex(/^\+[1-9][0-9]{6,14}$/, 'must be an E.164 phone number such as +14155550100');

/** RootUserParamsV4 (V7) and V5 (V8): V5's OAuth providers may give claims instead of a token. */
export const ZRootUserParamsSchema = z.object({
  userName: name,
  userEmail: email.optional(),
  userPhoneNumber: phone.optional(),
  apiKeys: z.array(ZCredentialApiKeyParamsSchema).max(10).default([]),
  authenticators: z.array(ZAuthenticatorParamsV2Schema).max(10).default([]),
  oauthProviders: z.array(ZOauthProviderParamsV2Schema).max(10).default([]),
});
export type TRootUserParams = z.output<typeof ZRootUserParamsSchema>;

export const ZSubOrganizationWalletParamsSchema = z.object({
  walletName: name,
  accounts: z.array(ZWalletAccountParamsSchema).max(100),
  mnemonicLength: z.number().pipe(ZMnemonicLengthSchema).default(DEFAULT_MNEMONIC_LENGTH),
});

export const ZCreateSubOrganizationIntentSchema = z.object({
  subOrganizationName: name,
  rootUsers: z.array(ZRootUserParamsSchema).min(1, 'must hold at least one root user').max(20, 'must hold at most 20 root users'),
  rootQuorumThreshold: z.number().int('must be an integer').min(1, 'must be at least 1'),
  wallet: ZSubOrganizationWalletParamsSchema.optional(),
  disableEmailRecovery: z.boolean().optional(),
  disableEmailAuth: z.boolean().optional(),
  disableSmsAuth: z.boolean().optional(),
  disableOtpEmailAuth: z.boolean().optional(),
  verificationToken: z.string().min(1).max(8192).optional(),
  clientSignature: ZClientSignatureSchema.optional(),
});
export type TCreateSubOrganizationIntent = z.output<typeof ZCreateSubOrganizationIntentSchema>;
export interface TCreateSubOrganizationResult extends Record<string, unknown> {
  subOrganizationId: string;
  wallet?: { walletId: string; addresses: string[] };
  rootUserIds: string[];
}

export const ZDeleteSubOrganizationIntentSchema = z.object({ deleteWithoutExport: z.boolean().default(false) });
export type TDeleteSubOrganizationIntent = z.output<typeof ZDeleteSubOrganizationIntentSchema>;
export interface TDeleteSubOrganizationResult extends Record<string, unknown> {
  subOrganizationUuid: string;
}

export const ZSetOrganizationFeatureIntentSchema = z.object({ name: ZFeatureNameSchema, value: z.string().max(4096).default('') });
export type TSetOrganizationFeatureIntent = z.output<typeof ZSetOrganizationFeatureIntentSchema>;
export const ZRemoveOrganizationFeatureIntentSchema = z.object({ name: ZFeatureNameSchema });
export type TRemoveOrganizationFeatureIntent = z.output<typeof ZRemoveOrganizationFeatureIntentSchema>;
export const ZOrganizationFeaturesResultSchema = z.object({ features: z.array(ZFeatureSchema) });
export type TOrganizationFeaturesResult = z.infer<typeof ZOrganizationFeaturesResultSchema>;

/** A compressed P-256 public key in hex: what clients generate for sessions. */
export const ZCompressedP256HexSchema = z.string().regex(/^0[23][0-9a-fA-F]{64}$/, 'must be a compressed P-256 public key in hex (66 characters, 02/03 prefix)');
/** A P-256 public key in hex, compressed or uncompressed (HPKE targets). */
export const ZP256PublicKeyHexSchema = z
  .string()
  .regex(/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/, 'must be a P-256 public key in hex (compressed 02/03… or uncompressed 04…)');

export const ZStampLoginIntentSchema = z.object({
  publicKey: ZCompressedP256HexSchema,
  expirationSeconds: ZExpirationSecondsSchema.optional(),
  invalidateExisting: z.boolean().default(false),
  sessionProfileId: ZIdentifierSchema.optional(),
});
export type TStampLoginIntent = z.output<typeof ZStampLoginIntentSchema>;
export interface TSessionResult extends Record<string, unknown> {
  session: string;
}

export const ZCreateReadWriteSessionIntentSchema = z.object({
  targetPublicKey: ZP256PublicKeyHexSchema,
  userId: ZIdentifierSchema.optional(),
  apiKeyName: name.optional(),
  expirationSeconds: ZExpirationSecondsSchema.optional(),
  invalidateExisting: z.boolean().default(false),
});
export type TCreateReadWriteSessionIntent = z.output<typeof ZCreateReadWriteSessionIntentSchema>;
export interface TCreateReadWriteSessionResult extends Record<string, unknown> {
  organizationId: string;
  organizationName: string;
  userId: string;
  username: string;
  apiKeyId: string;
  credentialBundle: string;
}

/**
 * list_suborgs filters. `OIDC_CLAIMS` is a Latchkey extension: `filterValue` is the JSON
 * `{"iss","sub","aud"}` @turnkey/core sends to the auth proxy's /v1/account (notes §A2).
 */
export const SUB_ORG_FILTER_TYPES = ['EMAIL', 'PHONE_NUMBER', 'CREDENTIAL_ID', 'PUBLIC_KEY', 'OIDC_TOKEN', 'OIDC_CLAIMS', 'NAME', 'USERNAME', 'WALLET_ACCOUNT_ADDRESS'] as const;
export type TSubOrgFilterType = (typeof SUB_ORG_FILTER_TYPES)[number];

export const ZListSubOrgsRequestSchema = z
  .object({
    organizationId: ZIdentifierSchema,
    filterType: z.enum(SUB_ORG_FILTER_TYPES, { error: `must be one of ${SUB_ORG_FILTER_TYPES.join(', ')}` }).optional(),
    filterValue: z.string().min(1).max(16_384).optional(),
    paginationOptions: ZPaginationOptionsSchema.optional(),
  })
  .refine((r) => (r.filterType === undefined) === (r.filterValue === undefined), 'filterType and filterValue go together');
export type TListSubOrgsRequest = z.output<typeof ZListSubOrgsRequestSchema>;
export interface TListSubOrgsResponse {
  organizationIds: string[];
}

/** list_verified_suborgs filters: a contact the sub-organization's user proved with a verification token. */
export const VERIFIED_SUB_ORG_FILTER_TYPES = ['EMAIL', 'PHONE_NUMBER'] as const;

/** `v1GetVerifiedSubOrgIdsRequest`. */
export const ZListVerifiedSubOrgsRequestSchema = z
  .object({
    organizationId: ZIdentifierSchema,
    filterType: z.enum(VERIFIED_SUB_ORG_FILTER_TYPES, { error: `must be one of ${VERIFIED_SUB_ORG_FILTER_TYPES.join(', ')}` }).optional(),
    filterValue: z.string().min(1).max(16_384).optional(),
    paginationOptions: ZPaginationOptionsSchema.optional(),
  })
  .refine((r) => (r.filterType === undefined) === (r.filterValue === undefined), 'filterType and filterValue go together');
export type TListVerifiedSubOrgsRequest = z.output<typeof ZListVerifiedSubOrgsRequestSchema>;

export const ZGetOrganizationConfigsRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export interface TGetOrganizationConfigsResponse {
  configs: { features: z.infer<typeof ZFeatureSchema>[]; quorum: z.infer<typeof ZQuorumSchema> };
}

/** Wire names of `create_read_write_session`: every accepted `type`, with its intent and result keys. */
export const CREATE_READ_WRITE_SESSION_ACTIVITY = defineActivityWire('create_read_write_session', [{ type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2', intentKey: 'createReadWriteSessionIntentV2', resultKey: 'createReadWriteSessionResultV2' }]);

/** Wire names of `stamp_login`: every accepted `type`, with its intent and result keys. */
export const STAMP_LOGIN_ACTIVITY = defineActivityWire('stamp_login', [{ type: 'ACTIVITY_TYPE_STAMP_LOGIN', intentKey: 'stampLoginIntent', resultKey: 'stampLoginResult' }]);

/** Wire names of `create_sub_organization`: every accepted `type`, with its intent and result keys. */
export const CREATE_SUB_ORGANIZATION_ACTIVITY = defineActivityWire('create_sub_organization', [
    { type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', intentKey: 'createSubOrganizationIntentV8', resultKey: 'createSubOrganizationResultV8' },
    { type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7', intentKey: 'createSubOrganizationIntentV7', resultKey: 'createSubOrganizationResultV7' },
  ]);

/** Wire names of `delete_sub_organization`: every accepted `type`, with its intent and result keys. */
export const DELETE_SUB_ORGANIZATION_ACTIVITY = defineActivityWire('delete_sub_organization', [{ type: 'ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION', intentKey: 'deleteSubOrganizationIntent', resultKey: 'deleteSubOrganizationResult' }]);

/** Wire names of `remove_organization_feature`: every accepted `type`, with its intent and result keys. */
export const REMOVE_ORGANIZATION_FEATURE_ACTIVITY = defineActivityWire('remove_organization_feature', [{ type: 'ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE', intentKey: 'removeOrganizationFeatureIntent', resultKey: 'removeOrganizationFeatureResult' }]);

/** Wire names of `set_organization_feature`: every accepted `type`, with its intent and result keys. */
export const SET_ORGANIZATION_FEATURE_ACTIVITY = defineActivityWire('set_organization_feature', [{ type: 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', intentKey: 'setOrganizationFeatureIntent', resultKey: 'setOrganizationFeatureResult' }]);

/** `update_organization_name`: renames the organization the request targets (root quorum only). */
export const ZUpdateOrganizationNameIntentSchema = z.object({
  organizationName: z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
});
export type TUpdateOrganizationNameIntent = z.output<typeof ZUpdateOrganizationNameIntentSchema>;
export interface TUpdateOrganizationNameResult extends Record<string, unknown> {
  organizationId: string;
  organizationName: string;
}

/** Wire names of `update_organization_name`. */
export const UPDATE_ORGANIZATION_NAME_ACTIVITY = defineActivityWire('update_organization_name', [
  { type: 'ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME', intentKey: 'updateOrganizationNameIntent', resultKey: 'updateOrganizationNameResult' },
]);
