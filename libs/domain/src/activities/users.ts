/**
 * Wire schemas of users, user tags and API keys: create_users (V3, V4), update_user, delete_users,
 * create/update/delete user tags, create_api_keys (V2), delete_api_keys, and the queries get_user,
 * list_users, list_user_tags, get_api_keys and get_api_key. The credential parameters inside a
 * user (API keys, authenticators, OAuth providers) are the shared ones of `credentials.ts`.
 */
import { z } from 'zod';
import { emailAddress } from '../email-address.js';
import { ZApiKeySchema, ZIdentifierSchema, ZUserSchema } from '../common.js';
import { ZTagSchema } from '../queries.js';
import { ZAuthenticatorParamsV2Schema, ZCredentialApiKeyParamsSchema, ZOauthProviderParamsV2Schema } from './credentials.js';
import { defineActivityWire } from '../activity.js';

export const MAX_USERS_PER_ACTIVITY = 100;
export const MAX_API_KEYS_PER_ACTIVITY = 100;

const userName = z
  .string()
  .max(256, 'must be at most 256 characters')
  .refine((s) => s.trim().length > 0, 'must not be empty or blank')
  .refine((s) => !/\p{Cc}/u.test(s), 'must not contain control characters');
/** A user's name, as every activity that sets one checks it. */
export const ZUserNameSchema = userName;
const userEmail = emailAddress();
const userPhoneNumber = z.string().regex(/^\+[1-9][0-9]{6,14}$/, 'must be a phone number in E.164 format, such as +13214567890');
const tagName = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const idList = (what: string) =>
  z.array(ZIdentifierSchema).min(1, `must list at least one ${what}`).max(100, `must list at most 100 ${what}s`);
const optionalIdList = (what: string) => z.array(ZIdentifierSchema).max(100, `must list at most 100 ${what}s`).default([]);

// ---------------------------------------------------------------------------------------------
// create_users (V3, V4)
// ---------------------------------------------------------------------------------------------

/**
 * One user of create_users: `v1UserParamsV4` (V3 differs only in its OAuth provider shape, which
 * the shared provider schema accepts too). The arrays are required on the wire but "sent empty
 * when not needed", so an absent array reads as empty.
 */
export const ZUserParamsSchema = z.object({
  userName,
  userEmail: userEmail.optional(),
  userPhoneNumber: userPhoneNumber.optional(),
  apiKeys: z.array(ZCredentialApiKeyParamsSchema).max(MAX_API_KEYS_PER_ACTIVITY, `must hold at most ${MAX_API_KEYS_PER_ACTIVITY} API keys`).default([]),
  authenticators: z.array(ZAuthenticatorParamsV2Schema).max(10, 'must hold at most 10 authenticators').default([]),
  oauthProviders: z.array(ZOauthProviderParamsV2Schema).max(10, 'must hold at most 10 OAuth providers').default([]),
  /** Ids of existing user tags. */
  userTags: optionalIdList('user tag id'),
});
export type TUserParams = z.output<typeof ZUserParamsSchema>;

export const ZCreateUsersIntentSchema = z.object({
  users: z
    .array(ZUserParamsSchema)
    .min(1, 'must hold at least one user')
    .max(MAX_USERS_PER_ACTIVITY, `must hold at most ${MAX_USERS_PER_ACTIVITY} users`),
});
export type TCreateUsersIntent = z.output<typeof ZCreateUsersIntentSchema>;
export const ZCreateUsersResultSchema = z.object({ userIds: z.array(ZIdentifierSchema) });
export type TCreateUsersResult = z.infer<typeof ZCreateUsersResultSchema>;

// ---------------------------------------------------------------------------------------------
// update_user / delete_users
// ---------------------------------------------------------------------------------------------

/** `""` clears the field (as Turnkey's update_user_phone_number documents); absent leaves it. */
const clearable = (s: z.ZodType<string>, message: string) =>
  z
    .string()
    .refine((v) => v === '' || s.safeParse(v).success, `${message}, or "" to remove it`)
    .optional();

/**
 * `v1UpdateUserIntent`. Absent fields are left unchanged; `userEmail` / `userPhoneNumber` set to
 * `""` are removed. `userTagIds` replaces the user's tags when it lists any; the wire docs say to
 * send it empty "if not needed", so an empty list leaves the tags unchanged.
 */
