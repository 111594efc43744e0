/**
 * Where the Latchkey the testkit starts comes from. Two layouts, tried in this order:
 *  - bundled: the published package carries the launcher, the four apps and the migrations in
 *    `dist/runtime/`, laid out like a checkout (`tools/cli/dist/main.mjs`, `apps/<app>/dist/…`,
 *    `prisma/migrations`), so the launcher finds its apps the way it does in the repository;
 *  - checkout: inside the Latchkey repository (the project's own tests run the sources), the
 *    launcher and apps `npm run build` produced.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TLatchkeyRuntime {
  kind: 'bundled' | 'checkout';
  /** The folder laid out like a checkout. */
  root: string;
  /** The launcher script (`latchkey start`). */
  cli: string;
  /** The migrations the launcher applies. */
  migrationsDir: string;
}

const CLI = join('tools', 'cli', 'dist', 'main.mjs');

/**
 * The repository root above this module (the folder with tools/cli/package.json).
 * @throws Error when this module is not inside a Latchkey checkout.
 */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'tools', 'cli', 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`not inside a Latchkey checkout (no tools/cli/package.json above ${fileURLToPath(import.meta.url)})`);
    dir = parent;
  }
  return dir;
}

/**
 * The runtime to start.
 * @throws Error when neither layout is present, or the checkout's launcher is not built.
 */
export function locateRuntime(): TLatchkeyRuntime {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'runtime');
  if (existsSync(join(bundled, CLI))) return { kind: 'bundled', root: bundled, cli: join(bundled, CLI), migrationsDir: join(bundled, 'prisma', 'migrations') };
  const root = repoRoot();
  const cli = join(root, CLI);
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  return { kind: 'checkout', root, cli, migrationsDir: join(root, 'prisma', 'migrations') };
}
