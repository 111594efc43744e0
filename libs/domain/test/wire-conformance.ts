/**
 * Compile-time wire conformance against `@turnkey/http`'s generated types (checked by
 * `tsc -p tsconfig.json`; nothing runs). Two directions:
 * - requests: what the Turnkey client may send (`TurnkeyApiTypes['v1…Request']`) must be accepted by
 *   our schema's input type (`z.input`), unknown extra fields included;
 * - responses: what our schema produces (`z.output`) must satisfy the client's `v1…Response`.
 * Enums are checked both ways, so a value added or dropped on either side fails the build.
 */
import type { TurnkeyApiTypes as T } from '@turnkey/http';
import type { z } from 'zod';
import type * as SG from '../src/activities/signing.js';
import type * as EI from '../src/activities/export-import.js';
import type * as PK from '../src/activities/private-keys.js';
import type * as US from '../src/activities/users.js';
import type {
  ZCreateWalletAccountsIntentSchema,
  ZCreateWalletAccountsResultSchema,
  ZDeleteWalletAccountsIntentSchema,
  ZDeleteWalletAccountsResultSchema,
  ZDeleteWalletsIntentSchema,
  ZDeleteWalletsResultSchema,
  ZUpdateWalletIntentSchema,
  ZUpdateWalletResultSchema,
} from '../src/activities/wallets.js';
import type { ZGetWalletAccountRequestSchema, ZGetWalletAccountResponseSchema } from '../src/queries.js';
import type {
  ZActivityRequestSchema,
  ZActivityResponseSchema,
  ZActivitySchema,
  ZVoteSchema,
} from '../src/activity.js';
import type {
  ZCreateWalletIntentSchema,
  ZCreateWalletRequestSchema,
  ZCreateWalletResultSchema,
  ZWalletAccountParamsSchema,
} from '../src/activities/create-wallet.js';
import type { ZPaginationOptionsSchema, ZTimestampSchema, ZUserSchema } from '../src/common.js';
import type {
  TAccessType,
  TActivityStatus,
  TAddressFormat,
  TApiKeyCurve,
  TAppProofScheme,
  TAuthenticationType,
  TAuthenticatorTransport,
  TCredentialType,
  TCurve,
  TEffect,
  TFeatureName,
  TInvitationStatus,
  TMnemonicLength,
  TPathFormat,
  TTagType,
  TVoteSelection,
} from '../src/enums.js';
import type {
  ZGetActivityRequestSchema,
  ZGetActivityResponseSchema,
  ZGetOrganizationRequestSchema,
  ZGetOrganizationResponseSchema,
  ZGetWalletRequestSchema,
  ZGetWalletResponseSchema,
  ZListActivitiesRequestSchema,
  ZListActivitiesResponseSchema,
  ZListWalletAccountsRequestSchema,
  ZListWalletAccountsResponseSchema,
  ZListWalletsRequestSchema,
  ZListWalletsResponseSchema,
  ZWalletAccountSchema,
  ZWhoamiRequestSchema,
  ZWhoamiResponseSchema,
} from '../src/queries.js';

type AssertAssignable<T extends U, U> = true;
/** Exactly the same type (both directions), e.g. the same set of enum values. */
type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type Expect<X extends true> = X;

type In<S extends z.ZodType> = z.input<S>;
type Out<S extends z.ZodType> = z.output<S>;

/** Sent by the client, accepted by our request schema. */
type Accepts<Turnkey extends In<S>, S extends z.ZodType> = true;
/** Produced by our response schema (`Out<…>`), accepted by the client's type. */
type Satisfies<Ours extends Turnkey, Turnkey> = true;

// ---------------------------------------------------------------------------------------------
// Enums: identical value sets.
// ---------------------------------------------------------------------------------------------

