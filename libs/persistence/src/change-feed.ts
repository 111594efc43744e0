/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY. Writers call
 * `store.notifyChange` inside their transaction; every process's feed hears it after commit.
 *
 * The listening connection (listen-forever.ts) is dedicated and reconnects for ever with a
 * capped, jittered backoff. Notifications sent while nobody listened are lost, so subscribers are
 * told to forget everything (`'*'`, FLUSH_ALL) twice: when the connection is lost (stop trusting
 * the cache now) and again once LISTEN is back (anything cached in between may be stale too).
 */
import { listenForever } from './listen-forever.js';
import { CHANGE_CHANNEL } from './store.js';

/** The message that means "drop every cached fact": the auth cache's `invalidate('*')`. */
export const FLUSH_ALL = '*';

export interface TChangeFeed {
  close(): Promise<void>;
}

export interface TChangeFeedOptions {
  /** First reconnection delay. Default 250 ms; it doubles per failed attempt. */
  minDelayMs?: number;
  /** Cap on the delay between attempts. Default 30 s. */
  maxDelayMs?: number;
  /**
   * Called after LISTEN is re-established (after `onChange(FLUSH_ALL)`), with the number of
   * attempts it took. For a log line; the flush itself already went through `onChange`.
   */
  onReconnect?: (attempts: number) => void;
  /** Called when the connection is lost or an attempt fails. For a log line. */
  onError?: (e: Error) => void;
}

/**
 * Listens on CHANGE_CHANNEL and calls `onChange` with each payload (`topic:key`), or with
 * FLUSH_ALL when notifications may have been missed.
 * @throws Error when the first connection cannot be made (later drops are retried for ever).
 */
export async function startChangeFeed(url: string, onChange: (message: string) => void, opts: TChangeFeedOptions = {}): Promise<TChangeFeed> {
  return listenForever(
    url,
    CHANGE_CHANNEL,
    'change feed',
    {
      onNotification: onChange,
      onLost: () => onChange(FLUSH_ALL),
      onReconnected: (attempts) => {
        onChange(FLUSH_ALL);
        opts.onReconnect?.(attempts);
      },
      ...(opts.onError ? { onError: opts.onError } : {}),
    },
    opts,
  );
}
