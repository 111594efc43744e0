#!/usr/bin/env node
// Builds @latchkey/testkit as a package that could be published on its own:
//  - dist/index.js (ESM), with the workspace libraries compiled in; npm packages stay imports
//    (the package's dependencies); dist/index.cjs (CommonJS, for Jest without transforms), a thin
//    client of the bin that loads node built-ins only;
//  - dist/latchkey.js, the `latchkey` bin;
//  - dist/runtime/: the launcher, the four apps and the migrations, laid out like a checkout
//    (latchkey-runtime.ts), so an installed testkit starts Latchkey without the repository; bundled
//    as tools/build-app.mjs bundles them for `npm start` (their npm packages inlined but for a few);
//  - dist/types/: declarations (tsc).
// Then it checks what it built: every npm package a bundle imports must be a declared dependency
// (or an optional peer), and no declaration may name a workspace package — a consumer has neither.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleProject } from '../../build-app.mjs';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(pkgDir, '..', '..');
const dist = join(pkgDir, 'dist');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

/** The launcher and the apps, as tools/build-app.mjs bundles them for `npm start`. */
const RUNTIME_PROJECTS = ['tools/cli', 'apps/public-api', 'apps/auth-proxy', 'apps/admin', 'apps/webhook-worker'];

/** Bare imports stay external, except the workspace's own libraries, which are compiled in. */
const externals = new Set();
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@latchkey/')) return undefined;
      externals.add(args.path);
      return { path: args.path, external: true };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  conditions: ['@latchkey/source'],
  plugins: [externalDependencies],
  logLevel: 'warning',
  legalComments: 'none',
};

rmSync(dist, { recursive: true, force: true });

await Promise.all([
  build({ ...common, entryPoints: [join(pkgDir, 'src/index.ts')], outfile: join(dist, 'index.js'), format: 'esm', sourcemap: true }),
  // CommonJS (Jest): a thin client of the bin, loading node built-ins only (src/cjs/index.ts).
  build({ ...common, entryPoints: [join(pkgDir, 'src/cjs/index.ts')], outfile: join(dist, 'index.cjs'), format: 'cjs', sourcemap: true }),
  build({ ...common, entryPoints: [join(pkgDir, 'src/bin/main.ts')], outfile: join(dist, 'latchkey.js'), format: 'esm' }),
  ...RUNTIME_PROJECTS.map((project) => bundleProject(join(root, project), { outDir: join(dist, 'runtime', project, 'dist'), sourcemap: false, onExternal: (spec) => externals.add(spec) })),
]);

chmodSync(join(dist, 'latchkey.js'), 0o755);

// The launcher recognises a checkout by apps/public-api/package.json.
writeFileSync(join(dist, 'runtime', 'apps', 'public-api', 'package.json'), JSON.stringify({ name: '@latchkey/public-api', private: true, type: 'module' }, null, 2) + '\n');
mkdirSync(join(dist, 'runtime', 'prisma', 'migrations'), { recursive: true });
for (const f of readdirSync(join(root, 'prisma', 'migrations')).filter((f) => f.endsWith('.sql'))) {
  cpSync(join(root, 'prisma', 'migrations', f), join(dist, 'runtime', 'prisma', 'migrations', f));
}

// --- checks -------------------------------------------------------------------------------------
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
// pg's native binding is optional: pg requires it only when asked for `pg.native`, which Latchkey never does.
const OPTIONAL = new Set(['pg-native']);
const undeclared = [...new Set([...externals].filter((s) => !builtins.has(s)).map(packageName))].filter((n) => !declared.has(n) && !OPTIONAL.has(n) && !n.startsWith('@latchkey/')).sort();
if (undeclared.length > 0) {
  console.error(`@latchkey/testkit: the bundles import npm packages package.json does not declare: ${undeclared.join(', ')}`);
  process.exit(1);
}
const internalDeps = Object.keys(pkg.dependencies ?? {}).filter((n) => n.startsWith('@latchkey/'));
if (internalDeps.length > 0) {
  console.error(`@latchkey/testkit: workspace packages must be devDependencies (they are compiled in): ${internalDeps.join(', ')}`);
  process.exit(1);
}
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(pkgDir, 'tsconfig.lib.json')], { stdio: 'inherit' });

const leaking = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith('.d.ts') && /from ['"]@latchkey\//.test(readFileSync(p, 'utf8'))) leaking.push(p);
  }
};
walk(join(dist, 'types'));
if (leaking.length > 0) {
  console.error(`@latchkey/testkit: declarations name workspace packages a consumer does not have:\n  ${leaking.join('\n  ')}`);
  process.exit(1);
}
if (!existsSync(join(dist, 'types', 'index.d.ts'))) {
  console.error('@latchkey/testkit: dist/types/index.d.ts was not emitted');
  process.exit(1);
}