export type Enums = [
  Expect<Equals<TActivityStatus, T['v1ActivityStatus']>>,
  Expect<Equals<TCurve, T['v1Curve']>>,
  Expect<Equals<TPathFormat, T['v1PathFormat']>>,
  Expect<Equals<TAddressFormat, T['v1AddressFormat']>>,
  Expect<Equals<TApiKeyCurve, T['v1ApiKeyCurve']>>,
  Expect<Equals<TCredentialType, T['v1CredentialType']>>,
  Expect<Equals<TAuthenticatorTransport, T['v1AuthenticatorTransport']>>,
  Expect<Equals<TEffect, T['v1Effect']>>,
  Expect<Equals<TVoteSelection, T['v1Vote']['selection']>>,
  Expect<Equals<TFeatureName, T['v1FeatureName']>>,
  Expect<Equals<TAppProofScheme, T['externaldatav1SignatureScheme']>>,
  Expect<Equals<TAuthenticationType, T['v1AuthenticationType']>>,
  Expect<Equals<TAccessType, T['v1AccessType']>>,
  Expect<Equals<TInvitationStatus, T['v1InvitationStatus']>>,
  Expect<Equals<TTagType, T['v1TagType']>>,
  // The wire type is int32; ours narrows to the documented lengths.
  AssertAssignable<TMnemonicLength, NonNullable<T['v1CreateWalletIntent']['mnemonicLength']>>,
];

// ---------------------------------------------------------------------------------------------
// Shared records.
// ---------------------------------------------------------------------------------------------

export type Records = [
  Expect<Equals<Out<typeof ZTimestampSchema>, T['externaldatav1Timestamp']>>,
  Accepts<T['v1Pagination'], typeof ZPaginationOptionsSchema>,
  Satisfies<Out<typeof ZUserSchema>, T['v1User']>,
  Satisfies<Out<typeof ZWalletAccountSchema>, T['v1WalletAccount']>,
  Satisfies<Out<typeof ZVoteSchema>, T['v1Vote']>,
];

// ---------------------------------------------------------------------------------------------
// Activity envelope and object.
//
// One deliberate exception: our `activity.type` is `string`, because we echo whatever version
// string the client submitted, while the client types it as the `v1ActivityType` union. So the
// response checks compare everything but `type`, and check separately that every client type
// value fits ours.
// ---------------------------------------------------------------------------------------------

type WithoutType<A> = Omit<A, 'type'>;
type ActivityOut = Out<typeof ZActivitySchema>;

export type Activity = [
  // The generic envelope takes every activity request body of the client.
  Accepts<T['v1CreateWalletRequest'], typeof ZActivityRequestSchema>,
  Accepts<T['v1CreateUsersRequest'], typeof ZActivityRequestSchema>,
  Accepts<T['v1StampLoginRequest'], typeof ZActivityRequestSchema>,
  Accepts<T['v1CreateSubOrganizationRequest'], typeof ZActivityRequestSchema>,
  AssertAssignable<WithoutType<ActivityOut>, WithoutType<T['v1Activity']>>,
  AssertAssignable<T['v1ActivityType'], ActivityOut['type']>,
  AssertAssignable<
    { activity: WithoutType<Out<typeof ZActivityResponseSchema>['activity']> },
    { activity: WithoutType<T['v1ActivityResponse']['activity']> }
  >,
];

// ---------------------------------------------------------------------------------------------
// Queries.
// ---------------------------------------------------------------------------------------------

