/**
 * prisma/schema.prisma and the SQL migrations describe the same database: every model's table
 * and column (by its @map name) exists after migrating, with matching nullability, and no
 * migrated table is missing from the schema. Prisma's own diffing engine is unavailable here, so
 * this is the guard against the two drifting apart.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, stopTestPostgres } from '../testing/index.js';
import { defaultMigrationsDir, runMigrations } from './run-migrations.js';

interface TColumn {
  table: string;
  column: string;
  nullable: boolean;
}

/** Scalar columns of every model in a Prisma schema (relations and block attributes skipped). */
function columnsOfSchema(text: string): { tables: string[]; columns: TColumn[] } {
  const tables: string[] = [];
  const columns: TColumn[] = [];
  for (const m of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const body = m[2]!;
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? m[1]!;
    tables.push(table);
    for (const line of body.split('\n')) {
      const f = /^\s*(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!f || line.trim().startsWith('@@') || line.trim().startsWith('//')) continue;
      const column = /@map\("([^"]+)"\)/.exec(f[5]!)?.[1] ?? f[1]!;
      columns.push({ table, column, nullable: f[4] === '?' });
    }
  }
  return { tables, columns };
}

afterAll(stopTestPostgres);

describe('schema.prisma and the SQL migrations', () => {
  it('describe the same tables and columns', async () => {
    const schemaPath = join(dirname(defaultMigrationsDir()), 'schema.prisma');
    const expected = columnsOfSchema(await readFile(schemaPath, 'utf8'));
    expect(expected.tables.length).toBeGreaterThan(30);

    const db = await createTestDatabase();
    try {
      await runMigrations(db.url);
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const { rows } = await c.query<{ table_name: string; column_name: string; is_nullable: string }>(
        "SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'latchkey_migrations'",
      );
      await c.end();
      const actual = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r.is_nullable === 'YES']));
      const wanted = new Map(expected.columns.map((col) => [`${col.table}.${col.column}`, col.nullable]));
      expect([...wanted.keys()].filter((k) => !actual.has(k)), 'in schema.prisma, missing from the SQL').toEqual([]);
      expect([...actual.keys()].filter((k) => !wanted.has(k)), 'in the SQL, missing from schema.prisma').toEqual([]);
      const nullability = [...wanted].filter(([k, n]) => actual.get(k) !== n).map(([k]) => k);
      expect(nullability, 'nullability differs').toEqual([]);
    } finally {
      await db.drop();
    }
  });
});
