/**
 * LISTEN on the webhook channel: the outbox trigger (migration 0012) says 'outbox' when an
 * activity's event commits, a fan-out says 'messages'. Over listen-forever.ts (the change feed's
 * connection too): after a reconnect it reports 'missed', since notifications sent meanwhile are lost.
 */
import { listenForever } from '../listen-forever.js';
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
  return listenForever(
    url,
    WEBHOOK_CHANNEL,
    'webhook wake-up',
    {
      onNotification: (payload) => onWake(payload === 'outbox' ? 'outbox' : 'messages'),
      onReconnected: () => onWake('missed'),
      ...(opts.onError ? { onError: opts.onError } : {}),
    },
    opts,
  );
}