export type Queries = [
  Accepts<T['v1GetWhoamiRequest'], typeof ZWhoamiRequestSchema>,
  Satisfies<Out<typeof ZWhoamiResponseSchema>, T['v1GetWhoamiResponse']>,

  Accepts<T['v1GetActivityRequest'], typeof ZGetActivityRequestSchema>,
  AssertAssignable<
    { activity: WithoutType<Out<typeof ZGetActivityResponseSchema>['activity']> },
    { activity: WithoutType<T['v1ActivityResponse']['activity']> }
  >,

  Accepts<T['v1GetActivitiesRequest'], typeof ZListActivitiesRequestSchema>,
  AssertAssignable<
    { activities: WithoutType<Out<typeof ZListActivitiesResponseSchema>['activities'][number]>[] },
    { activities: WithoutType<T['v1GetActivitiesResponse']['activities'][number]>[] }
  >,

  Accepts<T['v1GetOrganizationRequest'], typeof ZGetOrganizationRequestSchema>,
  Satisfies<Out<typeof ZGetOrganizationResponseSchema>, T['v1GetOrganizationResponse']>,

  Accepts<T['v1GetWalletsRequest'], typeof ZListWalletsRequestSchema>,
  Satisfies<Out<typeof ZListWalletsResponseSchema>, T['v1GetWalletsResponse']>,

  Accepts<T['v1GetWalletRequest'], typeof ZGetWalletRequestSchema>,
  Satisfies<Out<typeof ZGetWalletResponseSchema>, T['v1GetWalletResponse']>,

  Accepts<T['v1GetWalletAccountsRequest'], typeof ZListWalletAccountsRequestSchema>,
  Satisfies<Out<typeof ZListWalletAccountsResponseSchema>, T['v1GetWalletAccountsResponse']>,
];

// ---------------------------------------------------------------------------------------------
// create_wallet.
// ---------------------------------------------------------------------------------------------

export type CreateWallet = [
  Accepts<T['v1CreateWalletRequest'], typeof ZCreateWalletRequestSchema>,
  Accepts<T['v1CreateWalletIntent'], typeof ZCreateWalletIntentSchema>,
  Accepts<T['v1WalletAccountParams'], typeof ZWalletAccountParamsSchema>,
  Satisfies<Out<typeof ZCreateWalletResultSchema>, T['v1CreateWalletResult']>,
  // What we echo back under `activity.intent.createWalletIntent` satisfies the client's type.
  Satisfies<Out<typeof ZCreateWalletIntentSchema>, T['v1CreateWalletIntent']>,
];

// ----- wallet activities and get_wallet_account (issue #3) -----
export type WalletActivities = [
  Accepts<T['v1CreateWalletAccountsIntent'], typeof ZCreateWalletAccountsIntentSchema>,
  Satisfies<Out<typeof ZCreateWalletAccountsResultSchema>, T['v1CreateWalletAccountsResult']>,
  Accepts<T['v1UpdateWalletIntent'], typeof ZUpdateWalletIntentSchema>,
  Satisfies<Out<typeof ZUpdateWalletResultSchema>, T['v1UpdateWalletResult']>,
  Accepts<T['v1DeleteWalletsIntent'], typeof ZDeleteWalletsIntentSchema>,
  Satisfies<Out<typeof ZDeleteWalletsResultSchema>, T['v1DeleteWalletsResult']>,
  Accepts<T['v1DeleteWalletAccountsIntent'], typeof ZDeleteWalletAccountsIntentSchema>,
  Satisfies<Out<typeof ZDeleteWalletAccountsResultSchema>, T['v1DeleteWalletAccountsResult']>,
  Accepts<T['v1GetWalletAccountRequest'], typeof ZGetWalletAccountRequestSchema>,
  Satisfies<Out<typeof ZGetWalletAccountResponseSchema>, T['v1GetWalletAccountResponse']>,
];

