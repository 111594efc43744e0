/**
 * create_api_keys (V2) and delete_api_keys, plus the API-key checks create_users shares: every
 * public key is a valid point of its curve and appears once in the request (400 before anything is
 * recorded), and no live API key of the organization holds it already (one public key, one user —
 * so a stamp always names one principal). Adding or deleting keys tells every process's auth cache
 * through the change feed.
 */
import { AppError, type TCredentialApiKeyParams } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityContext } from '../engine/activity-definition.js';
import { assertApiKeysWellFormed, assertUserExists, checkCredentials, writeCredentials, type TLocatedApiKey } from './add-user-credentials.js';

export { assertApiKeysWellFormed, assertUserExists, type TLocatedApiKey };

/** An API key of a request with where it sits (`apiKeys[1]`, `users[0].apiKeys[1]`). */
/**
 * Refuses public keys some live API key of the organization already holds, saying whose it is.
 * @throws AppError 400
 */
export async function assertApiKeysUnused(ctx: TActivityContext, keys: readonly TLocatedApiKey[], forUserId?: string): Promise<void> {
  const publicKeys = assertApiKeysWellFormed(keys);
  const [taken] = await ctx.tx.credentials.findApiKeysByPublicKeys(ctx.organizationId, publicKeys);
  if (!taken) return;
  const path = keys[publicKeys.indexOf(taken.publicKey)]!.path;
  const owner = taken.userId === forUserId ? 'this user' : `user ${taken.userId}`;
  throw new AppError('BAD_REQUEST', `${path}: public key ${taken.publicKey} is already registered to ${owner} as API key ${taken.id}; a public key names one API key of the organization`, {
    field: `${path}.publicKey`,
    apiKeyId: taken.id,
  });
}

/**
 * Adds API keys to a user (already checked with `assertApiKeysUnused`) and tells every process's
 * auth cache. A concurrent activity registering the same key loses on the database's unique index.
 * @returns the new key ids, in request order
 * @throws AppError 400 when a concurrent activity took a public key first
 */
export async function addApiKeys(ctx: TActivityContext, userId: string, keys: readonly TLocatedApiKey[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const checked = await checkCredentials(ctx, { apiKeys: keys.map((k) => k.params) }, (_kind, i) => keys[i]?.path ?? `apiKeys[${i}]`, [ctx.organizationId]);
  let ids: string[];
  try {
    ({ apiKeyIds: ids } = await writeCredentials(ctx.tx, ctx.organizationId, userId, checked));
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('BAD_REQUEST', 'a public key of this request was registered by another activity at the same time; a public key names one API key of the organization');
    throw e;
  }
  await ctx.tx.notifyChange('credential', userId);
  return ids;
}

export const located = (p: { apiKeys: readonly TCredentialApiKeyParams[] }): TLocatedApiKey[] => p.apiKeys.map((params, i) => ({ path: `apiKeys[${i}]`, params }));
