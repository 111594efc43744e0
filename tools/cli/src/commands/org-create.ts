/** `latchkey org create --name N --user-name U --api-public-key HEX`: another root organization. */
import { createRootOrganization, type TCreatedOrganization } from '@latchkey/platform';
import { isCompressedP256PublicKey } from '@latchkey/crypto';
import type { TConfig } from '@latchkey/domain';
import { createStore, openDatabase } from '@latchkey/persistence';
import { openMigratedDatabase } from '../database-setup.js';
import { UsageError } from '../usage-error.js';

export async function orgCreateCommand(config: TConfig, flags: Record<string, string>): Promise<TCreatedOrganization> {
  const name = flags['name'];
  const userName = flags['user-name'];
  const apiPublicKey = flags['api-public-key']?.toLowerCase();
  if (!name || !userName || !apiPublicKey) throw new UsageError('org create needs --name, --user-name and --api-public-key');
  if (!isCompressedP256PublicKey(apiPublicKey)) throw new UsageError('--api-public-key must be a compressed P-256 public key in hex (66 characters, 02/03 prefix)');
  const database = await openMigratedDatabase(config, { reuseRunning: true, log: () => undefined });
  const db = openDatabase(database.url, { max: 2 });
  try {
    const store = createStore(db.prisma);
    return await store.transaction((tx) => createRootOrganization(tx, { organizationName: name, userName, apiPublicKey, ...(flags['user-email'] ? { userEmail: flags['user-email'] } : {}) }));
  } finally {
    await db.close();
    await database.release();
  }
}