export type PrivateKeyActivities = [
  Accepts<T['v1CreatePrivateKeysIntentV2'], typeof PK.ZCreatePrivateKeysIntentSchema>,
  Satisfies<Out<typeof PK.ZCreatePrivateKeysResultSchema>, T['v1CreatePrivateKeysResultV2']>,
  Accepts<T['v1DeletePrivateKeysIntent'], typeof PK.ZDeletePrivateKeysIntentSchema>,
  Satisfies<Out<typeof PK.ZDeletePrivateKeysResultSchema>, T['v1DeletePrivateKeysResult']>,
  Accepts<T['v1CreatePrivateKeyTagIntent'], typeof PK.ZCreatePrivateKeyTagIntentSchema>,
  Satisfies<Out<typeof PK.ZCreatePrivateKeyTagResultSchema>, T['v1CreatePrivateKeyTagResult']>,
  Accepts<T['v1UpdatePrivateKeyTagIntent'], typeof PK.ZUpdatePrivateKeyTagIntentSchema>,
  Satisfies<Out<typeof PK.ZUpdatePrivateKeyTagResultSchema>, T['v1UpdatePrivateKeyTagResult']>,
  Accepts<T['v1DeletePrivateKeyTagsIntent'], typeof PK.ZDeletePrivateKeyTagsIntentSchema>,
  Satisfies<Out<typeof PK.ZDeletePrivateKeyTagsResultSchema>, T['v1DeletePrivateKeyTagsResult']>,
  Accepts<T['v1GetPrivateKeyRequest'], typeof PK.ZGetPrivateKeyRequestSchema>,
  Satisfies<Out<typeof PK.ZGetPrivateKeyResponseSchema>, T['v1GetPrivateKeyResponse']>,
  Accepts<T['v1GetPrivateKeysRequest'], typeof PK.ZListPrivateKeysRequestSchema>,
  Satisfies<Out<typeof PK.ZListPrivateKeysResponseSchema>, T['v1GetPrivateKeysResponse']>,
  Accepts<T['v1ListPrivateKeyTagsRequest'], typeof PK.ZListPrivateKeyTagsRequestSchema>,
  Satisfies<Out<typeof PK.ZListPrivateKeyTagsResponseSchema>, T['v1ListPrivateKeyTagsResponse']>,
];

export type SigningAndTransferActivities = [
  Accepts<T['v1SignRawPayloadIntentV2'], typeof SG.ZSignRawPayloadIntentSchema>,
  Satisfies<Out<typeof SG.ZSignatureSchema>, T['v1SignRawPayloadResult']>,
  Accepts<T['v1SignRawPayloadsIntent'], typeof SG.ZSignRawPayloadsIntentSchema>,
  Satisfies<Out<typeof SG.ZSignRawPayloadsResultSchema>, T['v1SignRawPayloadsResult']>,
  Accepts<T['v1SignTransactionIntentV2'], typeof SG.ZSignTransactionIntentSchema>,
  Satisfies<Out<typeof SG.ZSignTransactionResultSchema>, T['v1SignTransactionResult']>,
  Expect<Equals<SG.TPayloadEncoding, T['v1PayloadEncoding']>>,
  Expect<Equals<SG.THashFunction, T['v1HashFunction']>>,
  Expect<Equals<SG.TTransactionType, T['v1TransactionType']>>,
  Accepts<T['v1ExportWalletIntent'], typeof EI.ZExportWalletIntentSchema>,
  Satisfies<Out<typeof EI.ZExportWalletResultSchema>, T['v1ExportWalletResult']>,
  Accepts<T['v1ExportWalletAccountIntent'], typeof EI.ZExportWalletAccountIntentSchema>,
  Satisfies<Out<typeof EI.ZExportWalletAccountResultSchema>, T['v1ExportWalletAccountResult']>,
  Accepts<T['v1ExportPrivateKeyIntent'], typeof EI.ZExportPrivateKeyIntentSchema>,
  Satisfies<Out<typeof EI.ZExportPrivateKeyResultSchema>, T['v1ExportPrivateKeyResult']>,
  Accepts<T['v1InitImportWalletIntent'], typeof EI.ZInitImportIntentSchema>,
  Satisfies<Out<typeof EI.ZInitImportResultSchema>, T['v1InitImportWalletResult']>,
  Accepts<T['v1InitImportPrivateKeyIntent'], typeof EI.ZInitImportIntentSchema>,
  Satisfies<Out<typeof EI.ZInitImportResultSchema>, T['v1InitImportPrivateKeyResult']>,
  Accepts<T['v1ImportWalletIntent'], typeof EI.ZImportWalletIntentSchema>,
  Satisfies<Out<typeof EI.ZImportWalletResultSchema>, T['v1ImportWalletResult']>,
  Accepts<T['v1ImportPrivateKeyIntent'], typeof EI.ZImportPrivateKeyIntentSchema>,
  Satisfies<Out<typeof EI.ZImportPrivateKeyResultSchema>, T['v1ImportPrivateKeyResult']>,
  Expect<Equals<(typeof EI.MNEMONIC_LANGUAGES)[number], T['v1MnemonicLanguage']>>,
];

