/**
 * The webhook worker's queue, in plain SQL (it runs in a hot loop; see TSql). Three steps:
 *
 * 1. **Fan-out** turns each outbox event into one message per matching endpoint, in one transaction
 *    with marking the event processed (so an event is queued once or not at all). One worker at a
 *    time fans out (a transaction-scoped advisory lock; the others skip it), which makes message ids
 *    follow the order events became visible: the per-endpoint delivery order.
 * 2. **Claim** takes only the head of each endpoint's queue (its lowest unfinished message), so an
 *    endpoint has at most one delivery in flight and a slow or failing endpoint holds up nobody
 *    else. FOR UPDATE SKIP LOCKED lets any number of workers claim side by side; a claim is a lease,
 *    taken over when it expires (a worker killed mid-delivery).
 * 3. **Record** writes the attempt to the log and moves the message on — delivered, due again, or
 *    dead — but only while the claim is still this worker's (its attempt number), so a late answer
 *    cannot overwrite a takeover.
 */
import type { TDatabase } from '../database.js';

/** LISTEN channel: 'outbox' (trigger on outbox_events, migration 0012) and 'messages' (after a fan-out). */
export const WEBHOOK_CHANNEL = 'latchkey_webhooks';

/** The legacy organization feature that names a URL: an implicit ACTIVITY_UPDATES endpoint. */
export const LEGACY_WEBHOOK_FEATURE = 'FEATURE_NAME_WEBHOOK';
const LEGACY_ENDPOINT_PREFIX = 'org-feature-webhook:';

