/**
 * create_api_keys (V2) and delete_api_keys, plus the API-key checks create_users shares: every
 * public key is a valid point of its curve and appears once in the request (400 before anything is
 * recorded), and no live API key of the organization holds it already (one public key, one user —
 * so a stamp always names one principal). Adding or deleting keys tells every process's auth cache
 * through the change feed.
 */
import { ZCreateApiKeysIntentSchema, type TCreateApiKeysIntent, type TCreateApiKeysResult, CREATE_API_KEYS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertApiKeysWellFormed, assertUserExists } from '../../identity/add-user-credentials.js';
import { addApiKeys, assertApiKeysUnused, located } from '../../identity/api-keys.js';
import { exposeParams } from '@latchkey/policy';

export const createApiKeys: TActivityDefinition<TCreateApiKeysIntent, TCreateApiKeysResult> = {
  ...CREATE_API_KEYS_ACTIVITY,
  access: { selfService: true },
  params: ZCreateApiKeysIntentSchema,
  policyParams: exposeParams({ userId: 'user_id' }),
  validate(p) {
    assertApiKeysWellFormed(located(p));
  },
  async handle(ctx, p) {
    await assertUserExists(ctx, p.userId);
    await assertApiKeysUnused(ctx, located(p), p.userId);
    return { apiKeyIds: await addApiKeys(ctx, p.userId, located(p)) };
  },
};
