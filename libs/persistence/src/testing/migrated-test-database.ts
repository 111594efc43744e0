/**
 * A fresh database with every migration applied, opened for one test file of this library (the
 * repositories and the outbox against a real PostgreSQL). `close()` closes the pool, drops the
 * database and stops the embedded test cluster if this process started one. Kept out of
 * `@latchkey/persistence/testing`'s index: that entry opens no database itself, so the testkit and
 * the apps' tests that import it do not load Prisma through it.
 */
import { openDatabase, type TDatabase } from '../database.js';
import { runMigrations } from '../migrations/run-migrations.js';
import { createTestDatabase, stopTestPostgres } from './test-database.js';

export interface TMigratedTestDatabase {
  db: TDatabase;
  close(): Promise<void>;
}

/** @param max the pool's size (the file's most concurrent queries) */
export async function openMigratedTestDatabase(max: number): Promise<TMigratedTestDatabase> {
  const testDb = await createTestDatabase().catch(async (e: unknown) => {
    await stopTestPostgres();
    throw e;
  });
  let db: TDatabase | undefined;
  const close = async () => {
    await db?.close();
    await testDb.drop();
    await stopTestPostgres();
  };
  try {
    await runMigrations(testDb.url);
    db = openDatabase(testDb.url, { max });
  } catch (e) {
    await close().catch(() => undefined);
    throw e;
  }
  return { db, close };
}
