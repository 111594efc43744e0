/**
 * The webhook worker's queue, in plain SQL (it runs in a hot loop; see TSql). Three steps:
 *
 * 1. **Fan-out** turns each outbox event into one message per matching endpoint, in one transaction
 *    with marking the event processed (so an event is queued once or not at all). One worker at a
 *    time fans out (a transaction-scoped advisory lock; the others skip it), which makes message ids
 *    follow the order events became visible: the per-endpoint delivery order.
 * 2. **Claim** takes the head of each endpoint's queue (its lowest unfinished message) with the
 *    run queued behind it, which one worker sends one after the other: an endpoint has at most one
 *    delivery in flight, and a slow or failing endpoint holds up nobody else. A claim sets the
 *    attempt number and a lease but leaves the status 'pending' (in flight = pending under a
 *    lease, shown as 'delivering'): it changes no indexed column, so the update can be HOT (the
 *    table keeps room on each page for it, migration 0016) — half the index writes of a delivery. FOR UPDATE SKIP
 *    LOCKED lets any number of workers claim side by side; a claim is a lease, taken over when it
 *    expires (a worker killed mid-delivery: its whole run is sent again — at least once).
 * 3. **Record** writes a run's attempts to the log and moves its messages on — delivered, due
 *    again, or dead — but only while each claim is still this worker's (its attempt number), so a
 *    late answer cannot overwrite a takeover; in the same statement it claims the endpoint's next
 *    run. One round trip per run, not per delivery: what lets one endpoint's sequential deliveries
 *    go at the speed of the receiver rather than of the database.
 */
import type { TDatabase } from '../database.js';

/** LISTEN channel: 'outbox' (trigger on outbox_events, migrations 0012 and 0027) and 'messages' (after a fan-out). */
export const WEBHOOK_CHANNEL = 'latchkey_webhooks';

/** The legacy organization feature that names a URL: an implicit ACTIVITY_UPDATES endpoint. */
export const LEGACY_WEBHOOK_FEATURE = 'FEATURE_NAME_WEBHOOK';
const LEGACY_ENDPOINT_PREFIX = 'org-feature-webhook:';

/** The endpoint id messages to an organization's FEATURE_NAME_WEBHOOK URL are queued under. */
export function legacyWebhookEndpointId(organizationId: string): string {
  return `${LEGACY_ENDPOINT_PREFIX}${organizationId}`;
}

/**
 * SQL: the webhook destinations of the organizations `owners` (a list of SQL expressions, e.g. an
 * organization's id and its parent's): the active subscriptions of their active endpoints, and
 * each one's legacy FEATURE_NAME_WEBHOOK URL as an ACTIVITY_UPDATES endpoint. Columns:
 * endpoint_id, organization_id (the endpoint's), event_type. The fan-out reads it for an event's
 * organization and its parent (sub-organization fan-out); `webhookDestinationExists` for the
 * organization alone.
 */
function destinationsOf(owners: string, legacyPrefix: string, legacyFeature: string): string {
  return `SELECT e.id AS endpoint_id, e.organization_id, s.event_type
          FROM webhook_endpoints e
          JOIN webhook_subscriptions s ON s.organization_id = e.organization_id AND s.endpoint_id = e.id
          WHERE e.organization_id IN (${owners}) AND e.is_active AND s.is_active
          UNION
          SELECT ${legacyPrefix} || f.organization_id, f.organization_id, 'ACTIVITY_UPDATES'
          FROM organization_features f
          WHERE f.organization_id IN (${owners}) AND f.name = ${legacyFeature} AND f.value <> ''`;
}

/**
 * SQL predicate: an event of type `eventType` made in organization `organizationId` (SQL
 * expressions) may have a destination: the organization is a sub-organization (its parent's
 * endpoints are not read here, so that the signing statement reads one organization's rows only —
 * one shard on Citus, README "Citus"), or it has a destination of its own right now. The signing
 * statement stores an event for which this is false already processed (activity-repository.ts
 * `insertWithEvent`): no worker is woken for it (migration 0027), and nothing is ever sent for it —
 * as before, when the worker fanned it out a moment after its commit, to nobody. When it is true
 * the fan-out decides, as for every other event.
 */
