/**
 * The outbox: events written in the same transaction as the change that caused them, delivered
 * later by the webhook worker. Several workers share it: a batch is claimed with
 * FOR UPDATE SKIP LOCKED, so no event is handed to two workers at once.
 */
import type { TDatabase, TDb } from '../database.js';
import type { Prisma } from '../generated/prisma/client.js';

export interface TOutboxEvent {
  id: bigint;
  organizationId: string;
  eventType: string;
  payload: unknown;
  attempts: number;
}

export type TOutboxOutcome = { ok: true } | { ok: false; error: string; retryInMs: number | null };

export function outboxRepository(db: TDb) {
  return {
    async append(e: { organizationId: string; eventType: string; payload: Prisma.InputJsonValue }): Promise<void> {
      await db.outboxEvent.create({ data: e });
    },
    async pendingCount(): Promise<number> {
      return db.outboxEvent.count({ where: { processedAt: null } });
    },
  };
}

/**
 * Claims up to `limit` due events, hands them to `handle` while holding their row locks, and
 * records each outcome — all in one transaction. Returns how many events were claimed.
 */
export async function processOutboxBatch(
  db: TDatabase,
  limit: number,
  handle: (events: TOutboxEvent[]) => Promise<Map<bigint, TOutboxOutcome>>,
): Promise<number> {
  return db.prisma.$transaction(
    async (tx) => {
      const events = await tx.$queryRaw<TOutboxEvent[]>`
        SELECT id, organization_id AS "organizationId", event_type AS "eventType", payload, attempts
        FROM outbox_events
        WHERE processed_at IS NULL AND available_at <= now()
        ORDER BY available_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED`;
      if (events.length === 0) return 0;
      const outcomes = await handle(events);
      for (const e of events) {
        const o = outcomes.get(e.id) ?? { ok: false, error: 'not handled', retryInMs: 1000 };
        if (o.ok) {
          await tx.outboxEvent.update({ where: { id: e.id }, data: { processedAt: new Date(), attempts: { increment: 1 }, lastError: null } });
        } else if (o.retryInMs === null) {
          await tx.outboxEvent.update({ where: { id: e.id }, data: { processedAt: new Date(), attempts: { increment: 1 }, lastError: o.error } });
        } else {
          await tx.outboxEvent.update({
            where: { id: e.id },
            data: { attempts: { increment: 1 }, lastError: o.error, availableAt: new Date(Date.now() + o.retryInMs) },
          });
        }
      }
      return events.length;
    },
    { timeout: 60_000 },
  );
}
export type TOutboxRepository = ReturnType<typeof outboxRepository>;
