/**
 * The webhook worker's loop: claim due outbox events (FOR UPDATE SKIP LOCKED, so any number of
 * workers can share the outbox), hand each to the deliverer, record the outcome. Delivery to
 * endpoints and FEATURE_NAME_WEBHOOK URLs arrives with the webhooks issue; until then the
 * deliverer finds no destinations and events are marked processed.
 */
import type { TOutboxEvent, TOutboxOutcome } from '@latchkey/persistence';
import type { Logger } from 'pino';

export type TDeliver = (event: TOutboxEvent) => Promise<TOutboxOutcome>;

export interface TWorkerOptions {
  /** Claims up to `limit` events and records what `handle` says of each; returns how many. */
  processBatch: (limit: number, handle: (events: TOutboxEvent[]) => Promise<Map<bigint, TOutboxOutcome>>) => Promise<number>;
  deliver: TDeliver;
  logger: Logger;
  pollMs: number;
  batchSize?: number;
}

/** Today's deliverer: no destinations are configurable yet. */
export const deliverToNoDestinations: TDeliver = async () => ({ ok: true });

export function createWorker(o: TWorkerOptions) {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  /** Processes batches until the outbox has nothing due; returns how many events it handled. */
  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await o.processBatch(o.batchSize ?? 50, async (events) => {
        const outcomes = new Map<bigint, TOutboxOutcome>();
        for (const e of events) {
          try {
            outcomes.set(e.id, await o.deliver(e));
          } catch (err) {
            outcomes.set(e.id, { ok: false, error: err instanceof Error ? err.message : String(err), retryInMs: Math.min(60_000, 1000 * 2 ** e.attempts) });
          }
        }
        return outcomes;
      });
      total += n;
      if (n === 0) return total;
    }
  }

  const tick = () => {
    current = drain()
      .then((n) => {
        if (n > 0) o.logger.debug({ events: n }, 'outbox events processed');
      })
      .catch((err: unknown) => o.logger.error({ err }, 'outbox processing failed'))
      .finally(() => {
        if (running) timer = setTimeout(tick, o.pollMs);
      });
  };

  return {
    drain,
    start() {
      running = true;
      tick();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
