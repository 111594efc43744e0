/** Users and their credentials: lists and details; users and API keys created and deleted as activities. */
import {
  CREATE_API_KEYS_ACTIVITY,
  CREATE_USERS_ACTIVITY,
  DELETE_API_KEYS_ACTIVITY,
  DELETE_AUTHENTICATORS_ACTIVITY,
  DELETE_USERS_ACTIVITY,
  ZCreateApiKeysIntentSchema,
  ZCreateUsersIntentSchema,
  ZDeleteApiKeysIntentSchema,
  ZDeleteAuthenticatorsIntentSchema,
  ZDeleteUsersIntentSchema,
  ZGetUserRequestSchema,
  ZListUsersRequestSchema,
  type TGetUserResponse,
  type TListUsersResponse,
} from '@latchkey/domain';
import { engineQuery, engineSubmit } from '../trpc/engine-calls.js';
import { router } from '../trpc/init.js';

export const usersRouter = router({
  list: engineQuery<TListUsersResponse, typeof ZListUsersRequestSchema>('list_users', ZListUsersRequestSchema),
  get: engineQuery<TGetUserResponse, typeof ZGetUserRequestSchema>('get_user', ZGetUserRequestSchema),
  create: engineSubmit(CREATE_USERS_ACTIVITY, ZCreateUsersIntentSchema),
  delete: engineSubmit(DELETE_USERS_ACTIVITY, ZDeleteUsersIntentSchema),
  createApiKeys: engineSubmit(CREATE_API_KEYS_ACTIVITY, ZCreateApiKeysIntentSchema),
  deleteApiKeys: engineSubmit(DELETE_API_KEYS_ACTIVITY, ZDeleteApiKeysIntentSchema),
  deleteAuthenticators: engineSubmit(DELETE_AUTHENTICATORS_ACTIVITY, ZDeleteAuthenticatorsIntentSchema),
});
