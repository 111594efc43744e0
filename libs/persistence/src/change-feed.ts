/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY. Writers call
 * `store.notifyChange` inside their transaction; every process's feed hears it after commit.
 *
 * The listening connection is dedicated (a pooled one would LISTEN on a connection the pool hands
 * to others). When it drops — a restart, a failover, pg_terminate_backend — the feed reconnects
 * for ever, with a capped, jittered exponential backoff so that a fleet of processes does not
 * reconnect in lockstep. Notifications sent while nobody listened are lost, so subscribers are
 * told to forget everything (`'*'`, FLUSH_ALL) twice: when the connection is lost (stop trusting
 * the cache now) and again once LISTEN is back (anything cached in between may be stale too).
 */
import pg from 'pg';
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
  const minDelay = opts.minDelayMs ?? 250;
  const maxDelay = opts.maxDelayMs ?? 30_000;
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  /** A connected client listening on the channel; it reports its own loss once. */
  const listen = async (): Promise<pg.Client> => {
    const c = new pg.Client({ connectionString: url });
    let lost = false;
    const onLost = (e: Error) => {
      if (lost) return;
      lost = true;
      void c.end().catch(() => undefined);
      if (client !== c || closed) return;
      client = undefined;
      opts.onError?.(e);
      onChange(FLUSH_ALL);
      scheduleReconnect(1);
    };
    // Both, because a server-side termination may surface as either ('end' alone after a clean
    // FIN, 'error' then 'end' otherwise), and 'error' must always have a listener.
    c.on('error', onLost);
    c.on('end', () => onLost(new Error('change feed connection ended')));
    c.on('notification', (n) => {
      if (n.channel === CHANGE_CHANNEL && n.payload) onChange(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (e) {
      lost = true; // not ours yet: the caller retries
      await c.end().catch(() => undefined);
      throw e;
    }
    if (lost) throw new Error('change feed connection lost while subscribing');
    return c;
  };

  /** "Equal jitter": uniform in [base/2, base], base = min·2^(attempt-1) capped at max; never 0, never in step. */
  const delayFor = (attempt: number): number => {
    const base = Math.min(maxDelay, minDelay * 2 ** Math.min(attempt - 1, 30));
    return base / 2 + Math.random() * (base / 2);
  };

  const scheduleReconnect = (attempt: number): void => {
    if (closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      listen().then(
        (c) => {
          if (closed) {
            void c.end().catch(() => undefined);
            return;
          }
          client = c;
          onChange(FLUSH_ALL);
          opts.onReconnect?.(attempt);
        },
        (e: unknown) => {
          opts.onError?.(e instanceof Error ? e : new Error(String(e)));
          scheduleReconnect(attempt + 1);
        },
      );
    }, delayFor(attempt));
    // A feed alone must not keep a process alive that has nothing else to do.
    timer.unref();
  };

  client = await listen();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
