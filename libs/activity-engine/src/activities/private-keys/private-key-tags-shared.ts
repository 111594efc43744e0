/**
 * Private key tags: create_private_key_tag, update_private_key_tag (rename, add and remove keys)
 * and delete_private_key_tags (whose result also lists the keys that carried the tags).
 */
import { AppError } from '@latchkey/domain';
import { type TRepositories } from '@latchkey/persistence';

export async function assertKeysExist(tx: TRepositories, organizationId: string, ids: string[]): Promise<void> {
  const found = await tx.privateKeys.findByIds(organizationId, ids);
  const missing = ids.filter((id) => !found.some((k) => k.id === id));
  if (missing.length) throw new AppError('NOT_FOUND', `private keys not found: ${missing.join(', ')}`, { privateKeyIds: missing });
}

export const uniqueName = (name: string) => new AppError('BAD_REQUEST', `private key tag name must be unique: ${JSON.stringify(name)} already exists`, { field: 'privateKeyTagName' });