export function webhookDestinationExists(organizationId: string, eventType: string): string {
  return `EXISTS (SELECT 1 FROM organizations o
                  WHERE o.id = ${organizationId}
                    AND (o.parent_organization_id IS NOT NULL
                         OR EXISTS (SELECT 1 FROM (${destinationsOf('o.id', `'${LEGACY_ENDPOINT_PREFIX}'`, `'${LEGACY_WEBHOOK_FEATURE}'`)}) d WHERE d.event_type = ${eventType})))`;
}

// Arbitrary constant: the advisory-lock key of the fan-out (see 1. above).
const FANOUT_LOCK_KEY = 7_245_012;

export type TWebhookMessageStatus = 'pending' | 'delivering' | 'delivered' | 'dead';

/** A claimed message, with where it goes as of the claim. */
export interface TClaimedWebhookMessage {
  id: bigint;
  /** The endpoint's organization: the X-Turnkey-Organization-Id header. */
  organizationId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: Buffer;
  /** This attempt's number (1 for the first). */
  attempt: number;
  /** The URL now (endpoints can be edited between retries); null when the endpoint is gone. */
  url: string | null;
  /** False for a deactivated endpoint: its messages are dead-lettered, not sent. */
  endpointActive: boolean;
}

/** How an attempt ended, as the worker decided it. */
export type TAttemptOutcome =
  | { kind: 'delivered'; statusCode: number }
  | { kind: 'retry'; statusCode: number | null; error: string; retryInMs: number }
  | { kind: 'dead'; statusCode: number | null; error: string };

export interface TDeliveryLogEntry {
  eventId: string;
  attempt: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
  at: Date;
}

export interface TWebhookMessageRow {
  id: bigint;
  organizationId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: TWebhookMessageStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
}

/** What to redeliver: one event, or everything dead-lettered for an endpoint. */
export type TRedeliverTarget = { eventId: string } | { endpointId: string; dead: true };

/** An outbox event's body for the wire: the bare activity for ACTIVITY_UPDATES (§B5). */
export type TWebhookBodyOf = (eventType: string, payload: unknown) => Buffer;

interface TDestinationRow {
  source: string;
  endpoint_id: string;
  organization_id: string;
  event_type: string;
}

/** Claimed and not yet recorded: a message in flight (shown as 'delivering'). */
const IN_FLIGHT = `status IN ('pending', 'delivering') AND lease_until IS NOT NULL`;

const MESSAGE_COLUMNS = `id, organization_id AS "organizationId", endpoint_id AS "endpointId", event_id AS "eventId", event_type AS "eventType",
  CASE WHEN ${IN_FLIGHT} THEN 'delivering' ELSE status END AS status, attempts, last_status_code AS "lastStatusCode", last_error AS "lastError", next_attempt_at AS "nextAttemptAt", delivered_at AS "deliveredAt"`;

const toMessage = (r: Omit<TWebhookMessageRow, 'id'> & { id: string }): TWebhookMessageRow => ({ ...r, id: BigInt(r.id) });

/** The claimed rows of a statement, with their endpoint's URL and state ($P, $F: the legacy prefix and feature). */
function claimedProjection(p: string, f: string): string {
  return `c.id, c.organization_id AS "organizationId", c.endpoint_id AS "endpointId", c.event_id AS "eventId", c.event_type AS "eventType",
          c.body, c.attempts AS attempt, COALESCE(e.url, f.value) AS url, COALESCE(e.is_active, f.value IS NOT NULL) AS "endpointActive"
   FROM claimed c
   LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id AND e.organization_id = c.organization_id
   LEFT JOIN organization_features f ON c.endpoint_id = ${p} || c.organization_id AND f.organization_id = c.organization_id AND f.name = ${f} AND f.value <> ''`;
}

