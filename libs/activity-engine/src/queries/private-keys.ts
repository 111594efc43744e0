/** get_private_key, list_private_keys and list_private_key_tags. */
import {
  AppError,
  ZGetPrivateKeyRequestSchema,
  ZListPrivateKeysRequestSchema,
  ZListPrivateKeyTagsRequestSchema,
  type TGetPrivateKeyRequest,
  type TGetPrivateKeyResponse,
  type TListPrivateKeysRequest,
  type TListPrivateKeysResponse,
  type TListPrivateKeyTagsRequest,
  type TListPrivateKeyTagsResponse,
} from '@latchkey/domain';
import { privateKeyTagToWire, privateKeyToWire } from '../engine/serialize.js';
import type { TQueryDefinition } from './query-definition.js';

export const getPrivateKey: TQueryDefinition<TGetPrivateKeyRequest, TGetPrivateKeyResponse> = {
  path: 'get_private_key',
  request: ZGetPrivateKeyRequestSchema,
  async handle(ctx, req) {
    const k = await ctx.store.privateKeys.findById(ctx.organization.id, req.privateKeyId);
    if (!k) throw new AppError('NOT_FOUND', `private key not found: ${req.privateKeyId}`, { privateKeyId: req.privateKeyId });
    return { privateKey: privateKeyToWire(k) };
  },
};

export const listPrivateKeys: TQueryDefinition<TListPrivateKeysRequest, TListPrivateKeysResponse> = {
  path: 'list_private_keys',
  request: ZListPrivateKeysRequestSchema,
  async handle(ctx) {
    return { privateKeys: (await ctx.store.privateKeys.list(ctx.organization.id)).map(privateKeyToWire) };
  },
};

export const listPrivateKeyTags: TQueryDefinition<TListPrivateKeyTagsRequest, TListPrivateKeyTagsResponse> = {
  path: 'list_private_key_tags',
  request: ZListPrivateKeyTagsRequestSchema,
  async handle(ctx) {
    const tags = await ctx.store.privateKeys.listTags(ctx.organization.id);
    return { privateKeyTags: tags.map(privateKeyTagToWire) };
  },
};
