/**
 * Query endpoints (`POST /public/v1/query/<name>`): one request and one response schema each, plus
 * the records they return. Request schemas strip keys they do not know (newer clients may send
 * fields we have not modelled yet); response schemas list every field we produce.
 */
import { z } from 'zod';
import { ZActivityResponseSchema, ZActivitySchema, ZActivityTypeSchema } from './activity.js';
import { ZIdentifierSchema, ZPaginationOptionsSchema, ZTimestampSchema, ZUserSchema } from './common.js';
import {
  ZAccessTypeSchema,
  ZActivityStatusSchema,
  ZAddressFormatSchema,
  ZCurveSchema,
  ZEffectSchema,
  ZFeatureNameSchema,
  ZInvitationStatusSchema,
  ZPathFormatSchema,
  ZTagTypeSchema,
} from './enums.js';

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

/** A wallet (swagger `v1Wallet`); also the `walletDetails` of a wallet account. */
export const ZWalletSchema = z.object({
  walletId: ZIdentifierSchema,
  walletName: z.string(),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
  exported: z.boolean(),
  imported: z.boolean(),
});
export type TWallet = z.infer<typeof ZWalletSchema>;

/** `walletAccount.walletDetails`: the same shape as a wallet, all fields required. */
export const ZWalletDetailsSchema = ZWalletSchema;
export type TWalletDetails = TWallet;

/** A wallet account (swagger `v1WalletAccount`). */
export const ZWalletAccountSchema = z.object({
  walletAccountId: ZIdentifierSchema,
  organizationId: ZIdentifierSchema,
  walletId: ZIdentifierSchema,
  curve: ZCurveSchema,
  pathFormat: ZPathFormatSchema,
  path: z.string(),
  addressFormat: ZAddressFormatSchema,
  address: z.string(),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
  publicKey: z.string().optional(),
  /** Present only when the request set `includeWalletDetails`. */
  walletDetails: ZWalletDetailsSchema.optional(),
  name: z.string().optional(),
  /** CAIP-2 namespace of the chains the account serves, e.g. `eip155` or `solana`. */
  caip2Prefix: z.string().optional(),
});
export type TWalletAccount = z.infer<typeof ZWalletAccountSchema>;

export const ZPolicySchema = z.object({
  policyId: ZIdentifierSchema,
  policyName: z.string(),
  effect: ZEffectSchema,
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
  notes: z.string(),
  consensus: z.string(),
  condition: z.string(),
  time: z.string().optional(),
});
export type TPolicy = z.infer<typeof ZPolicySchema>;

export const ZPrivateKeyAddressSchema = z.object({
  format: ZAddressFormatSchema.optional(),
  address: z.string().optional(),
});
export type TPrivateKeyAddress = z.infer<typeof ZPrivateKeyAddressSchema>;

export const ZPrivateKeySchema = z.object({
  privateKeyId: ZIdentifierSchema,
  publicKey: z.string(),
  privateKeyName: z.string(),
  curve: ZCurveSchema,
  addresses: z.array(ZPrivateKeyAddressSchema),
  privateKeyTags: z.array(z.string()),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
  exported: z.boolean(),
  imported: z.boolean(),
});
export type TPrivateKey = z.infer<typeof ZPrivateKeySchema>;

export const ZInvitationSchema = z.object({
  invitationId: ZIdentifierSchema,
  receiverUserName: z.string(),
  receiverEmail: z.string(),
  receiverUserTags: z.array(z.string()),
  accessType: ZAccessTypeSchema,
  status: ZInvitationStatusSchema,
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
  senderUserId: ZIdentifierSchema,
});
export type TInvitation = z.infer<typeof ZInvitationSchema>;

/** A user or private-key tag (swagger `datav1Tag`). */
export const ZTagSchema = z.object({
  tagId: ZIdentifierSchema,
  tagName: z.string(),
  tagType: ZTagTypeSchema,
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
});
export type TTag = z.infer<typeof ZTagSchema>;

/** The root quorum: `threshold` distinct approvals among `userIds` (an int32 on the wire). */
export const ZQuorumSchema = z.object({
  threshold: z.number().int(),
  userIds: z.array(ZIdentifierSchema),
});
export type TQuorum = z.infer<typeof ZQuorumSchema>;

export const ZFeatureSchema = z.object({
  name: ZFeatureNameSchema,
  value: z.string(),
});
export type TFeature = z.infer<typeof ZFeatureSchema>;

export const ZSmartContractInterfaceReferenceSchema = z.object({
  smartContractInterfaceId: z.string().optional(),
  smartContractAddress: z.string().optional(),
  digest: z.string().optional(),
});
export type TSmartContractInterfaceReference = z.infer<typeof ZSmartContractInterfaceReferenceSchema>;

/**
 * Everything attributable to one organization (swagger `v1OrganizationData`). Every field is
 * optional in the swagger; we always produce all of them so clients never see a missing list.
 */
