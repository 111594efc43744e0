/**
 * The webhook worker's loop. Woken by LISTEN/NOTIFY (an activity's outbox event committed: fan it
 * out; messages queued: claim them), by its own timers (a retry falls due), and by a poll as the
 * fallback. It fans outbox events out into per-endpoint messages, claims the heads of endpoint
 * queues up to its concurrency, and delivers each: resolve and check the destination, sign anew
 * for this attempt, POST, record. Everything it knows is in the database, so any number of
 * workers can run, and a killed one loses nothing (its leases expire; the messages are sent again
 * — at least once, deduplicated by receivers on the event id).
 */
import { newId, resolveWebhookDestination, webhookHeaders, WebhookUrlError, type TWebhookDestination, type TWebhookSigner } from '@latchkey/crypto';
import { webhookBodyOf, webhookDeliveryRepository, type TAfterRun, type TAttemptOutcome, type TClaimedWebhookMessage, type TDatabase, type TRecordEntry, type TWebhookWakeup } from '@latchkey/persistence';
import type { TWebhookMetrics } from '@latchkey/http';
import type { Logger } from 'pino';
import type { TWebhookConfig } from './config.js';
import { decideOutcome, type TAttemptResult } from './retry-policy.js';
import { createSender, type TSender } from './send-webhook.js';

const FANOUT_BATCH = 500;
/**
 * Messages of one endpoint claimed together and sent one after the other, recorded in one
 * statement: the database's round trip is paid once per run instead of once per delivery. A
 * worker killed mid-run has all of the run sent again (at least once).
 */
export const RUN_LENGTH = 128;
/**
 * Attempts of a run recorded while the run goes on (not awaited: the next messages are sent
 * meanwhile); the rest, with the claim of the next run, when the run ends.
 */
const RECORD_EVERY = 32;
/**
 * How long, and for how many runs, one endpoint may keep a slot by chaining runs before the slot
 * goes back to the claim, which serves the oldest due heads first: with more busy endpoints than
 * slots, a long queue must not keep others waiting.
 */
export const MAX_CHAIN = 4;
const CHAIN_BUDGET_MS = 1_000;
/** A run starts no attempt that could outlast its lease by less than this (clocks, the record's round trip). */
const LEASE_MARGIN_MS = 1_000;
const PRUNE_EVERY_MS = 3_600_000;
/**
 * A run's next attempt is signed while the current one is on the wire (its answer is awaited
 * anyway), which takes the signature off the path between one answer and the next request. Used
 * only while this fresh — the timestamp says when the attempt was made — else signed again.
 */
const SIGNED_AHEAD_MAX_AGE_MS = 50;

/** Headers signed ahead for a run's next message. */
interface TSignedAhead {
  m: TClaimedWebhookMessage;
  signer: TWebhookSigner;
  headers: Record<string, string>;
  at: number;
}

/** The headers of one attempt of `m`, signed for this instant. */
function signedHeaders(m: TClaimedWebhookMessage, signer: TWebhookSigner, now: number): Record<string, string> {
  return webhookHeaders({ signer, timestampMs: now, eventId: m.eventId, body: m.body, eventType: m.eventType, organizationId: m.organizationId });
}

type TDestinationResult = { destination: TWebhookDestination } | { failed: TAttemptResult };

/** Claimed messages (in id order) as runs: one per endpoint, in queue order. */
function byEndpoint(claimed: readonly TClaimedWebhookMessage[]): TClaimedWebhookMessage[][] {
  const runs = new Map<string, TClaimedWebhookMessage[]>();
  for (const m of claimed) {
    const key = `${m.organizationId}\u0000${m.endpointId}`;
    const run = runs.get(key);
    if (run) run.push(m);
    else runs.set(key, [m]);
  }
  return [...runs.values()];
}

export interface TWebhookWorkerOptions {
  db: TDatabase;
  config: TWebhookConfig;
  logger: Logger;
  /** The signer of the current key (cached by the caller; see createSignerCache). */
  signer: () => Promise<TWebhookSigner>;
  /** Injected in tests; by default a keep-alive HTTP client with the configured timeout. */
  sender?: TSender;
  random?: () => number;
  /** Told of every recorded attempt (the /metrics counter). */
  metrics?: TWebhookMetrics;
}

export interface TWebhookWorker {
  /** Note work: 'outbox' fans out, 'messages' claims, 'missed' (or a poll) does both. */
  wake(w?: TWebhookWakeup): void;
  start(): void;
  /** Stops claiming, waits for deliveries in flight to be recorded. */
  stop(): Promise<void>;
  /** Runs (endpoints) in flight now. */
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
            const runs = byEndpoint(await repo.claim(free, o.config.leaseMs, RUN_LENGTH));
            for (const run of runs) launch(run);
            if (runs.length === free) again = true;
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

  function launch(run: TClaimedWebhookMessage[]): void {
    inFlight++;
    const p = deliver(run)
      .catch((err: unknown) => log.error({ err, eventIds: run.map((m) => m.eventId) }, 'webhook deliveries could not be recorded; their lease will expire and they will be sent again'))
      .finally(() => {
        inFlight--;
        flights.delete(p);
        pump();
      });
    flights.add(p);
  }

