/**
 * Starts the run's shared platform (see shared-platform.ts) when the whole project runs — no file
 * filter on the command line — or when LATCHKEY_E2E_SHARED_PLATFORM=1 asks for it;
 * LATCHKEY_E2E_SHARED_PLATFORM=0 turns it off. A run of a few files then costs no extra start.
 */
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import type { TestProject } from 'vitest/node';
import type { TSharedPlatform } from './shared-platform.js';

/** `vitest run [filters…]`: a word that is neither the command nor an option (or its value). */
function hasFileFilters(argv: readonly string[]): boolean {
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === 'run' || a === 'related') continue;
    if (a.startsWith('-')) {
      // `--opt value` forms: skip the value (vitest's boolean flags are never followed by a word
      // here except a filter, which only makes this answer "no filter": one extra start, no harm).
      if (!a.includes('=') && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-') && !/\.(spec|test)\.ts$|\/|^test/.test(args[i + 1]!)) i++;
      continue;
    }
    return true;
  }
  return false;
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const asked = process.env['LATCHKEY_E2E_SHARED_PLATFORM'];
  const wanted = asked === '1' || (asked !== '0' && !hasFileFilters(process.argv));
  if (!wanted) {
    project.provide('sharedPlatform', null);
    return undefined;
  }
  const latchkey: TLatchkey = await startLatchkey({ apps: ['public-api'], timeoutMs: 170_000 });
  const shared: TSharedPlatform = {
    baseUrl: latchkey.baseUrl,
    databaseUrl: await latchkey.databaseUrl(),
    dataDir: latchkey.dataDir,
    database: latchkey.database,
    bootstrap: latchkey.bootstrap,
  };
  project.provide('sharedPlatform', shared);
  return async () => {
    await latchkey.stop();
  };
}