/** One attempt of a run, as the worker decided it. */
export interface TRecordEntry {
  m: TClaimedWebhookMessage;
  outcome: TAttemptOutcome;
  latencyMs: number;
}

/**
 * What to do after recording a run: claim the endpoint's next run (up to `runLength` messages for
 * `leaseMs`), yield the endpoint's next message to the other due heads, or nothing.
 */
export type TAfterRun = { claimNext: { leaseMs: number; runLength: number } } | { yieldNext: true } | null;

/** Whether a queued message may be claimed now: pending and due, or claimed under a lease that ran out. */
const CLAIMABLE = `((q.status = 'pending' AND q.next_attempt_at <= now() AND (q.lease_until IS NULL OR q.lease_until <= now())) OR (q.status = 'delivering' AND q.lease_until <= now()))`;
/**
 * A claim of ours, still unrecorded: the attempt number the claim gave it, under a lease. (Rows
 * claimed before migration 0016 have the status 'delivering'; since then a claim leaves the status
 * alone — see IN_FLIGHT.)
 */
const OURS = `q.attempts = r.attempt AND q.lease_until IS NOT NULL AND q.status IN ('pending', 'delivering')`;

/**
 * The run behind message `after` of an endpoint: the next `limit` unfinished messages in queue
 * order, cut at the first one that may not be claimed now, so a run never skips a message (order
 * is per endpoint). `o`, `e`, `after`: SQL expressions of the organization, the endpoint, the id.
 */
function runBehind(o: string, e: string, after: string, limit: string): string {
  return `SELECT s.id FROM (
      SELECT c.id, bool_and(c.claimable) OVER (ORDER BY c.id) AS ok FROM (
        SELECT q.id, ${CLAIMABLE} AS claimable FROM webhook_messages q
        WHERE q.organization_id = ${o} AND q.endpoint_id = ${e} AND q.id > ${after} AND q.status IN ('pending', 'delivering')
        ORDER BY q.id LIMIT ${limit}
      ) c
    ) s WHERE s.ok`;
}

type TClaimedRow = Omit<TClaimedWebhookMessage, 'id'> & { id: string };
const toClaimed = (r: TClaimedRow): TClaimedWebhookMessage => ({ ...r, id: BigInt(r.id) });

