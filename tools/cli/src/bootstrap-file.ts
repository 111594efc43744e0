/** `$LATCHKEY_DATA_DIR/bootstrap.json` (mode 0600): the first root organization's credentials. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TBootstrapResult, TServerPublicKeys } from '@latchkey/platform';

export interface TBootstrapFile extends TServerPublicKeys {
  organizationId: string;
  userId: string;
  apiKeyId: string;
  apiPublicKey: string;
  apiPrivateKey?: string;
}

export async function writeBootstrapFile(path: string, boot: TBootstrapResult, keys: TServerPublicKeys): Promise<TBootstrapFile> {
  const content: TBootstrapFile = {
    organizationId: boot.organizationId,
    userId: boot.userId,
    apiKeyId: boot.apiKeyId,
    apiPublicKey: boot.apiPublicKey,
    ...(boot.apiPrivateKey ? { apiPrivateKey: boot.apiPrivateKey } : {}),
    ...keys,
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(content, null, 2) + '\n', { mode: 0o600 });
  await chmod(path, 0o600);
  return content;
}