/** The endpoint id messages to an organization's FEATURE_NAME_WEBHOOK URL are queued under. */
export function legacyWebhookEndpointId(organizationId: string): string {
  return `${LEGACY_ENDPOINT_PREFIX}${organizationId}`;
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

const MESSAGE_COLUMNS = `id, organization_id AS "organizationId", endpoint_id AS "endpointId", event_id AS "eventId", event_type AS "eventType",
  status, attempts, last_status_code AS "lastStatusCode", last_error AS "lastError", next_attempt_at AS "nextAttemptAt", delivered_at AS "deliveredAt"`;

const toMessage = (r: Omit<TWebhookMessageRow, 'id'> & { id: string }): TWebhookMessageRow => ({ ...r, id: BigInt(r.id) });

/** The claimed rows of a statement, with their endpoint's URL and state ($P, $F: the legacy prefix and feature). */
function claimedProjection(p: string, f: string): string {
  return `c.id, c.organization_id AS "organizationId", c.endpoint_id AS "endpointId", c.event_id AS "eventId", c.event_type AS "eventType",
          c.body, c.attempts AS attempt, COALESCE(e.url, f.value) AS url, COALESCE(e.is_active, f.value IS NOT NULL) AS "endpointActive"
   FROM claimed c
   LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id AND e.organization_id = c.organization_id
   LEFT JOIN organization_features f ON c.endpoint_id = ${p} || c.organization_id AND f.organization_id = c.organization_id AND f.name = ${f} AND f.value <> ''`;
}

type TClaimedRow = Omit<TClaimedWebhookMessage, 'id'> & { id: string };
const toClaimed = (r: TClaimedRow): TClaimedWebhookMessage => ({ ...r, id: BigInt(r.id) });

export function webhookDeliveryRepository(db: TDatabase) {
  /**
   * One statement: the attempt's log entry, the message's move (if the claim is still ours) and,
   * with `chainLeaseMs`, the claim of the endpoint's next head. The next head is the lowest
   * unfinished message other than this one, found without a lock; the UPDATE that claims it waits
   * for its row and re-checks that it is due, so a head another worker took meanwhile is left alone.
   */
  async function recordAttempt(m: TClaimedWebhookMessage, outcome: TAttemptOutcome, latencyMs: number, then: { claimNextForMs: number } | { yieldNext: true } | null): Promise<{ held: boolean; next: TClaimedWebhookMessage | null }> {
    const chainLeaseMs = then && 'claimNextForMs' in then ? then.claimNextForMs : null;
    const yieldNext = then !== null && 'yieldNext' in then;
    const status: TWebhookMessageStatus = outcome.kind === 'retry' ? 'pending' : outcome.kind;
    const retryMs = outcome.kind === 'retry' ? Math.max(0, Math.round(outcome.retryInMs)) : null;
    const error = outcome.kind === 'delivered' ? null : outcome.error;
    const { rows } = await db.sql.query<{ held: string } & Partial<TClaimedRow>>(
      `WITH moved AS (
         UPDATE webhook_messages
         SET status = $3, lease_until = NULL, last_status_code = $4, last_error = $5, updated_at = now(),
             next_attempt_at = CASE WHEN $6::bigint IS NULL THEN next_attempt_at ELSE now() + $6::bigint * interval '1 millisecond' END,
             delivered_at = CASE WHEN $3 = 'delivered' THEN now() END
         WHERE id = $1 AND attempts = $2 AND status = 'delivering'
         RETURNING id, organization_id, endpoint_id, status
       ), logged AS (
         INSERT INTO webhook_delivery_attempts (organization_id, endpoint_id, message_id, event_id, attempt, status_code, latency_ms, error, next_attempt_at)
         VALUES ($7, $8, $1, $9, $2, $4, $10, $5, CASE WHEN $6::bigint IS NULL THEN NULL ELSE now() + $6::bigint * interval '1 millisecond' END)
         RETURNING 1
       ), nxt AS (
         -- The finished message was its endpoint's head, so the next one has a greater id: starting the
         -- index scan there skips the entries of every message delivered before (dead index entries
         -- of the partial queue index until vacuum, each a heap visit), which made each delivery cost
         -- more as the endpoint's history grew. A message redelivered later (older id) is found by
         -- the claim's head scan instead.
         SELECT q.id FROM webhook_messages q JOIN moved ON q.organization_id = moved.organization_id AND q.endpoint_id = moved.endpoint_id
         WHERE ($11::bigint IS NOT NULL OR $14::boolean) AND moved.status IN ('delivered', 'dead') AND q.id > moved.id AND q.status IN ('pending', 'delivering')
         ORDER BY q.id LIMIT 1
       ), yielded AS (
         -- Due from now on: behind every head that was already due (the claim serves the oldest due first).
         UPDATE webhook_messages q SET next_attempt_at = now()
         FROM nxt WHERE $14::boolean AND q.id = nxt.id AND q.status = 'pending' AND q.next_attempt_at < now()
         RETURNING 1
       ), claimed AS (
         UPDATE webhook_messages q
         SET status = 'delivering', attempts = q.attempts + 1, lease_until = now() + $11::bigint * interval '1 millisecond', updated_at = now()
         FROM nxt
         WHERE $11::bigint IS NOT NULL AND q.id = nxt.id AND ((q.status = 'pending' AND q.next_attempt_at <= now()) OR (q.status = 'delivering' AND q.lease_until <= now()))
         RETURNING q.id, q.organization_id, q.endpoint_id, q.event_id, q.event_type, q.body, q.attempts
       )
       SELECT (SELECT count(*) FROM moved) AS held, (SELECT count(*) FROM logged) AS logged, ${claimedProjection('$12', '$13')}
       RIGHT JOIN (SELECT 1) one ON true`,
      [
        m.id.toString(),
        m.attempt,
        status,
        outcome.statusCode,
        error,
        retryMs,
        m.organizationId,
        m.endpointId,
        m.eventId,
        Math.max(0, Math.round(latencyMs)),
        chainLeaseMs,
        LEGACY_ENDPOINT_PREFIX,
        LEGACY_WEBHOOK_FEATURE,
        yieldNext,
      ],
      'webhook_record',
    );
    const r = rows[0];
    return { held: r?.held === '1', next: r?.id != null ? toClaimed(r as TClaimedRow) : null };
  }

  return {
    /**
     * Fans up to `limit` due outbox events out into messages (see 1. above). Returns how many events
     * it took (and those whose body could not be built: processed, their error kept in the outbox
     * row), or 'busy' when another worker is fanning out right now.
     */
    async fanOut(limit: number, bodyOf: TWebhookBodyOf, newEventId: () => string): Promise<{ events: number; messages: number; unsendable: { id: string; error: string }[] } | 'busy'> {
      return db.sqlTransaction(async (tx) => {
        // Durable even when the worker's sessions commit asynchronously (see asyncCommitUrl): event
        // ids are made here, and a fan-out lost in a database crash after its messages were sent
        // would be redone under new ids, which receivers could not recognise as repeats.
        await tx.query('SET LOCAL synchronous_commit = on');
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
        // Endpoints of each event's organization and of its parent (sub-organization fan-out), and
        // each of those organizations' legacy FEATURE_NAME_WEBHOOK URL as an ACTIVITY_UPDATES endpoint.
        const destinations = (
          await tx.query<TDestinationRow>(
            `SELECT o.id AS source, d.endpoint_id, d.organization_id, d.event_type
             FROM organizations o
             CROSS JOIN LATERAL (
               SELECT e.id AS endpoint_id, e.organization_id, s.event_type
               FROM webhook_endpoints e
               JOIN webhook_subscriptions s ON s.organization_id = e.organization_id AND s.endpoint_id = e.id
               WHERE e.organization_id IN (o.id, o.parent_organization_id) AND e.is_active AND s.is_active
               UNION
               SELECT $2 || f.organization_id, f.organization_id, 'ACTIVITY_UPDATES'
               FROM organization_features f
               WHERE f.organization_id IN (o.id, o.parent_organization_id) AND f.name = $3 AND f.value <> ''
             ) d
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
     * first; each claim counts as an attempt.
     */
    async claim(limit: number, leaseMs: number): Promise<TClaimedWebhookMessage[]> {
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
           SELECT m.id FROM webhook_messages m JOIN heads h ON h.id = m.id
           WHERE (m.status = 'pending' AND m.next_attempt_at <= now()) OR (m.status = 'delivering' AND m.lease_until <= now())
           ORDER BY m.next_attempt_at, m.id
           LIMIT $1
           FOR UPDATE OF m SKIP LOCKED
         ), claimed AS (
           UPDATE webhook_messages m
           SET status = 'delivering', attempts = m.attempts + 1, lease_until = now() + $2 * interval '1 millisecond', updated_at = now()
           FROM due WHERE m.id = due.id
           RETURNING m.id, m.organization_id, m.endpoint_id, m.event_id, m.event_type, m.body, m.attempts
         )
         SELECT ${claimedProjection('$3', '$4')}
         ORDER BY c.id`,
        [limit, leaseMs, LEGACY_ENDPOINT_PREFIX, LEGACY_WEBHOOK_FEATURE],
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
      return (await recordAttempt(m, outcome, latencyMs, null)).held;
    },

    /**
     * `record`, and when the message is finished its endpoint's next message becomes due only now,
     * behind the heads of other endpoints that were due already: how a worker that chained many
     * deliveries for one endpoint hands its slot to the others.
     */
    async recordAndYield(m: TClaimedWebhookMessage, outcome: TAttemptOutcome, latencyMs: number): Promise<boolean> {
      return (await recordAttempt(m, outcome, latencyMs, { yieldNext: true })).held;
    },

    /**
     * `record`, and when the message is finished (delivered or dead) claims its endpoint's next
     * head if it is due, in the same statement: a busy endpoint's queue then costs one round trip
     * per delivery instead of two, and no scan of every endpoint's head.
     */
    async recordAndClaimNext(m: TClaimedWebhookMessage, outcome: TAttemptOutcome, latencyMs: number, leaseMs: number): Promise<{ held: boolean; next: TClaimedWebhookMessage | null }> {
      return recordAttempt(m, outcome, latencyMs, { claimNextForMs: leaseMs });
    },

    /**
     * Queues messages again with a fresh attempt budget, due now: one event (any status but in
     * flight), or every dead letter of an endpoint. Returns how many. A redelivered message keeps
     * its event id (receivers deduplicate by it) and its place in the endpoint's order.
     */
    async redeliver(target: TRedeliverTarget): Promise<number> {
      const where = 'eventId' in target ? `event_id = $1 AND status <> 'delivering'` : `endpoint_id = $1 AND status = 'dead'`;
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
        `SELECT ${MESSAGE_COLUMNS} FROM webhook_messages WHERE organization_id = $1 AND endpoint_id = $2 AND ($3::text IS NULL OR status = $3) ORDER BY id`,
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
        `SELECT GREATEST(0, extract(epoch FROM (min(COALESCE(CASE WHEN status = 'pending' THEN next_attempt_at ELSE lease_until END, now())) - now())) * 1000)::float8 AS ms
         FROM webhook_messages WHERE status IN ('pending', 'delivering')`,
        [],
        'webhook_next_due',
      );
      return rows[0]?.ms ?? null;
    },
  };
}

export type TWebhookDeliveryRepository = ReturnType<typeof webhookDeliveryRepository>;