export function webhookDeliveryRepository(db: TDatabase) {
  /**
   * One statement for a run of one endpoint: the log entry of each attempt, each message's move
   * (where the claim is still ours: its attempt number), the messages of the run not attempted put
   * back as they were, and then — only when every attempt was held and finished the message —
   * the claim of the endpoint's next run, or the yield of its next message. The next run starts
   * after the run's last message: the index scan then skips the entries of every message finished
   * before (dead entries of the partial queue index until vacuum, each a heap visit), which made
   * each delivery cost more as the endpoint's history grew. A message redelivered later (older
   * id) is found by the claim's head scan instead.
   */
  async function recordRun(entries: readonly TRecordEntry[], released: readonly TClaimedWebhookMessage[], then: TAfterRun): Promise<{ held: number; next: TClaimedWebhookMessage[] }> {
    const claimNext = then && 'claimNext' in then ? then.claimNext : null;
    const yieldNext = then !== null && 'yieldNext' in then;
    const col = <T>(f: (e: TRecordEntry) => T) => entries.map(f);
    const { rows } = await db.sql.query<{ held: string } & Partial<TClaimedRow>>(
      `WITH r AS (
         SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::int[], $5::text[], $6::bigint[], $7::int[], $8::text[], $9::text[], $10::text[])
           AS r(id, attempt, status, status_code, error, retry_ms, latency_ms, organization_id, endpoint_id, event_id)
       ), moved AS (
         UPDATE webhook_messages q
         SET status = r.status, lease_until = NULL, last_status_code = r.status_code, last_error = r.error, updated_at = now(),
             next_attempt_at = CASE WHEN r.retry_ms IS NULL THEN q.next_attempt_at ELSE now() + r.retry_ms * interval '1 millisecond' END,
             delivered_at = CASE WHEN r.status = 'delivered' THEN now() END
         FROM r WHERE q.id = r.id AND ${OURS}
         RETURNING q.id, q.organization_id, q.endpoint_id, q.status
       ), logged AS (
         INSERT INTO webhook_delivery_attempts (organization_id, endpoint_id, message_id, event_id, attempt, status_code, latency_ms, error, next_attempt_at)
         SELECT r.organization_id, r.endpoint_id, r.id, r.event_id, r.attempt, r.status_code, r.latency_ms, r.error,
                CASE WHEN r.retry_ms IS NULL THEN NULL ELSE now() + r.retry_ms * interval '1 millisecond' END
         FROM r
         RETURNING 1
       ), released AS (
         -- Claimed, not attempted: as before the claim (the attempt was counted when claimed).
         UPDATE webhook_messages q SET status = 'pending', attempts = q.attempts - 1, lease_until = NULL, updated_at = now()
         FROM unnest($11::bigint[], $12::int[]) AS r(id, attempt)
         WHERE q.id = r.id AND ${OURS}
         RETURNING 1
       ), last AS (
         SELECT organization_id, endpoint_id, max(id) AS id FROM moved
         WHERE $13::int IS NOT NULL OR $14::boolean
         GROUP BY organization_id, endpoint_id
         HAVING count(*) = $15 AND bool_and(status IN ('delivered', 'dead'))
       ), nxt AS (
         SELECT n.id FROM last CROSS JOIN LATERAL (${runBehind('last.organization_id', 'last.endpoint_id', 'last.id', 'COALESCE($13::int, 1)')}) n
       ), yielded AS (
         -- Due from now on: behind every head that was already due (the claim serves the oldest due first).
         UPDATE webhook_messages q SET next_attempt_at = now()
         FROM (SELECT min(id) AS id FROM nxt) n
         WHERE $14::boolean AND q.id = n.id AND q.status = 'pending' AND q.next_attempt_at < now()
         RETURNING 1
       ), claimed AS (
         -- The UPDATE waits for each row and re-checks it, so a message another worker took meanwhile is left alone.
         UPDATE webhook_messages q
         SET attempts = q.attempts + 1, lease_until = now() + $16::bigint * interval '1 millisecond', updated_at = now()
         FROM nxt
         WHERE $13::int IS NOT NULL AND q.id = nxt.id AND ${CLAIMABLE}
         RETURNING q.id, q.organization_id, q.endpoint_id, q.event_id, q.event_type, q.body, q.attempts
       )
       SELECT (SELECT count(*) FROM moved) AS held, (SELECT count(*) FROM logged) AS logged, (SELECT count(*) FROM released) AS released,
              (SELECT count(*) FROM yielded) AS yielded, ${claimedProjection('$17', '$18')}
       RIGHT JOIN (SELECT 1) one ON true
       ORDER BY c.id`,
      [
        col((e) => e.m.id.toString()),
        col((e) => e.m.attempt),
        col((e) => (e.outcome.kind === 'retry' ? 'pending' : e.outcome.kind)),
        col((e) => e.outcome.statusCode),
        col((e) => (e.outcome.kind === 'delivered' ? null : e.outcome.error)),
        col((e) => (e.outcome.kind === 'retry' ? Math.max(0, Math.round(e.outcome.retryInMs)) : null)),
        col((e) => Math.max(0, Math.round(e.latencyMs))),
        col((e) => e.m.organizationId),
        col((e) => e.m.endpointId),
        col((e) => e.m.eventId),
        released.map((m) => m.id.toString()),
        released.map((m) => m.attempt),
        claimNext?.runLength ?? null,
        yieldNext,
        entries.length,
        claimNext?.leaseMs ?? null,
        LEGACY_ENDPOINT_PREFIX,
        LEGACY_WEBHOOK_FEATURE,
      ],
      'webhook_record',
    );
    const held = Number(rows[0]?.held ?? 0);
    return { held, next: rows.filter((r) => r.id != null).map((r) => toClaimed(r as TClaimedRow)) };
  }

  return {
    /**
     * Fans up to `limit` due outbox events out into messages (see 1. above). Returns how many events
     * it took (and those whose body could not be built: processed, their error kept in the outbox
     * row), or 'busy' when another worker is fanning out right now.
     */
    async fanOut(limit: number, bodyOf: TWebhookBodyOf, newEventId: () => string): Promise<{ events: number; messages: number; unsendable: { id: string; error: string }[] } | 'busy'> {
      return db.sqlTransaction(async (tx) => {
        const lock = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [FANOUT_LOCK_KEY], 'webhook_fanout_lock');
        if (!lock.rows[0]?.ok) return 'busy' as const;
        const events = (
          await tx.query<{ id: string; organization_id: string; event_type: string; payload: unknown }>(
            `SELECT id, organization_id, event_type, payload FROM outbox_events
             WHERE processed_at IS NULL AND available_at <= now()
             ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
            [limit],
            'webhook_fanout_claim',
          )
        ).rows;
        if (events.length === 0) return { events: 0, messages: 0, unsendable: [] };
        // Endpoints of each event's organization and of its parent (destinationsOf).
        const destinations = (
          await tx.query<TDestinationRow>(
            `SELECT o.id AS source, d.endpoint_id, d.organization_id, d.event_type
             FROM organizations o
             CROSS JOIN LATERAL (${destinationsOf('o.id, o.parent_organization_id', '$2', '$3')}) d
             WHERE o.id = ANY($1::text[])
             ORDER BY d.organization_id, d.endpoint_id`,
            [[...new Set(events.map((e) => e.organization_id))], LEGACY_ENDPOINT_PREFIX, LEGACY_WEBHOOK_FEATURE],
            'webhook_fanout_destinations',
          )
        ).rows;
        const cols = { org: [] as string[], endpoint: [] as string[], eventId: [] as string[], type: [] as string[], outbox: [] as string[], body: [] as Buffer[] };
        const unsendable: { id: string; error: string }[] = [];
        for (const e of events) {
          let body: Buffer | undefined;
          for (const d of destinations) {
            if (d.source !== e.organization_id || d.event_type !== e.event_type) continue;
            if (body === undefined) {
              // One malformed event must not block the outbox: it is set aside with its error.
              try {
                body = bodyOf(e.event_type, e.payload);
              } catch (err) {
                unsendable.push({ id: e.id, error: err instanceof Error ? err.message : String(err) });
                break;
              }
            }
            cols.org.push(d.organization_id);
            cols.endpoint.push(d.endpoint_id);
            cols.eventId.push(newEventId());
            cols.type.push(e.event_type);
            cols.outbox.push(e.id);
            cols.body.push(body);
          }
        }
        if (cols.org.length > 0) {
          // Durable even when the worker's sessions commit asynchronously (see asyncCommitUrl): event
          // ids are made here, and a fan-out lost in a database crash after its messages were sent
          // would be redone under new ids, which receivers could not recognise as repeats. A fan-out
          // that made no message (the common case: no endpoint subscribed) stays asynchronous: losing
          // it only means fanning the same events out again, and it no longer costs a second disk
          // flush per activity beside the activity's own (docs/BENCHMARKS.md, signing).
          await tx.query('SET LOCAL synchronous_commit = on');
          await tx.query(
            `INSERT INTO webhook_messages (organization_id, endpoint_id, event_id, event_type, outbox_event_id, body)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bytea[])
             ON CONFLICT (endpoint_id, outbox_event_id) DO NOTHING`,
            [cols.org, cols.endpoint, cols.eventId, cols.type, cols.outbox, cols.body],
            'webhook_fanout_insert',
          );
          await tx.query(`SELECT pg_notify($1, 'messages')`, [WEBHOOK_CHANNEL]);
        }
        await tx.query(`UPDATE outbox_events SET processed_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY($1::bigint[])`, [events.map((e) => e.id)], 'webhook_fanout_done');
        if (unsendable.length > 0) {
          await tx.query(`UPDATE outbox_events o SET last_error = u.error FROM unnest($1::bigint[], $2::text[]) AS u(id, error) WHERE o.id = u.id`, [unsendable.map((u) => u.id), unsendable.map((u) => u.error)]);
        }
        return { events: events.length, messages: cols.org.length, unsendable };
      });
    },

    /**
     * Claims up to `limit` due heads of endpoint queues for `leaseMs` (see 2. above), longest due
     * first, each with the run of up to `runLength - 1` messages queued behind it (sent one after
     * the other by one worker); each claimed message counts as an attempt. Returned in id order.
     */
    async claim(limit: number, leaseMs: number, runLength = 1): Promise<TClaimedWebhookMessage[]> {
      const { rows } = await db.sql.query<TClaimedRow>(
        // The heads by a loose index scan of webhook_messages_queue_idx: one index probe per
        // endpoint with unfinished messages, however long each queue is (DISTINCT ON would read
        // every queued row at every claim).
        `WITH RECURSIVE heads AS (
           (SELECT organization_id, endpoint_id, id FROM webhook_messages
            WHERE status IN ('pending', 'delivering')
            ORDER BY organization_id, endpoint_id, id LIMIT 1)
           UNION ALL
           SELECT n.organization_id, n.endpoint_id, n.id FROM heads h
           CROSS JOIN LATERAL (
             SELECT organization_id, endpoint_id, id FROM webhook_messages
             WHERE status IN ('pending', 'delivering') AND (organization_id, endpoint_id) > (h.organization_id, h.endpoint_id)
             ORDER BY organization_id, endpoint_id, id LIMIT 1
           ) n
         ), due AS (
           SELECT q.id, q.organization_id, q.endpoint_id FROM webhook_messages q JOIN heads h ON h.id = q.id
           WHERE ${CLAIMABLE}
           ORDER BY q.next_attempt_at, q.id
           LIMIT $1
           FOR UPDATE OF q SKIP LOCKED
         ), run AS (
           SELECT id FROM due
           UNION ALL
           SELECT t.id FROM due CROSS JOIN LATERAL (${runBehind('due.organization_id', 'due.endpoint_id', 'due.id', '$5::int - 1')}) t
         ), claimed AS (
           UPDATE webhook_messages q
           SET attempts = q.attempts + 1, lease_until = now() + $2 * interval '1 millisecond', updated_at = now()
           FROM run WHERE q.id = run.id AND ${CLAIMABLE}
           RETURNING q.id, q.organization_id, q.endpoint_id, q.event_id, q.event_type, q.body, q.attempts
         )
         SELECT ${claimedProjection('$3', '$4')}
         ORDER BY c.id`,
        [limit, leaseMs, LEGACY_ENDPOINT_PREFIX, LEGACY_WEBHOOK_FEATURE, Math.max(1, runLength)],
        'webhook_claim',
      );
      return rows.map(toClaimed);
    },

    /**
     * Logs one attempt and moves its message on, if the claim is still ours (see 3. above).
     * Returns false when the claim was lost (lease expired and taken over, or endpoint deleted):
     * the attempt is logged all the same.
     */
    async record(m: TClaimedWebhookMessage, outcome: TAttemptOutcome, latencyMs: number): Promise<boolean> {
      return (await recordRun([{ m, outcome, latencyMs }], [], null)).held === 1;
    },

    /**
     * Records a run of one endpoint in one statement (see 3. above): `entries`, the attempts made,
     * in queue order; `released`, the messages of the run not attempted (the run stopped at a
     * retry, or to stay inside its lease), queued again as they were. Then, when every attempt
     * was held and finished its message, `then` claims the endpoint's next run (a busy endpoint's
     * queue costs one round trip per run, and no scan of every endpoint's head) or yields its next
     * message behind the heads of other endpoints that were due already (how a worker that chained
     * many runs for one endpoint hands its slot to the others). Returns how many attempts were
     * still ours to record, and the next run's messages.
     */
    recordRun,

    /**
     * Queues messages again with a fresh attempt budget, due now: one event (any status but in
     * flight), or every dead letter of an endpoint. Returns how many. A redelivered message keeps
     * its event id (receivers deduplicate by it) and its place in the endpoint's order.
     */
    async redeliver(target: TRedeliverTarget): Promise<number> {
      const where = 'eventId' in target ? `event_id = $1 AND NOT (${IN_FLIGHT})` : `endpoint_id = $1 AND status = 'dead'`;
      const { rows } = await db.sql.query<{ n: string }>(
        `WITH r AS (
           UPDATE webhook_messages SET status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = NULL, delivered_at = NULL, updated_at = now()
           WHERE ${where} RETURNING 1
         ), n AS (SELECT pg_notify($2, 'messages') FROM (SELECT 1) x WHERE EXISTS (SELECT 1 FROM r))
         SELECT (SELECT count(*) FROM r) AS n, (SELECT count(*) FROM n) AS notified`,
        ['eventId' in target ? target.eventId : target.endpointId, WEBHOOK_CHANNEL],
      );
      return Number(rows[0]?.n ?? 0);
    },

    /** Deletes log entries, and delivered messages, older than `days` days. Returns the rows removed. */
    async prune(days: number): Promise<{ attempts: number; messages: number }> {
      const a = await db.sql.query<{ n: string }>(`WITH d AS (DELETE FROM webhook_delivery_attempts WHERE at < now() - $1 * interval '1 day' RETURNING 1) SELECT count(*) AS n FROM d`, [days]);
      const m = await db.sql.query<{ n: string }>(`WITH d AS (DELETE FROM webhook_messages WHERE status = 'delivered' AND delivered_at < now() - $1 * interval '1 day' RETURNING 1) SELECT count(*) AS n FROM d`, [days]);
      return { attempts: Number(a.rows[0]?.n ?? 0), messages: Number(m.rows[0]?.n ?? 0) };
    },

    /** An endpoint's delivery log, newest first. */
    async log(organizationId: string, endpointId: string, limit = 100): Promise<TDeliveryLogEntry[]> {
      const { rows } = await db.sql.query<TDeliveryLogEntry>(
        `SELECT event_id AS "eventId", attempt, status_code AS "statusCode", latency_ms AS "latencyMs", error, next_attempt_at AS "nextAttemptAt", at
         FROM webhook_delivery_attempts WHERE organization_id = $1 AND endpoint_id = $2 ORDER BY at DESC, id DESC LIMIT $3`,
        [organizationId, endpointId, limit],
      );
      return rows;
    },

    /** An endpoint's messages in queue order (optionally of one status). */
    async messages(organizationId: string, endpointId: string, status?: TWebhookMessageStatus): Promise<TWebhookMessageRow[]> {
      const { rows } = await db.sql.query<Omit<TWebhookMessageRow, 'id'> & { id: string }>(
        `SELECT ${MESSAGE_COLUMNS} FROM webhook_messages WHERE organization_id = $1 AND endpoint_id = $2 AND ($3::text IS NULL OR (CASE WHEN ${IN_FLIGHT} THEN 'delivering' ELSE status END) = $3) ORDER BY id`,
        [organizationId, endpointId, status ?? null],
      );
      return rows.map(toMessage);
    },

    /** Messages not finished yet (pending or in flight), across all endpoints. */
    async unfinishedCount(): Promise<number> {
      const { rows } = await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_messages WHERE status IN ('pending', 'delivering')`);
      return Number(rows[0]?.n ?? 0);
    },

    /** Seconds until the earliest pending message is due (null: none), for the worker's sleep. */
    async nextDueInMs(): Promise<number | null> {
      const { rows } = await db.sql.query<{ ms: number | null }>(
        `SELECT GREATEST(0, extract(epoch FROM (min(GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at))) - now())) * 1000)::float8 AS ms
         FROM webhook_messages WHERE status IN ('pending', 'delivering')`,
        [],
        'webhook_next_due',
      );
      return rows[0]?.ms ?? null;
    },
  };
}

export type TWebhookDeliveryRepository = ReturnType<typeof webhookDeliveryRepository>;