export const ZUpdateUserIntentSchema = z.object({
  userId: ZIdentifierSchema,
  userName: userName.optional(),
  userEmail: clearable(userEmail, 'must be an e-mail address of at most 320 characters, such as alice@example.com'),
  userPhoneNumber: clearable(userPhoneNumber, 'must be a phone number in E.164 format, such as +13214567890'),
  userTagIds: optionalIdList('user tag id'),
});
export type TUpdateUserIntent = z.output<typeof ZUpdateUserIntentSchema>;
export const ZUpdateUserResultSchema = z.object({ userId: ZIdentifierSchema });
export type TUpdateUserResult = z.infer<typeof ZUpdateUserResultSchema>;

export const ZDeleteUsersIntentSchema = z.object({ userIds: idList('user id') });
export type TDeleteUsersIntent = z.output<typeof ZDeleteUsersIntentSchema>;
export const ZDeleteUsersResultSchema = z.object({ userIds: z.array(ZIdentifierSchema) });
export type TDeleteUsersResult = z.infer<typeof ZDeleteUsersResultSchema>;

// ---------------------------------------------------------------------------------------------
// User tags
// ---------------------------------------------------------------------------------------------

export const ZCreateUserTagIntentSchema = z.object({ userTagName: tagName, userIds: optionalIdList('user id') });
export type TCreateUserTagIntent = z.output<typeof ZCreateUserTagIntentSchema>;
export const ZCreateUserTagResultSchema = z.object({ userTagId: ZIdentifierSchema, userIds: z.array(ZIdentifierSchema) });
export type TCreateUserTagResult = z.infer<typeof ZCreateUserTagResultSchema>;

export const ZUpdateUserTagIntentSchema = z.object({
  userTagId: ZIdentifierSchema,
  newUserTagName: tagName.optional(),
  addUserIds: optionalIdList('user id'),
  removeUserIds: optionalIdList('user id'),
});
export type TUpdateUserTagIntent = z.output<typeof ZUpdateUserTagIntentSchema>;
export const ZUpdateUserTagResultSchema = z.object({ userTagId: ZIdentifierSchema });
export type TUpdateUserTagResult = z.infer<typeof ZUpdateUserTagResultSchema>;

export const ZDeleteUserTagsIntentSchema = z.object({ userTagIds: idList('user tag id') });
export type TDeleteUserTagsIntent = z.output<typeof ZDeleteUserTagsIntentSchema>;
/** The removed tags, and the users that carried any of them. */
export const ZDeleteUserTagsResultSchema = z.object({ userTagIds: z.array(ZIdentifierSchema), userIds: z.array(ZIdentifierSchema) });
export type TDeleteUserTagsResult = z.infer<typeof ZDeleteUserTagsResultSchema>;

// ---------------------------------------------------------------------------------------------
// API keys
// ---------------------------------------------------------------------------------------------

export const ZCreateApiKeysIntentSchema = z.object({
  apiKeys: z
    .array(ZCredentialApiKeyParamsSchema)
    .min(1, 'must hold at least one API key')
    .max(MAX_API_KEYS_PER_ACTIVITY, `must hold at most ${MAX_API_KEYS_PER_ACTIVITY} API keys`),
  userId: ZIdentifierSchema,
});
export type TCreateApiKeysIntent = z.output<typeof ZCreateApiKeysIntentSchema>;
export const ZCreateApiKeysResultSchema = z.object({ apiKeyIds: z.array(ZIdentifierSchema) });
export type TCreateApiKeysResult = z.infer<typeof ZCreateApiKeysResultSchema>;

export const ZDeleteApiKeysIntentSchema = z.object({ userId: ZIdentifierSchema, apiKeyIds: idList('API key id') });
export type TDeleteApiKeysIntent = z.output<typeof ZDeleteApiKeysIntentSchema>;
export const ZDeleteApiKeysResultSchema = z.object({ apiKeyIds: z.array(ZIdentifierSchema) });
export type TDeleteApiKeysResult = z.infer<typeof ZDeleteApiKeysResultSchema>;

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

export const ZGetUserRequestSchema = z.object({ organizationId: ZIdentifierSchema, userId: ZIdentifierSchema });
export type TGetUserRequest = z.infer<typeof ZGetUserRequestSchema>;
export const ZGetUserResponseSchema = z.object({ user: ZUserSchema });
export type TGetUserResponse = z.infer<typeof ZGetUserResponseSchema>;

