/**
 * How long the launcher waits before restarting an app that exited: exponential, so an app that
 * crashes at once on every start (the database still down, a bad configuration) does not spin
 * the CPU or flood the log, yet a one-off crash is back within half a second. An app that stayed
 * up long enough has recovered, and its next crash starts the sequence again.
 */

export interface TRestartBackoffOptions {
  /** Delay before the first restart. Default 500 ms. */
  initialMs?: number;
  /** Cap; the delay doubles per consecutive crash up to it. Default 30 s. */
  maxMs?: number;
  /** Uptime after which a crash counts as the first again. Default 60 s. */
  resetAfterMs?: number;
}

export interface TRestartBackoff {
  /** The delay before the restart that follows a run of `uptimeMs`, counting that crash. */
  next(uptimeMs: number): number;
  /** Consecutive crashes counted so far (0 after a reset). */
  readonly crashes: number;
}

export function createRestartBackoff(o: TRestartBackoffOptions = {}): TRestartBackoff {
  const initial = o.initialMs ?? 500;
  const max = o.maxMs ?? 30_000;
  const resetAfter = o.resetAfterMs ?? 60_000;
  let crashes = 0;
  return {
    next(uptimeMs) {
      if (uptimeMs >= resetAfter) crashes = 0;
      crashes++;
      return Math.min(max, initial * 2 ** Math.min(crashes - 1, 30));
    },
    get crashes() {
      return crashes;
    },
  };
}
