/**
 * LISTEN on the webhook channel: the outbox trigger (migration 0012) says 'outbox' when an
 * activity's event commits, a fan-out says 'messages'. A dedicated connection (a pooled one would
 * LISTEN on a connection the pool hands to others) that reconnects for ever with capped, jittered
 * backoff; after a reconnect it reports 'missed', since notifications sent meanwhile are lost.
 * (The same pattern as change-feed.ts, which is fixed to its own channel.)
 */
import pg from 'pg';
import { WEBHOOK_CHANNEL } from '../repositories/webhook-delivery-repository.js';

export type TWebhookWakeup = 'outbox' | 'messages' | 'missed';

export interface TWebhookWakeups {
  close(): Promise<void>;
}

/**
 * Calls `onWake` for each notification, and with 'missed' after a reconnect.
 * @throws Error when the first connection cannot be made (later drops are retried for ever).
 */
export async function listenForWebhookWork(
  url: string,
  onWake: (w: TWebhookWakeup) => void,
  opts: { minDelayMs?: number; maxDelayMs?: number; onError?: (e: Error) => void } = {},
): Promise<TWebhookWakeups> {
  const minDelay = opts.minDelayMs ?? 250;
  const maxDelay = opts.maxDelayMs ?? 30_000;
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<pg.Client> => {
    const c = new pg.Client({ connectionString: url });
    let lost = false;
    const onLost = (e: Error) => {
      if (lost) return;
      lost = true;
      void c.end().catch(() => undefined);
      if (client !== c || closed) return;
      client = undefined;
      opts.onError?.(e);
      reconnect(1);
    };
    c.on('error', onLost);
    c.on('end', () => onLost(new Error('webhook wake-up connection ended')));
    c.on('notification', (n) => {
      if (n.channel === WEBHOOK_CHANNEL) onWake(n.payload === 'outbox' ? 'outbox' : 'messages');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${WEBHOOK_CHANNEL}`);
    } catch (e) {
      lost = true;
      await c.end().catch(() => undefined);
      throw e;
    }
    return c;
  };

  const reconnect = (attempt: number): void => {
    if (closed) return;
    const base = Math.min(maxDelay, minDelay * 2 ** Math.min(attempt - 1, 30));
    timer = setTimeout(() => {
      connect().then(
        (c) => {
          if (closed) return void c.end().catch(() => undefined);
          client = c;
          onWake('missed');
        },
        (e: unknown) => {
          opts.onError?.(e instanceof Error ? e : new Error(String(e)));
          reconnect(attempt + 1);
        },
      );
    }, base / 2 + Math.random() * (base / 2));
    timer.unref();
  };

  client = await connect();
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