/** `list_users` (the client's `getUsers`, `v1GetUsersRequest`). */
export const ZListUsersRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TListUsersRequest = z.infer<typeof ZListUsersRequestSchema>;
export const ZListUsersResponseSchema = z.object({ users: z.array(ZUserSchema) });
export type TListUsersResponse = z.infer<typeof ZListUsersResponseSchema>;

export const ZListUserTagsRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TListUserTagsRequest = z.infer<typeof ZListUserTagsRequestSchema>;
export const ZListUserTagsResponseSchema = z.object({ userTags: z.array(ZTagSchema) });
export type TListUserTagsResponse = z.infer<typeof ZListUserTagsResponseSchema>;

/** Every API key of the organization, or of one user when `userId` is given. */
export const ZGetApiKeysRequestSchema = z.object({ organizationId: ZIdentifierSchema, userId: ZIdentifierSchema.optional() });
export type TGetApiKeysRequest = z.infer<typeof ZGetApiKeysRequestSchema>;
export const ZGetApiKeysResponseSchema = z.object({ apiKeys: z.array(ZApiKeySchema) });
export type TGetApiKeysResponse = z.infer<typeof ZGetApiKeysResponseSchema>;

export const ZGetApiKeyRequestSchema = z.object({ organizationId: ZIdentifierSchema, apiKeyId: ZIdentifierSchema });
export type TGetApiKeyRequest = z.infer<typeof ZGetApiKeyRequestSchema>;
export const ZGetApiKeyResponseSchema = z.object({ apiKey: ZApiKeySchema });
export type TGetApiKeyResponse = z.infer<typeof ZGetApiKeyResponseSchema>;

/** Wire names of `create_api_keys`: every accepted `type`, with its intent and result keys. */
export const CREATE_API_KEYS_ACTIVITY = defineActivityWire('create_api_keys', [{ type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', intentKey: 'createApiKeysIntentV2', resultKey: 'createApiKeysResult' }]);

/** Wire names of `delete_api_keys`: every accepted `type`, with its intent and result keys. */
export const DELETE_API_KEYS_ACTIVITY = defineActivityWire('delete_api_keys', [{ type: 'ACTIVITY_TYPE_DELETE_API_KEYS', intentKey: 'deleteApiKeysIntent', resultKey: 'deleteApiKeysResult' }]);

/** Wire names of `create_user_tag`: every accepted `type`, with its intent and result keys. */
export const CREATE_USER_TAG_ACTIVITY = defineActivityWire('create_user_tag', [{ type: 'ACTIVITY_TYPE_CREATE_USER_TAG', intentKey: 'createUserTagIntent', resultKey: 'createUserTagResult' }]);

/** Wire names of `create_users`: every accepted `type`, with its intent and result keys. */
export const CREATE_USERS_ACTIVITY = defineActivityWire('create_users', [
    { type: 'ACTIVITY_TYPE_CREATE_USERS_V4', intentKey: 'createUsersIntentV4', resultKey: 'createUsersResult' },
    { type: 'ACTIVITY_TYPE_CREATE_USERS_V3', intentKey: 'createUsersIntentV3', resultKey: 'createUsersResult' },
  ]);

/** Wire names of `delete_user_tags`: every accepted `type`, with its intent and result keys. */
export const DELETE_USER_TAGS_ACTIVITY = defineActivityWire('delete_user_tags', [{ type: 'ACTIVITY_TYPE_DELETE_USER_TAGS', intentKey: 'deleteUserTagsIntent', resultKey: 'deleteUserTagsResult' }]);

/** Wire names of `delete_users`: every accepted `type`, with its intent and result keys. */
export const DELETE_USERS_ACTIVITY = defineActivityWire('delete_users', [{ type: 'ACTIVITY_TYPE_DELETE_USERS', intentKey: 'deleteUsersIntent', resultKey: 'deleteUsersResult' }]);

/** Wire names of `update_user_tag`: every accepted `type`, with its intent and result keys. */
export const UPDATE_USER_TAG_ACTIVITY = defineActivityWire('update_user_tag', [{ type: 'ACTIVITY_TYPE_UPDATE_USER_TAG', intentKey: 'updateUserTagIntent', resultKey: 'updateUserTagResult' }]);

/** Wire names of `update_user`: every accepted `type`, with its intent and result keys. */
export const UPDATE_USER_ACTIVITY = defineActivityWire('update_user', [{ type: 'ACTIVITY_TYPE_UPDATE_USER', intentKey: 'updateUserIntent', resultKey: 'updateUserResult' }]);
