import type { TSql } from '@latchkey/persistence';
import { describe, expect, it } from 'vitest';
import { createReadiness, migrationGap } from './readiness.js';

const fakeSql = (answer: () => string[]) => {
  let queries = 0;
  const sql: TSql = {
    async query<R>() {
      queries++;
      return { rows: answer().map((name) => ({ name })) as R[] };
    },
  };
  return { sql, queries: () => queries };
};

const reasonOf = (p: Promise<void>) => p.then(() => undefined, (e: Error) => e.message);

describe('readiness', () => {
  it('names pending and unknown migrations', () => {
    expect(migrationGap(['a', 'b'], ['a', 'b'])).toBeUndefined();
    expect(migrationGap(['a', 'b', 'c'], ['a'])).toBe('2 migration(s) not applied yet (b, c)');
    expect(migrationGap(['a'], ['a', 'z'])).toMatch(/does not know \(z\): it was migrated by a newer Latchkey/);
  });

  it('is ready when the applied migrations are this build’s, and reuses an answer for reuseMs', async () => {
    let t = 0;
    let applied = ['0001', '0002'];
    const { sql, queries } = fakeSql(() => applied);
    const ready = createReadiness(sql, { expected: ['0001', '0002', '0003'], now: () => t });
    expect(await reasonOf(ready())).toBe('1 migration(s) not applied yet (0003)');
    applied = ['0001', '0002', '0003'];
    expect(await reasonOf(ready())).toBe('1 migration(s) not applied yet (0003)'); // reused
    expect(queries()).toBe(1);
    t = 1000;
    expect(await reasonOf(ready())).toBeUndefined();
    expect(queries()).toBe(2);
  });

  it('says the database cannot be reached, or was never migrated, without the driver’s detail', async () => {
    const down: TSql = { query: async () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })) };
    expect(await reasonOf(createReadiness(down, { expected: ['a'] })())).toBe('the database cannot be reached');
    const empty: TSql = { query: async () => Promise.reject(Object.assign(new Error('relation "latchkey_migrations" does not exist'), { code: '42P01' })) };
    expect(await reasonOf(createReadiness(empty, { expected: ['a'] })())).toBe('the database has no migrations applied');
  });

  it('reads this build’s migrations from prisma/migrations by default', async () => {
    const { sql } = fakeSql(() => []);
    expect(await reasonOf(createReadiness(sql)())).toMatch(/^\d+ migration\(s\) not applied yet \(0001/);
  });
});
