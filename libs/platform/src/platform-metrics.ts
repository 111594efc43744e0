/**
 * The metrics of an app built on the platform (the public API, the admin app): the shared request
 * histogram plus activities by type and status, the pool, the outbox backlog and the auth cache.
 * Two steps because the activity observer must exist before the engine does (`openPlatform`
 * takes it) and the gauges read the platform once it is open.
 */
import { activityCounter, createMetrics, registerAuthCacheCounters, registerDatabaseGauges, type TMetrics } from '@latchkey/http';
import { readOutboxBacklog } from '@latchkey/persistence';
import type { TPlatform } from './platform.js';

/** The registry of `service` and the observer to hand `openPlatform({ onActivity })`. */
export function createPlatformMetrics(service: string, token: string | undefined): { metrics: TMetrics; onActivity: (a: { type: string; status: string }) => void } {
  const metrics = createMetrics({ service, token });
  return { metrics, onActivity: activityCounter(metrics) };
}

/** Adds the gauges that read the open platform (on scrape only). */
export function instrumentPlatform(metrics: TMetrics, platform: Pick<TPlatform, 'db' | 'engine'>): void {
  registerDatabaseGauges(metrics, { poolStats: () => platform.db.poolStats(), outboxBacklog: () => readOutboxBacklog(platform.db.sql) });
  registerAuthCacheCounters(metrics, () => platform.engine.cache.stats());
}
