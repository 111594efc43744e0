/**
 * The key vault of a Latchkey process: its master key from LATCHKEY_MASTER_KEY, else
 * $LATCHKEY_DATA_DIR/master.key (created once, 0600). Every process that seals or opens anything
 * (the platform, the CLI, the webhook worker) opens it this one way.
 */
import { join, resolve } from 'node:path';
import type { TConfig } from '@latchkey/domain';
import { createKeyVault, loadOrCreateMasterKeyFile, parseMasterKey, type TKeyVault } from './key-vault.js';

/** @throws Error when the master key is malformed or its file cannot be read or created */
export async function loadVault(config: Pick<TConfig, 'masterKey' | 'dataDir'>): Promise<TKeyVault> {
  const key = config.masterKey ? parseMasterKey(config.masterKey) : await loadOrCreateMasterKeyFile(join(resolve(config.dataDir), 'master.key'));
  return createKeyVault(key);
}
