/**
 * Wire schemas of private keys and their tags: create_private_keys (V2), delete_private_keys,
 * create/update/delete private key tags, and the queries get_private_key, list_private_keys,
 * list_private_key_tags.
 */
import { z } from 'zod';
import { ZIdentifierSchema } from '../common.js';
import { ZAddressFormatSchema, ZCurveSchema } from '../enums.js';
import { ZPrivateKeySchema, ZTagSchema } from '../queries.js';
import { defineActivityWire } from '../activity.js';

const name = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const idList = (what: string, min = 1) => z.array(ZIdentifierSchema).min(min, `must list at least ${min} ${what}`).max(100, `must list at most 100 ${what}s`);

export const ZPrivateKeyParamsSchema = z.object({
  privateKeyName: name,
  curve: ZCurveSchema,
  /** Ids of existing private key tags to attach. */
  privateKeyTags: z.array(ZIdentifierSchema).max(100).default([]),
  addressFormats: z.array(ZAddressFormatSchema).max(40).default([]),
});
export type TPrivateKeyParams = z.output<typeof ZPrivateKeyParamsSchema>;

export const ZCreatePrivateKeysIntentSchema = z.object({
  privateKeys: z.array(ZPrivateKeyParamsSchema).min(1, 'must hold at least one private key').max(100, 'must hold at most 100 private keys'),
});
export type TCreatePrivateKeysIntent = z.output<typeof ZCreatePrivateKeysIntentSchema>;
export const ZCreatePrivateKeysResultSchema = z.object({
  privateKeys: z.array(z.object({ privateKeyId: ZIdentifierSchema, addresses: z.array(z.object({ format: ZAddressFormatSchema, address: z.string() })) })),
});
export type TCreatePrivateKeysResult = z.infer<typeof ZCreatePrivateKeysResultSchema>;

export const ZDeletePrivateKeysIntentSchema = z.object({ privateKeyIds: idList('private key id'), deleteWithoutExport: z.boolean().default(false) });
export type TDeletePrivateKeysIntent = z.output<typeof ZDeletePrivateKeysIntentSchema>;
export const ZDeletePrivateKeysResultSchema = z.object({ privateKeyIds: z.array(ZIdentifierSchema) });
export type TDeletePrivateKeysResult = z.infer<typeof ZDeletePrivateKeysResultSchema>;

export const ZCreatePrivateKeyTagIntentSchema = z.object({ privateKeyTagName: name, privateKeyIds: z.array(ZIdentifierSchema).max(100).default([]) });
export type TCreatePrivateKeyTagIntent = z.output<typeof ZCreatePrivateKeyTagIntentSchema>;
export const ZCreatePrivateKeyTagResultSchema = z.object({ privateKeyTagId: ZIdentifierSchema, privateKeyIds: z.array(ZIdentifierSchema) });
export type TCreatePrivateKeyTagResult = z.infer<typeof ZCreatePrivateKeyTagResultSchema>;

export const ZUpdatePrivateKeyTagIntentSchema = z.object({
  privateKeyTagId: ZIdentifierSchema,
  newPrivateKeyTagName: name.optional(),
  addPrivateKeyIds: z.array(ZIdentifierSchema).max(100).default([]),
  removePrivateKeyIds: z.array(ZIdentifierSchema).max(100).default([]),
});
export type TUpdatePrivateKeyTagIntent = z.output<typeof ZUpdatePrivateKeyTagIntentSchema>;
export const ZUpdatePrivateKeyTagResultSchema = z.object({ privateKeyTagId: ZIdentifierSchema });
export type TUpdatePrivateKeyTagResult = z.infer<typeof ZUpdatePrivateKeyTagResultSchema>;

export const ZDeletePrivateKeyTagsIntentSchema = z.object({ privateKeyTagIds: idList('private key tag id') });
export type TDeletePrivateKeyTagsIntent = z.output<typeof ZDeletePrivateKeyTagsIntentSchema>;
export const ZDeletePrivateKeyTagsResultSchema = z.object({ privateKeyTagIds: z.array(ZIdentifierSchema), privateKeyIds: z.array(ZIdentifierSchema) });
export type TDeletePrivateKeyTagsResult = z.infer<typeof ZDeletePrivateKeyTagsResultSchema>;

export const ZGetPrivateKeyRequestSchema = z.object({ organizationId: ZIdentifierSchema, privateKeyId: ZIdentifierSchema });
export type TGetPrivateKeyRequest = z.infer<typeof ZGetPrivateKeyRequestSchema>;
export const ZGetPrivateKeyResponseSchema = z.object({ privateKey: ZPrivateKeySchema });
export type TGetPrivateKeyResponse = z.infer<typeof ZGetPrivateKeyResponseSchema>;

export const ZListPrivateKeysRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TListPrivateKeysRequest = z.infer<typeof ZListPrivateKeysRequestSchema>;
export const ZListPrivateKeysResponseSchema = z.object({ privateKeys: z.array(ZPrivateKeySchema) });
export type TListPrivateKeysResponse = z.infer<typeof ZListPrivateKeysResponseSchema>;

export const ZListPrivateKeyTagsRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TListPrivateKeyTagsRequest = z.infer<typeof ZListPrivateKeyTagsRequestSchema>;
export const ZListPrivateKeyTagsResponseSchema = z.object({ privateKeyTags: z.array(ZTagSchema) });
export type TListPrivateKeyTagsResponse = z.infer<typeof ZListPrivateKeyTagsResponseSchema>;

/** Wire names of `create_private_key_tag`: every accepted `type`, with its intent and result keys. */
export const CREATE_PRIVATE_KEY_TAG_ACTIVITY = defineActivityWire('create_private_key_tag', [{ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', intentKey: 'createPrivateKeyTagIntent', resultKey: 'createPrivateKeyTagResult' }]);

/** Wire names of `create_private_keys`: every accepted `type`, with its intent and result keys. */
export const CREATE_PRIVATE_KEYS_ACTIVITY = defineActivityWire('create_private_keys', [{ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', intentKey: 'createPrivateKeysIntentV2', resultKey: 'createPrivateKeysResultV2' }]);

/** Wire names of `delete_private_key_tags`: every accepted `type`, with its intent and result keys. */
export const DELETE_PRIVATE_KEY_TAGS_ACTIVITY = defineActivityWire('delete_private_key_tags', [{ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS', intentKey: 'deletePrivateKeyTagsIntent', resultKey: 'deletePrivateKeyTagsResult' }]);

/** Wire names of `delete_private_keys`: every accepted `type`, with its intent and result keys. */
export const DELETE_PRIVATE_KEYS_ACTIVITY = defineActivityWire('delete_private_keys', [{ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', intentKey: 'deletePrivateKeysIntent', resultKey: 'deletePrivateKeysResult' }]);

/** Wire names of `update_private_key_tag`: every accepted `type`, with its intent and result keys. */
export const UPDATE_PRIVATE_KEY_TAG_ACTIVITY = defineActivityWire('update_private_key_tag', [{ type: 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG', intentKey: 'updatePrivateKeyTagIntent', resultKey: 'updatePrivateKeyTagResult' }]);