export const ZOrganizationDataSchema = z.object({
  organizationId: ZIdentifierSchema,
  name: z.string(),
  users: z.array(ZUserSchema),
  policies: z.array(ZPolicySchema),
  privateKeys: z.array(ZPrivateKeySchema),
  invitations: z.array(ZInvitationSchema),
  tags: z.array(ZTagSchema),
  rootQuorum: ZQuorumSchema,
  features: z.array(ZFeatureSchema),
  wallets: z.array(ZWalletSchema),
  smartContractInterfaceReferences: z.array(ZSmartContractInterfaceReferenceSchema),
});
export type TOrganizationData = z.infer<typeof ZOrganizationDataSchema>;

// ---------------------------------------------------------------------------------------------
// whoami
// ---------------------------------------------------------------------------------------------

export const ZWhoamiRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TWhoamiRequest = z.infer<typeof ZWhoamiRequestSchema>;

export const ZWhoamiResponseSchema = z.object({
  organizationId: ZIdentifierSchema,
  organizationName: z.string(),
  userId: ZIdentifierSchema,
  username: z.string(),
});
export type TWhoamiResponse = z.infer<typeof ZWhoamiResponseSchema>;

// ---------------------------------------------------------------------------------------------
// get_activity / list_activities
// ---------------------------------------------------------------------------------------------

export const ZGetActivityRequestSchema = z.object({
  organizationId: ZIdentifierSchema,
  activityId: ZIdentifierSchema,
});
export type TGetActivityRequest = z.infer<typeof ZGetActivityRequestSchema>;

export const ZGetActivityResponseSchema = ZActivityResponseSchema;
export type TGetActivityResponse = z.infer<typeof ZGetActivityResponseSchema>;

export const ZListActivitiesRequestSchema = z.object({
  organizationId: ZIdentifierSchema,
  filterByStatus: z.array(ZActivityStatusSchema).optional(),
  /** Any `ACTIVITY_TYPE_*` string, older versions included. */
  filterByType: z.array(ZActivityTypeSchema).optional(),
  /** Latchkey extension (the admin console's filter): only activities these users submitted. */
  filterByUserIds: z.array(ZIdentifierSchema).max(100).optional(),
  paginationOptions: ZPaginationOptionsSchema.optional(),
});
export type TListActivitiesRequest = z.infer<typeof ZListActivitiesRequestSchema>;

export const ZListActivitiesResponseSchema = z.object({ activities: z.array(ZActivitySchema) });
export type TListActivitiesResponse = z.infer<typeof ZListActivitiesResponseSchema>;

// ---------------------------------------------------------------------------------------------
// get_organization
// ---------------------------------------------------------------------------------------------

export const ZGetOrganizationRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TGetOrganizationRequest = z.infer<typeof ZGetOrganizationRequestSchema>;

export const ZGetOrganizationResponseSchema = z.object({ organizationData: ZOrganizationDataSchema });
export type TGetOrganizationResponse = z.infer<typeof ZGetOrganizationResponseSchema>;

// ---------------------------------------------------------------------------------------------
// list_wallets / get_wallet
// ---------------------------------------------------------------------------------------------

export const ZListWalletsRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TListWalletsRequest = z.infer<typeof ZListWalletsRequestSchema>;

export const ZListWalletsResponseSchema = z.object({ wallets: z.array(ZWalletSchema) });
export type TListWalletsResponse = z.infer<typeof ZListWalletsResponseSchema>;

export const ZGetWalletRequestSchema = z.object({
  organizationId: ZIdentifierSchema,
  walletId: ZIdentifierSchema,
});
export type TGetWalletRequest = z.infer<typeof ZGetWalletRequestSchema>;

export const ZGetWalletResponseSchema = z.object({ wallet: ZWalletSchema });
export type TGetWalletResponse = z.infer<typeof ZGetWalletResponseSchema>;

// ---------------------------------------------------------------------------------------------
// list_wallet_accounts
// ---------------------------------------------------------------------------------------------

export const ZListWalletAccountsRequestSchema = z.object({
  organizationId: ZIdentifierSchema,
  /** When omitted, the accounts of every wallet of the organization are listed. */
  walletId: ZIdentifierSchema.optional(),
  includeWalletDetails: z.boolean().default(false),
  paginationOptions: ZPaginationOptionsSchema.optional(),
});
export type TListWalletAccountsRequest = z.infer<typeof ZListWalletAccountsRequestSchema>;

export const ZListWalletAccountsResponseSchema = z.object({ accounts: z.array(ZWalletAccountSchema) });
export type TListWalletAccountsResponse = z.infer<typeof ZListWalletAccountsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// get_wallet_account
// ---------------------------------------------------------------------------------------------

/** One account of a wallet, by address or by path (both must match when both are given). */
export const ZGetWalletAccountRequestSchema = z
  .object({
    organizationId: ZIdentifierSchema,
    walletId: ZIdentifierSchema,
    address: z.string().min(1).max(256).optional(),
    path: z.string().min(1).max(256).optional(),
  })
  .refine((r) => r.address !== undefined || r.path !== undefined, { message: 'give the address or the path of the account' });
export type TGetWalletAccountRequest = z.infer<typeof ZGetWalletAccountRequestSchema>;

export const ZGetWalletAccountResponseSchema = z.object({ account: ZWalletAccountSchema });
export type TGetWalletAccountResponse = z.infer<typeof ZGetWalletAccountResponseSchema>;
