#!/usr/bin/env node
// Bundles an app (or the CLI) into <project>/dist/main.mjs with esbuild: the workspace libraries
// are inlined from their TypeScript sources; npm packages stay external (installed by npm ci).
// Usage: node tools/build-app.mjs <projectDir> | --all
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLED_PROJECTS = ['apps/public-api', 'apps/auth-proxy', 'apps/webhook-worker', 'apps/admin', 'tools/cli'];

/** Bare imports are external, except our own libraries, which are compiled in. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@latchkey/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Scripts every app carries beside main.mjs: worker threads (the engine finds them by name), and
 * the preload the launcher starts an app early with (tools/cli/src/launcher/early-start.ts).
 */
const WORKERS = {
  'derivation-worker.mjs': join(root, 'libs/crypto/src/derivation/derivation-worker.ts'),
  'launcher-preload.mjs': join(root, 'tools/cli/src/launcher/app-preload.ts'),
};

async function bundle(projectDir) {
  const dir = resolve(projectDir);
  const entry = join(dir, 'src', 'main.ts');
  if (!existsSync(entry)) throw new Error(`${entry} not found`);
  await Promise.all([esbuild(entry, join(dir, 'dist', 'main.mjs')), ...Object.entries(WORKERS).map(([name, src]) => esbuild(src, join(dir, 'dist', name)))]);
}

async function esbuild(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    conditions: ['@latchkey/source'],
    plugins: [externalDependencies],
    logLevel: 'warning',
    legalComments: 'none',
  });
}

const args = process.argv.slice(2);
const targets = args.includes('--all') ? BUNDLED_PROJECTS.map((p) => join(root, p)) : args;
if (targets.length === 0) {
  console.error('usage: node tools/build-app.mjs <projectDir>... | --all');
  process.exit(2);
}
await Promise.all(targets.map(bundle));
