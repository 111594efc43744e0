/**
 * An app started before its database is ready (the launcher's early start,
 * tools/cli/src/launcher/supervise-app.ts): loading an app's code is most of its start, so the
 * launcher forks every app that needs the database at once, with $LATCHKEY_LAUNCHER_HOLD=1, while
 * it starts PostgreSQL and runs the first-start steps. The app's bundle is read, compiled and its
 * modules evaluated meanwhile; its `main` then calls `holdForLauncher()` first, which says
 * `waiting` and returns once the launcher's `start` message brought the variables the app lacked
 * (DATABASE_URL). Everything after it — the configuration, the database, the server — runs
 * exactly as if the app had been started with that environment.
 *
 * Only Node built-ins here: this runs before everything else in the app.
 */
import { isMainThread } from 'node:worker_threads';

/** Set in the app's environment by the launcher: only then does `holdForLauncher` wait. */
export const LAUNCHER_HOLD_ENV = 'LATCHKEY_LAUNCHER_HOLD';

/** The app → launcher message: the app is loaded and listening for `start`. */
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
 * Waits for the launcher's `start` when it holds this process, then adds its variables to
 * `process.env`. Returns at once otherwise: started by hand, restarted by the launcher (a restart
 * has the whole environment from the beginning), or in a worker thread. If the launcher goes away
 * before it said `start`, nobody would start or stop this process: it exits (code 1).
 */
export async function holdForLauncher(): Promise<void> {
  if (!isMainThread || process.env[LAUNCHER_HOLD_ENV] !== '1' || !process.send) return;
  delete process.env[LAUNCHER_HOLD_ENV];
  const env = await new Promise<Record<string, string>>((res) => {
    const onMessage = (m: unknown) => {
      if (!isStartMessage(m)) return;
      process.off('message', onMessage);
      process.off('disconnect', onDisconnect);
      res(m.env);
    };
    const onDisconnect = () => process.exit(1);
    process.on('message', onMessage);
    process.once('disconnect', onDisconnect);
    process.send!({ type: 'latchkey:waiting' } satisfies TWaitingMessage);
  });
  Object.assign(process.env, env);
}
