import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '../testing/index.js';
import { loadMigrations, runMigrations, type TMigration } from './run-migrations.js';

const dbs: TTestDatabase[] = [];
async function freshDb(): Promise<string> {
  const db = await createTestDatabase();
  dbs.push(db);
  return db.url;
}
afterEach(async () => {
  while (dbs.length) await dbs.pop()!.drop();
});
afterAll(stopTestPostgres);

async function tables(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const r = await c.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
  await c.end();
  return r.rows.map((x) => x.t);
}

const extra: TMigration = { name: '9999_test_extra.sql', sql: 'CREATE TABLE test_extra (id int);', checksum: 'x'.repeat(64) };

describe('migration runner', () => {
  it('applies every migration to an empty database', async () => {
    const url = await freshDb();
    const all = await loadMigrations();
    const report = await runMigrations(url, all);
    expect(report.applied).toEqual(all.map((m) => m.name));
    const t = await tables(url);
    for (const name of ['organizations', 'users', 'api_keys', 'activities', 'wallets', 'wallet_accounts', 'outbox_events', 'latchkey_migrations']) {
      expect(t).toContain(name);
    }
  });

  it('applies only what is missing on a database one migration behind', async () => {
    const url = await freshDb();
    const all = await loadMigrations();
    await runMigrations(url, all);
    const report = await runMigrations(url, [...all, extra]);
    expect(report.applied).toEqual([extra.name]);
    expect(report.alreadyApplied).toEqual(all.map((m) => m.name));
    expect(await tables(url)).toContain('test_extra');
  });

  it('is a no-op when re-run', async () => {
    const url = await freshDb();
    await runMigrations(url);
    const again = await runMigrations(url);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied.length).toBeGreaterThan(0);
  });

  it('refuses to start when an applied migration changed', async () => {
    const url = await freshDb();
    const all = await loadMigrations();
    await runMigrations(url, all);
    const edited = all.map((m, i) => (i === 0 ? { ...m, checksum: '0'.repeat(64) } : m));
    await expect(runMigrations(url, edited)).rejects.toThrow(/was changed after it was applied/);
  });

  it('rolls a failing migration back whole', async () => {
    const url = await freshDb();
    const all = await loadMigrations();
    const bad: TMigration = { name: '9999_bad.sql', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();', checksum: 'b'.repeat(64) };
    await expect(runMigrations(url, [...all, bad])).rejects.toThrow(/9999_bad.sql failed/);
    expect(await tables(url)).not.toContain('half_done');
    const again = await runMigrations(url, all);
    expect(again.applied).toEqual([]);
  });

  it('serialises concurrent runners', async () => {
    const url = await freshDb();
    const results = await Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)]);
    const appliedCounts = results.map((r) => r.applied.length).sort();
    expect(appliedCounts[0]).toBe(0);
    expect(appliedCounts.reduce((a, b) => a + b, 0)).toBe(results[2]!.applied.length + results[2]!.alreadyApplied.length);
  });
});
