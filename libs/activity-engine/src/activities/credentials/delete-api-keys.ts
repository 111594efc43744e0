/**
 * create_api_keys (V2) and delete_api_keys, plus the API-key checks create_users shares: every
 * public key is a valid point of its curve and appears once in the request (400 before anything is
 * recorded), and no live API key of the organization holds it already (one public key, one user —
 * so a stamp always names one principal). Adding or deleting keys tells every process's auth cache
 * through the change feed.
 */
import { AppError, ZDeleteApiKeysIntentSchema, type TDeleteApiKeysIntent, type TDeleteApiKeysResult, DELETE_API_KEYS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUserExists } from '../../identity/add-user-credentials.js';
import { exposeParams } from '@latchkey/policy';

export const deleteApiKeys: TActivityDefinition<TDeleteApiKeysIntent, TDeleteApiKeysResult> = {
  ...DELETE_API_KEYS_ACTIVITY,
  access: { selfService: true },
  params: ZDeleteApiKeysIntentSchema,
  policyParams: exposeParams({ userId: 'user_id', apiKeyIds: 'api_key_ids' }),
  async handle(ctx, p) {
    await assertUserExists(ctx, p.userId);
    const ids = [...new Set(p.apiKeyIds)];
    const deleted = await ctx.tx.credentials.deleteApiKeys(ctx.organizationId, p.userId, ids, ctx.now);
    const missing = ids.filter((id) => !deleted.includes(id));
    // Thrown after the delete: the error rolls the whole activity back.
    if (missing.length) throw new AppError('NOT_FOUND', `API keys not found for user ${p.userId}: ${missing.join(', ')}`, { userId: p.userId, apiKeyIds: missing });
    await ctx.tx.notifyChange('credential', p.userId);
    return { apiKeyIds: ids };
  },
};
