/**
 * The webhook worker's loop. Woken by LISTEN/NOTIFY (an activity's outbox event committed: fan it
 * out; messages queued: claim them), by its own timers (a retry falls due), and by a poll as the
 * fallback. It fans outbox events out into per-endpoint messages, claims the heads of endpoint
 * queues up to its concurrency, and delivers each: resolve and check the destination, sign anew
 * for this attempt, POST, record. Everything it knows is in the database, so any number of
 * workers can run, and a killed one loses nothing (its leases expire; the messages are sent again
 * — at least once, deduplicated by receivers on the event id).
 */
import { newId, resolveWebhookDestination, webhookHeaders, WebhookUrlError, type TWebhookSigner } from '@latchkey/crypto';
import { webhookBodyOf, webhookDeliveryRepository, type TAttemptOutcome, type TClaimedWebhookMessage, type TDatabase, type TWebhookWakeup } from '@latchkey/persistence';
import type { Logger } from 'pino';
import type { TWebhookConfig } from './config.js';
import { decideOutcome, type TAttemptResult } from './retry-policy.js';
import { createSender, type TSender } from './send-webhook.js';

const FANOUT_BATCH = 500;
/**
 * Deliveries one endpoint may chain before its slot goes back to the claim, which serves the
 * oldest due heads first: with more busy endpoints than slots, a long queue must not keep others waiting.
 */
const MAX_CHAIN = 32;
const PRUNE_EVERY_MS = 3_600_000;

export interface TWebhookWorkerOptions {
  db: TDatabase;
  config: TWebhookConfig;
  logger: Logger;
  /** The signer of the current key (cached by the caller; see createSignerCache). */
  signer: () => Promise<TWebhookSigner>;
  /** Injected in tests; by default a keep-alive HTTP client with the configured timeout. */
  sender?: TSender;
  random?: () => number;
}

export interface TWebhookWorker {
  /** Note work: 'outbox' fans out, 'messages' claims, 'missed' (or a poll) does both. */
  wake(w?: TWebhookWakeup): void;
  start(): void;
  /** Stops claiming, waits for deliveries in flight to be recorded. */
  stop(): Promise<void>;
  /** Deliveries in flight now. */
  readonly inFlight: number;
}

