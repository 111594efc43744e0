/** The module-boundary check must fail on each kind of violation (and pass on clean code). */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkProject, cyclicComponents, importsOf } from '../check-boundaries.mjs';

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

  it('finds type-only imports and re-exports in every spelling', () => {
    const text = "import type { A } from './a.js';\nimport { type B, c } from './b.js';\nexport type { D } from './d.js';\nexport * as e from './e.js';\n";
    expect(importsOf(text)).toEqual(['./a.js', './b.js', './d.js', './e.js']);
  });

  it('finds each cyclic component once, self-imports included', () => {
    const g = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set<string>()],
      ['e', new Set(['e'])],
    ]);
    expect(cyclicComponents(g)).toEqual([['a', 'b', 'c'], ['e']]);
  });
});

/**
 * Fake repositories under test/fixtures: `clean` obeys every rule, `violations` breaks one rule per
 * project. Each is passed as the root, so messages name files relative to it.
 */
describe('check-boundaries on fixture trees', () => {
  const fixtures = join(import.meta.dirname, 'fixtures');
  const projectsOf = (root: string) => ['libs', 'apps', 'tools'].flatMap((kind) => readdirSync(join(root, kind), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `${kind}/${d.name}`));
  const inViolations = (project: string) => checkProject(join(fixtures, 'violations', project), join(fixtures, 'violations')) as string[];

  it('passes a clean tree: layers, app tables, shared flows, one resource across logins/<flow>', () => {
    const root = join(fixtures, 'clean');
    const projects = projectsOf(root);
    expect(projects.length).toBeGreaterThan(5);
    for (const p of projects) expect([p, checkProject(join(root, p), root)]).toEqual([p, []]);
  });

  it('fails an app importing a lib its table forbids', () => {
    expect(inViolations('apps/webhook-worker')).toEqual([
      'apps/webhook-worker/src/main.ts: [app-libs] @latchkey/webhook-worker may not import @latchkey/activity-engine: it delivers outbox events and runs no activity (allowed: @latchkey/persistence, @latchkey/crypto, @latchkey/http, @latchkey/domain, @latchkey/delivery)',
    ]);
  });

  it('fails the auth proxy importing persistence', () => {
    expect(inViolations('apps/auth-proxy')).toEqual([
      'apps/auth-proxy/src/main.ts: [app-libs] @latchkey/auth-proxy may not import @latchkey/persistence: the proxy is an HTTP client of the public API (allowed: @latchkey/http, @latchkey/domain, @latchkey/crypto)',
    ]);
  });

  it('fails a cycle made of type-only imports and re-exports, with its files in order', () => {
    const out = inViolations('libs/policy');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^libs\/policy\/src\/a\.ts: \[import-cycle\] libs\/policy\/src\/a\.ts → libs\/policy\/src\/b\.ts → libs\/policy\/src\/c\/index\.ts → libs\/policy\/src\/a\.ts;/);
  });

  it('fails an activity resource folder importing another', () => {
    const out = inViolations('libs/activity-engine');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/create-wallet\.ts: \[activity-resource\] activities\/wallets imports \.\.\/users\/find-user\.js of activities\/users/);
  });

  it('fails workspace dependencies declared but unused', () => {
    expect(inViolations('libs/persistence').map((p) => p.replace(/;.*/, ''))).toEqual([
      'libs/persistence/package.json: [unused-dependency] @latchkey/domain is declared but unused (imported nowhere in src or test)',
      'libs/persistence/package.json: [unused-dependency] @latchkey/crypto is declared but unused (imported nowhere in src or test)',
    ]);
  });

  it('fails a lib importing a tool, and a lib missing from the layer table', () => {
    expect(inViolations('libs/crypto').join('\n')).toMatch(/\[lib-layers\] @latchkey\/crypto may not import the tool @latchkey\/testkit: libs never import apps or tools \(allowed: @latchkey\/domain\)/);
    expect(inViolations('libs/ledger').join('\n')).toMatch(/\[unknown-project\] @latchkey\/ledger has no row in LIB_LAYERS/);
  });
});
