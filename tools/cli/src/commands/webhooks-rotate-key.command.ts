/**
 * `latchkey webhooks rotate-key [--grace-days N]`: a new webhook signing key. Workers sign with it
 * within seconds, without a restart; the previous key stays in the JWKS for the grace period, so
 * deliveries signed just before still verify and receivers have time to refetch (docs/WEBHOOKS.md).
 */
import { parseConfig, type TConfig } from '@latchkey/domain';
import { assertVaultKey, loadVault } from '@latchkey/platform';
import { createStore, openDatabase, rotateWebhookSigningKey, webhookSigningKeyRepository } from '@latchkey/persistence';
import { defineCommand } from '../cli-command.js';
import { openMigratedDatabase } from '../database-setup.js';
import { UsageError } from '../usage-error.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** 7 days: longer than the JWKS's one-day cache (`DEFAULT_WEBHOOK_KEY_GRACE_MS`). */
const DEFAULT_GRACE_DAYS = 7;

/** @throws UsageError unless `raw` is a number of days from 0 to 365. */
export function parseGraceDays(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_GRACE_DAYS;
  const days = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(days) || days < 0 || days > 365) throw new UsageError(`--grace-days must be a number of days from 0 to 365, got ${JSON.stringify(raw)}`);
  return days;
}

/**
 * Seals the new key under the master key after checking it is the installation's: a key sealed
 * under another master key would leave the workers unable to sign.
 * @throws Error when the master key is not the database's, or the database is unreachable.
 */
export async function webhooksRotateKeyCommand(config: TConfig, graceDays: number): Promise<{ keyId: string; retired: string[]; graceDays: number }> {
  const database = await openMigratedDatabase(config, { reuseRunning: true, log: () => undefined });
  const db = openDatabase(database.url, { max: 2 });
  try {
    const vault = await loadVault(config);
    await assertVaultKey(createStore(db.prisma), vault);
    const { keyId, retired } = await rotateWebhookSigningKey(webhookSigningKeyRepository(db), vault, graceDays * DAY_MS);
    return { keyId, retired, graceDays };
  } finally {
    await db.close();
    await database.release();
  }
}

export const webhooksRotateKey = defineCommand<{ graceDays?: string }>({
  name: 'webhooks rotate-key',
  summary: 'add a new webhook signing key; the old one stays published for the grace period',
  details: `Prints {"keyId", "retired", "graceDays"}: the new key's id (its JWKS kid) and the keys it replaced, which stay in /public/v1/discovery/webhooks/jwks for --grace-days (default ${DEFAULT_GRACE_DAYS}).`,
  options: [{ flags: '--grace-days <days>', description: `days the previous key stays published (default ${DEFAULT_GRACE_DAYS})` }],
  run: (o, { env }) => webhooksRotateKeyCommand(parseConfig(env), parseGraceDays(o.graceDays)),
});