export function createWebhookWorker(o: TWebhookWorkerOptions): TWebhookWorker {
  const repo = webhookDeliveryRepository(o.db);
  const sender = o.sender ?? createSender({ maxSockets: o.config.concurrency });
  const log = o.logger;
  let running = false;
  let pumping = false;
  let again = false;
  let needFanOut = true;
  let inFlight = 0;
  const flights = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let lastPrune = 0;

  /** Wakes the loop no later than `ms` from now (keeps an earlier wake-up). */
  function wakeIn(ms: number): void {
    if (!running) return;
    const at = Date.now() + ms;
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Infinity;
      needFanOut = true;
      pump();
    }, Math.max(0, ms));
  }

  function pump(): void {
    if (!running) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    void (async () => {
      try {
        do {
          again = false;
          if (needFanOut) {
            needFanOut = false;
            for (;;) {
              const r = await repo.fanOut(FANOUT_BATCH, webhookBodyOf, () => `evt_${newId()}`);
              if (r === 'busy') break; // another worker fans out; its NOTIFY wakes us
              if (r.messages > 0) log.debug({ events: r.events, messages: r.messages }, 'webhook events fanned out');
              for (const u of r.unsendable) log.error({ outboxEventId: u.id, error: u.error }, 'outbox event has no sendable body; set aside');
              if (r.events < FANOUT_BATCH) break;
            }
          }
          const free = o.config.concurrency - inFlight;
          if (free > 0 && running) {
            const claimed = await repo.claim(free, o.config.leaseMs);
            for (const m of claimed) launch(m);
            if (claimed.length === free) again = true;
          }
        } while (again && running);
        if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
          lastPrune = Date.now();
          const pruned = await repo.prune(o.config.logDays);
          if (pruned.attempts + pruned.messages > 0) log.info(pruned, 'webhook log pruned');
        }
      } catch (err) {
        // A dropped connection or a failed statement: the next poll tries again; nothing is lost
        // (claims not recorded expire with their lease).
        log.error({ err }, 'webhook worker iteration failed');
      } finally {
        pumping = false;
        wakeIn(o.config.pollMs);
        if (again) pump();
      }
    })();
  }

  function launch(m: TClaimedWebhookMessage): void {
    inFlight++;
    const p = deliver(m)
      .catch((err: unknown) => log.error({ err, eventId: m.eventId }, 'webhook delivery could not be recorded; its lease will expire and it will be sent again'))
      .finally(() => {
        inFlight--;
        flights.delete(p);
        pump();
      });
    flights.add(p);
  }

  /**
   * Delivers a claimed message and, while its endpoint's next message is due, that one too: the
   * record of one attempt claims the next head in the same statement (head-only claiming, without
   * a round trip and a scan per delivery).
   */
  async function deliver(first: TClaimedWebhookMessage): Promise<void> {
    let m: TClaimedWebhookMessage | null = first;
    for (let chained = 1; m; chained++) {
      const started = Date.now();
      let outcome: TAttemptOutcome;
      if (m.url === null) {
        outcome = { kind: 'dead', statusCode: null, error: 'endpoint deleted' };
      } else if (!m.endpointActive) {
        outcome = { kind: 'dead', statusCode: null, error: 'endpoint inactive' };
      } else {
        outcome = decideOutcome(m.attempt, await attempt(m, m.url), o.config, Date.now(), o.random);
      }
      const latencyMs = Date.now() - started;
      const recorded: { held: boolean; next: TClaimedWebhookMessage | null } = !running
        ? { held: await repo.record(m, outcome, latencyMs), next: null }
        : chained < MAX_CHAIN
          ? await repo.recordAndClaimNext(m, outcome, latencyMs, o.config.leaseMs)
          : { held: await repo.recordAndYield(m, outcome, latencyMs), next: null };
      const { held, next } = recorded;
      const fields = { eventId: m.eventId, endpointId: m.endpointId, attempt: m.attempt, outcome: outcome.kind, statusCode: outcome.statusCode, latencyMs };
      if (!held) log.warn(fields, 'webhook claim was taken over before this attempt was recorded');
      else if (outcome.kind === 'dead') log.warn({ ...fields, error: outcome.error }, 'webhook event dead-lettered');
      else if (outcome.kind === 'retry') log.info({ ...fields, error: outcome.error, retryInMs: outcome.retryInMs }, 'webhook delivery will be retried');
      else log.debug(fields, 'webhook delivered');
      if (held && outcome.kind === 'retry') wakeIn(outcome.retryInMs);
      m = next;
    }
  }

  /**
   * Resolves and checks the URL now (not at creation only), signs for this instant, sends. The
   * timeout bounds the whole attempt, name resolution included, so an attempt never outlives its lease.
   */
  async function attempt(m: TClaimedWebhookMessage, url: string): Promise<TAttemptResult> {
    const deadline = Date.now() + o.config.timeoutMs;
    let destination;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`resolving the endpoint's host timed out after ${o.config.timeoutMs} ms`)), o.config.timeoutMs);
      });
      destination = await Promise.race([resolveWebhookDestination(url, { allowInsecure: o.config.allowInsecureUrls }), timedOut]);
    } catch (e) {
      // A name that does not resolve may resolve later; a refused destination will not change by itself.
      if (e instanceof WebhookUrlError && e.reason !== 'UNRESOLVABLE') return { refused: e.message };
      return { error: e instanceof Error ? e.message : String(e) };
    } finally {
      clearTimeout(timer);
    }
    const signer = await o.signer();
    const headers = webhookHeaders({ signer, timestampMs: Date.now(), eventId: m.eventId, body: m.body, eventType: m.eventType, organizationId: m.organizationId });
    return sender.send(destination, headers, m.body, { waitMs: Math.max(1, deadline - Date.now()), timeoutMs: o.config.timeoutMs });
  }

  return {
    get inFlight() {
      return inFlight;
    },
    wake(w: TWebhookWakeup = 'missed') {
      if (w !== 'messages') needFanOut = true;
      pump();
    },
    start() {
      running = true;
      needFanOut = true;
      pump();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      while (pumping || flights.size > 0) {
        await Promise.all([...flights]);
        if (pumping) await new Promise((r) => setTimeout(r, 5));
      }
      if (!o.sender) sender.close();
    },
  };
}
