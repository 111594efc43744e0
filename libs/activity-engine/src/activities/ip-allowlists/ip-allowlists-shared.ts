/** What set_ip_allowlist and remove_ip_allowlist share: finding the API key a list is for. */
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../../engine/activity-definition.js';

/**
 * The stored form of an intent's `publicKey` (lower-case hex), checked to be a live API key of the
 * organization: a list for a key that does not exist would never apply, and is most likely a typo.
 * @throws AppError NOT_FOUND naming the key
 */
export async function assertApiKeyOfOrganization(ctx: TActivityContext, publicKey: string): Promise<string> {
  const key = publicKey.toLowerCase();
  const found = await ctx.tx.credentials.findApiKeys([ctx.organizationId], key);
  if (found.length === 0) throw new AppError('NOT_FOUND', `no API key with public key ${key} in organization ${ctx.organizationId}`, { field: 'publicKey' });
  return key;
}
