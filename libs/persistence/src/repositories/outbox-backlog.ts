/**
 * The outbox's backlog as the metrics see it: how many events wait for delivery and how old the
 * oldest is. Read once per scrape (never on a request); the count walks only the pending rows,
 * through the partial index `outbox_events_pending_idx` (WHERE processed_at IS NULL), so a long
 * delivered history costs nothing.
 */
import type { TSql } from '../database.js';

export interface TOutboxBacklog {
  /** Events not yet processed (delivered or given up on). */
  depth: number;
  /** Seconds since the oldest of them was written; 0 when there is none. */
  oldestAgeSeconds: number;
}

export async function readOutboxBacklog(sql: TSql): Promise<TOutboxBacklog> {
  const { rows } = await sql.query<{ depth: number; age: number }>(
    `SELECT count(*)::int AS depth, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
       FROM outbox_events WHERE processed_at IS NULL`,
    [],
    'outbox_backlog',
  );
  const r = rows[0];
  return { depth: r?.depth ?? 0, oldestAgeSeconds: Math.max(0, r?.age ?? 0) };
}
