/**
 * get_user, list_users, list_user_tags, get_api_keys and get_api_key, plus (in engine/serialize.ts) `wireUsers`, the one
 * loader of users with their credentials and tags (get_organization uses it too).
 */
import {
  AppError,
  ZGetApiKeyRequestSchema,
  ZGetApiKeysRequestSchema,
  ZGetUserRequestSchema,
  ZListUsersRequestSchema,
  ZListUserTagsRequestSchema,
  type TGetApiKeyRequest,
  type TGetApiKeyResponse,
  type TGetApiKeysRequest,
  type TGetApiKeysResponse,
  type TGetUserRequest,
  type TGetUserResponse,
  type TListUsersRequest,
  type TListUsersResponse,
  type TListUserTagsRequest,
  type TListUserTagsResponse,
  type TUser,
} from '@latchkey/domain';
import type { TRepositories, User } from '@latchkey/persistence';
import { apiKeyToWire, userTagToWire, wireUsers } from '../engine/serialize.js';
import type { TQueryDefinition } from './query-definition.js';

const userNotFound = (userId: string) => new AppError('NOT_FOUND', `user not found: ${userId}`, { userId });

export const getUser: TQueryDefinition<TGetUserRequest, TGetUserResponse> = {
  path: 'get_user',
  request: ZGetUserRequestSchema,
  async handle(ctx, req) {
    const user = await ctx.store.users.findById(ctx.organization.id, req.userId);
    if (!user) throw userNotFound(req.userId);
    const [wire] = await wireUsers(ctx.store, ctx.organization.id, [user]);
    return { user: wire! };
  },
};

export const listUsers: TQueryDefinition<TListUsersRequest, TListUsersResponse> = {
  path: 'list_users',
  request: ZListUsersRequestSchema,
  async handle(ctx) {
    const users = await ctx.store.users.listByOrganization(ctx.organization.id);
    return { users: await wireUsers(ctx.store, ctx.organization.id, users, true) };
  },
};

export const listUserTags: TQueryDefinition<TListUserTagsRequest, TListUserTagsResponse> = {
  path: 'list_user_tags',
  request: ZListUserTagsRequestSchema,
  async handle(ctx) {
    return { userTags: (await ctx.store.users.listTags(ctx.organization.id)).map(userTagToWire) };
  },
};

export const getApiKeys: TQueryDefinition<TGetApiKeysRequest, TGetApiKeysResponse> = {
  path: 'get_api_keys',
  request: ZGetApiKeysRequestSchema,
  async handle(ctx, req) {
    if (req.userId !== undefined && !(await ctx.store.users.findById(ctx.organization.id, req.userId))) throw userNotFound(req.userId);
    const keys = await ctx.store.credentials.listApiKeysByOrganization(ctx.organization.id, req.userId === undefined ? undefined : [req.userId]);
    return { apiKeys: keys.map(apiKeyToWire) };
  },
};

export const getApiKey: TQueryDefinition<TGetApiKeyRequest, TGetApiKeyResponse> = {
  path: 'get_api_key',
  request: ZGetApiKeyRequestSchema,
  async handle(ctx, req) {
    const key = await ctx.store.credentials.findApiKeyById(ctx.organization.id, req.apiKeyId);
    if (!key) throw new AppError('NOT_FOUND', `API key not found: ${req.apiKeyId}`, { apiKeyId: req.apiKeyId });
    return { apiKey: apiKeyToWire(key) };
  },
};
