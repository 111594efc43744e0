/**
 * The series the apps share beyond the request histogram, each declared once: activities by type
 * and status, the database pool, the outbox backlog, the auth cache, webhook deliveries. They take
 * what they read as plain functions (this lib imports neither the engine nor persistence), and
 * everything read from the database or a cache is read in `collect`, i.e. once per scrape.
 */
import type { TMetrics } from './metrics.js';

/**
 * `latchkey_activities_total{type,status}`: one per activity a submission answers with. Both
 * labels come from closed sets (the registered types, the status enum).
 * @returns the observer `openPlatform({ onActivity })` takes
 */
export function activityCounter(metrics: TMetrics): (a: { type: string; status: string }) => void {
  const c = metrics.counter({
    name: 'latchkey_activities_total',
    help: 'Activities answered by submissions, by type and status (a repeated identical body, answered with the same activity, counts again; a vote counts the voted-on activity)',
    labelNames: ['type', 'status'] as const,
  });
  const children = new Map<string, ReturnType<typeof c.labels>>();
  return (a) => {
    const key = `${a.type} ${a.status}`;
    let child = children.get(key);
    if (!child) {
      child = c.labels(a.type, a.status);
      children.set(key, child);
    }
    child.inc();
  };
}

/** What the database gauges read (TDatabase.poolStats and readOutboxBacklog of @latchkey/persistence). */
export interface TDatabaseGaugeSource {
  poolStats(): { total: number; idle: number; waiting: number; max: number };
  /** Absent: the process does not report the outbox. */
  outboxBacklog?: () => Promise<{ depth: number; oldestAgeSeconds: number }>;
}

/**
 * `latchkey_db_pool_connections{state=busy|idle|waiting}`, `latchkey_db_pool_max`, and with an
 * outbox source `latchkey_outbox_depth` / `latchkey_outbox_oldest_age_seconds` (one query per
 * scrape, shared by both). A scrape while the database is down reports the outbox as NaN rather
 * than failing the whole scrape: the pool gauges say why.
 */
export function registerDatabaseGauges(metrics: TMetrics, source: TDatabaseGaugeSource): void {
  metrics.gauge({
    name: 'latchkey_db_pool_connections',
    help: 'Connections of this process’ PostgreSQL pool: busy (checked out), idle, and requests waiting for one',
    labelNames: ['state'] as const,
    collect() {
      const s = source.poolStats();
      this.set({ state: 'busy' }, s.total - s.idle);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  metrics.gauge({
    name: 'latchkey_db_pool_max',
    help: 'The pool’s cap on connections',
    collect() {
      this.set(source.poolStats().max);
    },
  });
  const read = source.outboxBacklog;
  if (!read) return;
  // Both gauges are collected in the same scrape: one query serves them (kept for one second).
  let last: { at: number; value: Promise<{ depth: number; oldestAgeSeconds: number }> } | undefined;
  const backlog = async () => {
    const now = Date.now();
    if (!last || now - last.at > 1000) last = { at: now, value: read() };
    try {
      return await last.value;
    } catch {
      last = undefined;
      return { depth: Number.NaN, oldestAgeSeconds: Number.NaN };
    }
  };
  metrics.gauge({
    name: 'latchkey_outbox_depth',
    help: 'Outbox events not yet delivered or given up on (NaN: the database could not be read)',
    async collect() {
      this.set((await backlog()).depth);
    },
  });
  metrics.gauge({
    name: 'latchkey_outbox_oldest_age_seconds',
    help: 'Age of the oldest undelivered outbox event, 0 when none (NaN: the database could not be read)',
    async collect() {
      this.set((await backlog()).oldestAgeSeconds);
    },
  });
}

/**
 * `latchkey_auth_cache_lookups_total{cache,result=hit|miss}` from the auth cache's own counters
 * (TAuthCache.stats), copied on scrape: the lookups themselves pay two integer increments.
 */
export function registerAuthCacheCounters(metrics: TMetrics, stats: () => Record<string, { hits: number; misses: number }>): void {
  metrics.counter({
    name: 'latchkey_auth_cache_lookups_total',
    help: 'Auth cache lookups by map and result; hit rate = hit / (hit + miss). The *_misses maps hold refusals (a hit there refused an unknown key or organization without the database)',
    labelNames: ['cache', 'result'] as const,
    collect() {
      this.reset();
      for (const [cache, s] of Object.entries(stats())) {
        this.inc({ cache, result: 'hit' }, s.hits);
        this.inc({ cache, result: 'miss' }, s.misses);
      }
    },
  });
}

/** The webhook worker's counter (one per recorded delivery attempt). */
export interface TWebhookMetrics {
  /**
   * A recorded attempt: `delivered`, `retry` (failed, due again) or `dead` (given up on: a final
   * answer, the last attempt, a refused URL or a deleted endpoint), with the answer's status.
   */
  attempt(outcome: 'delivered' | 'retry' | 'dead', statusCode: number | null): void;
}

const statusClass = (s: number | null) => (s === null ? 'none' : s >= 200 && s < 600 ? `${Math.floor(s / 100)}xx` : 'other');

/** `latchkey_webhook_attempts_total{outcome,status_class}`. */
export function webhookCounters(metrics: TMetrics): TWebhookMetrics {
  const attempts = metrics.counter({
    name: 'latchkey_webhook_attempts_total',
    help: 'Webhook delivery attempts recorded, by outcome (delivered, retry, dead) and the receiver answer (2xx..5xx; none: no answer — network error, timeout, refused URL, deleted endpoint). Failures: outcome!="delivered"; dead letters: outcome="dead"',
    labelNames: ['outcome', 'status_class'] as const,
  });
  // Present from the first scrape, so rate() and alerts see a 0 before the first failure.
  attempts.inc({ outcome: 'delivered', status_class: '2xx' }, 0);
  attempts.inc({ outcome: 'dead', status_class: 'none' }, 0);
  return { attempt: (outcome, statusCode) => attempts.inc({ outcome, status_class: statusClass(statusCode) }) };
}
