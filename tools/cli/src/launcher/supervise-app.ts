/**
 * One app process under the launcher: forked with an IPC channel (the app says `ready` over it),
 * restarted with backoff when it exits unexpectedly, stopped on request. The first start is
 * different: an app that dies before it was ever ready has a problem a restart will not fix
 * (a bad configuration, a missing build), so that fails `ready` instead, and the launcher gives up.
 * The first start may be deferred until the launcher has the database: the app is then forked at
 * once with $LATCHKEY_LAUNCHER_HOLD=1, loads its code meanwhile, and waits in `holdForLauncher`
 * (@latchkey/http) until it is told to go on with the database's URL.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { isWaitingMessage, LAUNCHER_HOLD_ENV, type TStartMessage } from '@latchkey/http';
import type { Logger } from 'pino';
import { createRestartBackoff, type TRestartBackoffOptions } from './restart-backoff.js';

export interface TSuperviseOptions {
  service: string;
  /** The app's bundle (apps/<app>/dist/main.mjs). */
  script: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  backoff?: TRestartBackoffOptions;
  /** Node and V8 options of this app's process, after the launcher's own (`process.execArgv`). */
  execArgv?: readonly string[];
  /**
   * The first run may not go on before `start` resolves: it is forked held, loads its code, and
   * then gets `start`'s variables (restarts have them in their environment from the beginning).
   * If `start` rejects, the first run never goes on: the launcher is giving up and stops the app.
   */
  deferred?: { start: Promise<Record<string, string>> };
}

export interface TSupervisedApp {
  readonly service: string;
  /** Resolves on the first `ready`; rejects if the first run exits before it. */
  readonly ready: Promise<void>;
  /** The running process, if any (none between a crash and its restart). */
  readonly child: ChildProcess | undefined;
  /** Stops the app for good: no restart; SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export function superviseApp(o: TSuperviseOptions): TSupervisedApp {
  const backoff = createRestartBackoff(o.backoff);
  let child: ChildProcess | undefined;
  let stopping = false;
  let everReady = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let resolveReady!: () => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<void>((res, rej) => {
    resolveReady = res;
    rejectReady = rej;
  });
  // The launcher may not await `ready` before stopping; a rejection then is no crash.
  ready.catch(() => undefined);
  // What a deferred first run was missing, once the launcher has it (restarts start with it).
  let startEnv: Record<string, string> | undefined;
  o.deferred?.start.then(
    (env) => (startEnv = env),
    () => undefined,
  );

  /** The first run of a deferred start: forked held, told to go on by `start`. */
  const forkHeld = (start: Promise<Record<string, string>>): ChildProcess => {
    const c = fork(o.script, [], {
      env: { ...o.env, [LAUNCHER_HOLD_ENV]: '1' },
      execArgv: [...process.execArgv, ...(o.execArgv ?? [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Sent only once the app listens (a message before that would be lost) and the launcher has
    // the variables, whichever comes last.
    const waiting = new Promise<void>((res) => c.on('message', (m: unknown) => isWaitingMessage(m) && res()));
    void Promise.all([start, waiting]).then(
      ([env]) => {
        if (c.connected && !stopping) c.send({ type: 'latchkey:start', env } satisfies TStartMessage);
      },
      () => undefined,
    );
    return c;
  };

  const run = (): void => {
    const startedAt = Date.now();
    const c =
      o.deferred && !everReady
        ? forkHeld(o.deferred.start)
        : fork(o.script, [], { env: { ...o.env, ...startEnv }, execArgv: [...process.execArgv, ...(o.execArgv ?? [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child = c;
    let exited = false;
    c.on('message', (m: unknown) => {
      if ((m as { type?: string }).type !== 'ready') return;
      if (!everReady) {
        everReady = true;
        resolveReady();
      } else o.log.info({ service: o.service, pid: c.pid }, `${o.service} is ready again`);
    });
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (exited) return;
      exited = true;
      if (child === c) child = undefined;
      if (stopping) return;
      if (!everReady) {
        rejectReady(new Error(`${o.service} exited during start-up (code ${code}, signal ${signal})`));
        return;
      }
      const delayMs = backoff.next(Date.now() - startedAt);
      o.log.warn(
        { service: o.service, code, signal, delayMs, consecutiveCrashes: backoff.crashes },
        `${o.service} exited unexpectedly (code ${code}, signal ${signal}); restarting in ${delayMs} ms`,
      );
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (!stopping) run();
      }, delayMs);
    };
    c.once('exit', onExit);
    // A process that could not be spawned emits 'error' and never 'exit'.
    c.on('error', (e) => {
      o.log.error({ service: o.service, err: e }, `${o.service}: ${e.message}`);
      if (c.pid === undefined) onExit(null, null);
    });
  };
  run();

  return {
    service: o.service,
    ready,
    get child() {
      return child;
    },
    async stop(graceMs = 10_000) {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((res) => {
        c.once('exit', () => res());
        c.kill('SIGTERM');
        setTimeout(() => c.kill('SIGKILL'), graceMs).unref();
      });
    },
  };
}
