/** The module-boundary check must fail on each kind of violation (and pass on clean code). */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkProject, importsOf } from '../check-boundaries.mjs';

const dirs: string[] = [];
afterEach(async () => {
  while (dirs.length) await rm(dirs.pop()!, { recursive: true, force: true });
});

async function project(name: string, deps: Record<string, string>, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'boundaries-'));
  dirs.push(dir);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, dependencies: deps }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const check = (dir: string) => checkProject(dir) as string[];

describe('check-boundaries', () => {
  it('passes clean code', async () => {
    const dir = await project('@latchkey/activity-engine', { '@latchkey/domain': '*' }, { 'src/a.ts': "import { x } from '@latchkey/domain';\nimport { y } from './b.js';\n" });
    expect(check(dir)).toEqual([]);
  });

  it('fails an app importing an app', async () => {
    const dir = await project('@latchkey/admin', { '@latchkey/public-api': '*' }, { 'src/a.ts': "import { buildPublicApi } from '@latchkey/public-api';\n" });
    expect(check(dir).join('\n')).toMatch(/apps never import apps/);
  });

  it('fails a lib importing an app or a lib above it', async () => {
    const dir = await project('@latchkey/crypto', { '@latchkey/public-api': '*', '@latchkey/persistence': '*' }, {
      'src/a.ts': "import x from '@latchkey/public-api';\nexport * from '@latchkey/persistence';\n",
    });
    const out = check(dir).join('\n');
    expect(out).toMatch(/nothing imports an app/);
    expect(out).toMatch(/@latchkey\/crypto may not import @latchkey\/persistence/);
  });

  it('fails Prisma imported outside libs/persistence', async () => {
    // Built from parts so this spec itself never contains the forbidden imports.
    const prisma = '@' + 'prisma';
    const dir = await project('@latchkey/activity-engine', {}, { 'src/a.ts': `import { PrismaClient } from '${prisma}/client';\nconst m = await import('${prisma}/adapter-pg');\n` });
    expect(check(dir).filter((p) => /only libs\/persistence/.test(p))).toHaveLength(2);
  });

  it('fails undeclared workspace imports, escaping relative imports and focused tests', async () => {
    const dir = await project('@latchkey/public-api', {}, {
      'src/a.ts': "import { z } from '@latchkey/domain';\nimport '../../elsewhere.js';\n",
      'test/a.spec.ts': `it.${'only'}('x', () => {});\n`,
    });
    const out = check(dir).join('\n');
    expect(out).toMatch(/does not declare/);
    expect(out).toMatch(/leaves the project/);
    expect(out).toMatch(/\.only\/\.skip/);
  });

  it('finds static, dynamic, side-effect and re-export imports', () => {
    expect(importsOf("import a from 'x';\nimport type { B } from \"y\";\nexport { c } from 'z';\nawait import('w');\nimport 'v';\n")).toEqual(['x', 'y', 'z', 'w', 'v']);
  });
});
