/**
 * `latchkey migrate`: applies migrations and the installation's one-time steps, then exits.
 * For scale-out deployments that migrate before rolling out app processes.
 */
import { join, resolve } from 'node:path';
import { assertVaultKey, bootstrapInstallation, ensureServerKeys, loadVault } from '@latchkey/platform';
import type { TConfig } from '@latchkey/domain';
import { createStore, ensureWebhookSigningKey, openDatabase, webhookSigningKeyRepository } from '@latchkey/persistence';
import { writeBootstrapFile } from '../bootstrap-file.js';
import { openMigratedDatabase } from '../database-setup.js';

export async function migrateCommand(config: TConfig): Promise<unknown> {
  const database = await openMigratedDatabase(config, { reuseRunning: true, log: () => undefined });
  const db = openDatabase(database.url, { max: 2 });
  try {
    const vault = await loadVault(config);
    const store = createStore(db.prisma);
    await assertVaultKey(store, vault);
    const keys = await ensureServerKeys(store, vault);
    // The webhook signing key exists from the first start, so the JWKS route publishes it before any worker runs.
    await ensureWebhookSigningKey(webhookSigningKeyRepository(db), vault);
    const boot = await bootstrapInstallation(store, { rootApiPublicKey: config.rootApiPublicKey });
    if (boot.created) await writeBootstrapFile(join(resolve(config.dataDir), 'bootstrap.json'), boot, keys);
    return { applied: database.migrations.applied, rootOrganizationId: boot.organizationId, rootOrganizationCreated: boot.created };
  } finally {
    await db.close();
    await database.release();
  }
}