  /**
   * Delivers a claimed run of one endpoint, one message after the other, and records it in one
   * statement, which also claims the endpoint's next run while the queue is finished up to it.
   * The run stops early at a retry (the messages behind wait for it: order), when stopping, and
   * before an attempt that could outlast the lease; what it did not attempt is put back.
   */
  async function deliver(first: TClaimedWebhookMessage[]): Promise<void> {
    let run = first;
    const slotTakenAt = Date.now();
    for (let chained = 1; run.length > 0; chained++) {
      const claimedAt = Date.now();
      let entries: TRecordEntry[] = [];
      const recorded: Promise<TRecordEntry[]>[] = [];
      let destination: Promise<TDestinationResult> | undefined;
      let ahead: TSignedAhead | undefined;
      let n = 0;
      while (n < run.length) {
        if (entries.length >= RECORD_EVERY) {
          const r = recordAlong(entries);
          r.catch(() => {}); // seen by allSettled below; not an unhandled rejection meanwhile
          recorded.push(r);
          entries = [];
        }
        if (n > 0 && (!running || Date.now() + o.config.timeoutMs > claimedAt + o.config.leaseMs - LEASE_MARGIN_MS)) break;
        const m = run[n++]!;
        const started = Date.now();
        let outcome: TAttemptOutcome;
        if (m.url === null) {
          outcome = { kind: 'dead', statusCode: null, error: 'endpoint deleted' };
        } else if (!m.endpointActive) {
          outcome = { kind: 'dead', statusCode: null, error: 'endpoint inactive' };
        } else {
          // Resolved and checked once per run (the URL is the same for all of it; a run lasts less than a lease).
          destination ??= resolve(m.url);
          const d = await destination;
          let result: TAttemptResult;
          if ('failed' in d) result = d.failed;
          else {
            const signer = await o.signer();
            const now = Date.now();
            const headers = ahead?.m === m && ahead.signer === signer && now - ahead.at <= SIGNED_AHEAD_MAX_AGE_MS ? ahead.headers : signedHeaders(m, signer, now);
            ahead = undefined;
            // The timeout bounds the whole attempt, the name resolution of a run's first one included.
            const sent = sender.send(d.destination, headers, m.body, { waitMs: Math.max(1, started + o.config.timeoutMs - Date.now()), timeoutMs: o.config.timeoutMs });
            const following = run[n];
            if (following && following.url === m.url && following.endpointActive) {
              // After this request is written (on the next tick) and while its answer travels; skipped
              // if the answer came first and the loop has moved on.
              setImmediate(() => {
                if (run[n] === following && ahead === undefined) ahead = { m: following, signer, headers: signedHeaders(following, signer, Date.now()), at: Date.now() };
              });
            }
            result = await sent;
          }
          outcome = decideOutcome(m.attempt, result, o.config, Date.now(), o.random);
        }
        entries.push({ m, outcome, latencyMs: Date.now() - started });
        if (outcome.kind === 'retry') break;
      }
      const released = run.slice(n);
      const finished = released.length === 0 && entries.every((e) => e.outcome.kind !== 'retry');
      const mayChain = chained < MAX_CHAIN && Date.now() - slotTakenAt < CHAIN_BUDGET_MS;
      // What was recorded along the way first: a failed record fails the run (its leases expire; sent again).
      const along = (await Promise.allSettled(recorded)).flatMap((r) => {
        if (r.status === 'rejected') throw r.reason;
        return r.value;
      });
      const then: TAfterRun = !running || !finished ? null : mayChain ? { claimNext: { leaseMs: o.config.leaseMs, runLength: RUN_LENGTH } } : { yieldNext: true };
      const { held, next } = await repo.recordRun(entries, released, then);
      if (held < entries.length) log.warn({ endpointId: run[0]!.endpointId, attempts: entries.length, held }, 'webhook claims were taken over before these attempts were recorded');
      const debug = log.isLevelEnabled('debug');
      for (const e of along) reportAttempt(e, debug);
      for (const e of entries) reportAttempt(e, debug);
      run = next;
    }
  }

  /** Counts a recorded attempt and logs it (a delivery only at debug level: fields built only then). */
  function reportAttempt({ m, outcome, latencyMs }: TRecordEntry, debug: boolean): void {
    o.metrics?.attempt(outcome.kind, outcome.statusCode);
    if (outcome.kind === 'delivered' && !debug) return;
    const fields = { eventId: m.eventId, endpointId: m.endpointId, attempt: m.attempt, outcome: outcome.kind, statusCode: outcome.statusCode, latencyMs };
    if (outcome.kind === 'dead') log.warn({ ...fields, error: outcome.error }, 'webhook event dead-lettered');
    else if (outcome.kind === 'retry') {
      log.info({ ...fields, error: outcome.error, retryInMs: outcome.retryInMs }, 'webhook delivery will be retried');
      wakeIn(outcome.retryInMs);
    } else log.debug(fields, 'webhook delivered');
  }

  /** Records finished attempts of a run still going on; resolves to them (warning of claims lost). */
  async function recordAlong(entries: TRecordEntry[]): Promise<TRecordEntry[]> {
    const { held } = await repo.recordRun(entries, [], null);
    if (held < entries.length) log.warn({ endpointId: entries[0]!.m.endpointId, attempts: entries.length, held }, 'webhook claims were taken over before these attempts were recorded');
    return entries;
  }

  /**
   * Resolves and checks the URL now (not at creation only), within the attempt timeout. A failure
   * is the attempt result of every message of the run that reaches it.
   */
  async function resolve(url: string): Promise<TDestinationResult> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`resolving the endpoint's host timed out after ${o.config.timeoutMs} ms`)), o.config.timeoutMs);
      });
      return { destination: await Promise.race([resolveWebhookDestination(url, { allowInsecure: o.config.allowInsecureUrls }), timedOut]) };
    } catch (e) {
      // A name that does not resolve may resolve later; a refused destination will not change by itself.
      if (e instanceof WebhookUrlError && e.reason !== 'UNRESOLVABLE') return { failed: { refused: e.message } };
      return { failed: { error: e instanceof Error ? e.message : String(e) } };
    } finally {
      clearTimeout(timer);
    }
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
