/**
 * A LISTEN on one PostgreSQL channel that survives its connection. The connection is dedicated (a
 * pooled one would LISTEN on a connection the pool hands to others). When it drops — a restart, a
 * failover, pg_terminate_backend — it reconnects for ever, with a capped, jittered exponential
 * backoff so that a fleet of processes does not reconnect in lockstep. Notifications sent while
 * nobody listened are lost, so the caller hears `onLost` and `onReconnected` and decides what
 * "may have missed something" means for it (the change feed flushes caches, the webhook worker
 * looks for work).
 */
import pg from 'pg';

export interface TListenHandlers {
  onNotification(payload: string): void;
  /** The connection was lost (before any reconnection attempt). */
  onLost?(): void;
  /** LISTEN is back, after `attempts` attempts. */
  onReconnected(attempts: number): void;
  /** The connection was lost or an attempt failed. For a log line. */
  onError?(e: Error): void;
}

export interface TListenOptions {
  /** First reconnection delay. Default 250 ms; it doubles per failed attempt. */
  minDelayMs?: number;
  /** Cap on the delay between attempts. Default 30 s. */
  maxDelayMs?: number;
}

export interface TListener {
  close(): Promise<void>;
}

/**
 * @param what names the listener in the error of a connection that ended
 * @throws Error when the first connection cannot be made (later drops are retried for ever).
 */
export async function listenForever(url: string, channel: string, what: string, h: TListenHandlers, opts: TListenOptions = {}): Promise<TListener> {
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
      h.onError?.(e);
      h.onLost?.();
      scheduleReconnect(1);
    };
    // Both, because a server-side termination may surface as either ('end' alone after a clean
    // FIN, 'error' then 'end' otherwise), and 'error' must always have a listener.
    c.on('error', onLost);
    c.on('end', () => onLost(new Error(`${what} connection ended`)));
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload) h.onNotification(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (e) {
      lost = true; // not ours yet: the caller retries
      await c.end().catch(() => undefined);
      throw e;
    }
    if (lost) throw new Error(`${what} connection lost while subscribing`);
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
          h.onReconnected(attempt);
        },
        (e: unknown) => {
          h.onError?.(e instanceof Error ? e : new Error(String(e)));
          scheduleReconnect(attempt + 1);
        },
      );
    }, delayFor(attempt));
    // A listener alone must not keep a process alive that has nothing else to do.
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
