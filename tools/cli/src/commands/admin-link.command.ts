/**
 * `latchkey admin link`: a new one-time link to the admin console's setup (it replaces any earlier
 * one): whoever opens it within 15 minutes may register one passkey or API key for the bootstrap
 * root user. Prints `{"url": …, "expiresAt": …}`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseConfig, type TConfig } from '@latchkey/domain';
import { adminSetupUrl, issueAdminSetupToken } from '@latchkey/platform';
import { defineCommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';

/** @throws UsageError when there is no bootstrap.json with a root private key in the data folder */
export async function adminLinkCommand(config: TConfig): Promise<{ url: string; expiresAt: string }> {
  const dataDir = resolve(config.dataDir);
  const bootstrap = join(dataDir, 'bootstrap.json');
  if (!existsSync(bootstrap)) throw new UsageError(`${bootstrap} does not exist: start Latchkey once (npm start) with this LATCHKEY_DATA_DIR`);
  const boot = JSON.parse(readFileSync(bootstrap, 'utf8')) as { apiPrivateKey?: string };
  if (!boot.apiPrivateKey) {
    throw new UsageError('this installation was started with LATCHKEY_ROOT_API_PUBLIC_KEY: Latchkey never held the root private key, so a setup link cannot act for the root user; sign in with your key instead');
  }
  const { token, expiresAt } = await issueAdminSetupToken(dataDir);
  return { url: adminSetupUrl(config.host, config.adminPort, token), expiresAt: expiresAt.toISOString() };
}

export const adminLink = defineCommand<Record<string, never>>({
  name: 'admin link',
  summary: 'print a new one-time setup link to the admin console (15 minutes, single use)',
  details: 'Whoever opens the link may register one passkey or API key for the bootstrap root user. A new link replaces the previous one. Prints {"url": …, "expiresAt": …}.',
  run: (_o, { env }) => adminLinkCommand(parseConfig(env)),
});
