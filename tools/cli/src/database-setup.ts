/**
 * Getting a migrated database for a CLI command: DATABASE_URL when set; otherwise the embedded
 * PostgreSQL of $LATCHKEY_DATA_DIR — the one a running launcher already serves, or a fresh start.
 */
import { findRunningEmbeddedPostgres, runMigrations, startEmbeddedPostgres, type TMigrationReport } from '@latchkey/persistence';
import type { TConfig } from '@latchkey/domain';

export interface TDatabaseHandle {
  url: string;
  embedded: boolean;
  migrations: TMigrationReport;
  /** Stops the embedded cluster if this handle started it. */
  release(): Promise<void>;
}

export async function openMigratedDatabase(
  config: TConfig,
  opts: { reuseRunning: boolean; log: (line: string) => void },
): Promise<TDatabaseHandle> {
  let url = config.databaseUrl;
  let release = async () => undefined as void;
  let embedded = false;
  if (!url) {
    embedded = true;
    const running = opts.reuseRunning ? await findRunningEmbeddedPostgres(config.dataDir) : undefined;
    const pg = running ?? (await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, onLog: opts.log, ...(config.embeddedPgTemplate ? { template: config.embeddedPgTemplate } : {}) }));
    url = pg.url;
    release = () => pg.stop();
  }
  try {
    const migrations = await runMigrations(url);
    return { url, embedded, migrations, release };
  } catch (e) {
    await release();
    throw e;
  }
}