// ----- users, user tags and API keys (identity and login) -----
export type UserActivities = [
  Accepts<T['v1CreateUsersIntentV4'], typeof US.ZCreateUsersIntentSchema>,
  Accepts<T['v1CreateUsersIntentV3'], typeof US.ZCreateUsersIntentSchema>,
  Satisfies<Out<typeof US.ZCreateUsersResultSchema>, T['v1CreateUsersResult']>,
  Accepts<T['v1UpdateUserIntent'], typeof US.ZUpdateUserIntentSchema>,
  Satisfies<Out<typeof US.ZUpdateUserResultSchema>, T['v1UpdateUserResult']>,
  Accepts<T['v1DeleteUsersIntent'], typeof US.ZDeleteUsersIntentSchema>,
  Satisfies<Out<typeof US.ZDeleteUsersResultSchema>, T['v1DeleteUsersResult']>,
  Accepts<T['v1CreateUserTagIntent'], typeof US.ZCreateUserTagIntentSchema>,
  Satisfies<Out<typeof US.ZCreateUserTagResultSchema>, T['v1CreateUserTagResult']>,
  Accepts<T['v1UpdateUserTagIntent'], typeof US.ZUpdateUserTagIntentSchema>,
  Satisfies<Out<typeof US.ZUpdateUserTagResultSchema>, T['v1UpdateUserTagResult']>,
  Accepts<T['v1DeleteUserTagsIntent'], typeof US.ZDeleteUserTagsIntentSchema>,
  Satisfies<Out<typeof US.ZDeleteUserTagsResultSchema>, T['v1DeleteUserTagsResult']>,
  Accepts<T['v1CreateApiKeysIntentV2'], typeof US.ZCreateApiKeysIntentSchema>,
  Satisfies<Out<typeof US.ZCreateApiKeysResultSchema>, T['v1CreateApiKeysResult']>,
  Accepts<T['v1DeleteApiKeysIntent'], typeof US.ZDeleteApiKeysIntentSchema>,
  Satisfies<Out<typeof US.ZDeleteApiKeysResultSchema>, T['v1DeleteApiKeysResult']>,
  Accepts<T['v1GetUserRequest'], typeof US.ZGetUserRequestSchema>,
  Satisfies<Out<typeof US.ZGetUserResponseSchema>, T['v1GetUserResponse']>,
  Accepts<T['v1GetUsersRequest'], typeof US.ZListUsersRequestSchema>,
  Satisfies<Out<typeof US.ZListUsersResponseSchema>, T['v1GetUsersResponse']>,
  Accepts<T['v1ListUserTagsRequest'], typeof US.ZListUserTagsRequestSchema>,
  Satisfies<Out<typeof US.ZListUserTagsResponseSchema>, T['v1ListUserTagsResponse']>,
  Accepts<T['v1GetApiKeysRequest'], typeof US.ZGetApiKeysRequestSchema>,
  Satisfies<Out<typeof US.ZGetApiKeysResponseSchema>, T['v1GetApiKeysResponse']>,
  Accepts<T['v1GetApiKeyRequest'], typeof US.ZGetApiKeyRequestSchema>,
  Satisfies<Out<typeof US.ZGetApiKeyResponseSchema>, T['v1GetApiKeyResponse']>,
];
