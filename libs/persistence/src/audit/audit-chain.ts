/**
 * The per-organization hash chain over finalised activities (migration 0021): the statements that
 * append a link, and the verifier that recomputes every chain from the activity rows.
 *
 * Appending is one upsert of the organization's `audit_chain_heads` row — SQL computes
 * `sha256(head.hash || bytes)` there, so the previous hash never makes a round trip — plus the
 * entry insert, both as CTEs of the statement that finalises the activity (see
 * activity-repository.ts). The head's row lock, held until that statement's transaction ends,
 * orders the links of one organization; other organizations' heads are other rows.
 */
import type { TSql } from '../database.js';
import { AUDIT_GENESIS_HASH, canonicalActivityBytes, nextAuditHash, type TAuditedActivity } from './canonical-activity.js';

/**
 * CTEs appending one link. `rows` is a FROM clause yielding `organization_id` (one row, or none to
 * append nothing); `$bytes` and `$activityId` are the placeholders of the canonical bytes (hex) and
 * the activity id. Ends with the `audit_link` CTE.
 */
export function auditAppendCtes(rows: string, bytes: string, activityId: string): string {
  return `audit_head AS (
           INSERT INTO audit_chain_heads AS h (organization_id, seq, hash, updated_at)
           SELECT organization_id, 1, sha256(decode(repeat('00', 32), 'hex') || decode(${bytes}, 'hex')), now() FROM ${rows}
           ON CONFLICT (organization_id) DO UPDATE SET seq = h.seq + 1, hash = sha256(h.hash || decode(${bytes}, 'hex')), updated_at = now()
           RETURNING organization_id, seq, hash),
         audit_link AS (
           INSERT INTO audit_log_entries (organization_id, seq, activity_id, hash)
           SELECT organization_id, seq, ${activityId}, hash FROM audit_head
           RETURNING seq)`;
}

/** Why a link does not hold. */
export type TAuditBreakReason =
  /** The entry's sequence number is not the one after its predecessor's (an entry was removed). */
  | 'SEQUENCE_GAP'
  /** The entry names an activity that is not stored any more. */
  | 'ACTIVITY_MISSING'
  /** The recomputed hash differs: the activity row, or the entry's hash, was changed. */
  | 'HASH_MISMATCH'
  /** The chain head does not name the last entry (entries removed at the end, or the head edited). */
  | 'HEAD_MISMATCH'
  /** A COMPLETED, FAILED or REJECTED activity, finalised since the chain began, has no entry. */
  | 'UNCHAINED_ACTIVITY';

export interface TAuditBreak {
  organizationId: string;
  /** The first entry that does not hold (for UNCHAINED_ACTIVITY: the number of entries). */
  seq: number;
  activityId: string | null;
  reason: TAuditBreakReason;
}

export interface TAuditOrgReport {
  organizationId: string;
  entries: number;
  /** The first break of this organization's chain, if any (verification stops there). */
  broken?: TAuditBreak;
}

export interface TAuditVerifyOptions {
  /** Verify one organization's chain only. */
  organizationId?: string;
  /** Entries read per round trip (default 1,000). */
  batchSize?: number;
}

interface TEntryRow extends TAuditedActivity {
  seq: string;
  entryActivityId: string;
  entryHash: Buffer;
}

/**
 * Recomputes the chains in one read-only REPEATABLE READ snapshot (links committed meanwhile are
 * for the next run). Returns one report per organization that has a chain (or the one asked for).
 */
export async function verifyAuditChains(db: { sqlTransaction<T>(work: (tx: TSql) => Promise<T>): Promise<T> }, opts: TAuditVerifyOptions = {}): Promise<TAuditOrgReport[]> {
  const batch = opts.batchSize ?? 1000;
  return db.sqlTransaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const orgs = opts.organizationId
      ? [opts.organizationId]
      : (await tx.query<{ organization_id: string }>('SELECT organization_id FROM audit_chain_heads UNION SELECT DISTINCT organization_id FROM audit_log_entries ORDER BY 1')).rows.map((r) => r.organization_id);
    const reports: TAuditOrgReport[] = [];
    for (const organizationId of orgs) reports.push(await verifyOne(tx, organizationId, batch));
    return reports;
  });
}

async function verifyOne(tx: TSql, organizationId: string, batch: number): Promise<TAuditOrgReport> {
  let previous = AUDIT_GENESIS_HASH;
  let expectedSeq = 1;
  let entries = 0;
  const breakAt = (seq: number, activityId: string | null, reason: TAuditBreakReason): TAuditOrgReport => ({ organizationId, entries, broken: { organizationId, seq, activityId, reason } });
  for (;;) {
    const { rows } = await tx.query<TEntryRow>(
      `SELECT e.seq::text AS seq, e.activity_id AS "entryActivityId", e.hash AS "entryHash",
              a.id, a.organization_id AS "organizationId", a.type, a.status, a.intent, a.result, a.failure, a.fingerprint,
              a.created_by_user_id AS "createdByUserId", a.created_at AS "createdAt", a.updated_at AS "updatedAt"
         FROM audit_log_entries e
         LEFT JOIN activities a ON a.organization_id = e.organization_id AND a.id = e.activity_id
        WHERE e.organization_id = $1 AND e.seq >= $2
        ORDER BY e.seq
        LIMIT $3`,
      [organizationId, expectedSeq, batch],
    );
    for (const r of rows) {
      const seq = Number(r.seq);
      if (seq !== expectedSeq) return breakAt(expectedSeq, null, 'SEQUENCE_GAP');
      if (r.id === null) return breakAt(seq, r.entryActivityId, 'ACTIVITY_MISSING');
      const hash = nextAuditHash(previous, canonicalActivityBytes(r));
      if (!hash.equals(r.entryHash)) return breakAt(seq, r.entryActivityId, 'HASH_MISMATCH');
      previous = hash;
      expectedSeq++;
      entries++;
    }
    if (rows.length < batch) break;
  }
  const head = (await tx.query<{ seq: string; hash: Buffer }>('SELECT seq::text AS seq, hash FROM audit_chain_heads WHERE organization_id = $1', [organizationId])).rows[0];
  if (entries > 0 || head) {
    if (!head || Number(head.seq) !== entries || !head.hash.equals(previous)) return breakAt(entries + 1, null, 'HEAD_MISMATCH');
  }
  // Final activities without a link, among those finalised since the chain's first link (older
  // ones predate migration 0021).
  const { rows: unchained } = await tx.query<{ id: string }>(
    `SELECT a.id FROM activities a
      WHERE a.organization_id = $1 AND a.status = ANY($2::text[])
        AND a.updated_at >= (SELECT min(recorded_at) FROM audit_log_entries WHERE organization_id = $1)
        AND NOT EXISTS (SELECT 1 FROM audit_log_entries e WHERE e.organization_id = a.organization_id AND e.activity_id = a.id)
      ORDER BY a.id LIMIT 1`,
    [organizationId, ['ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_FAILED', 'ACTIVITY_STATUS_REJECTED']],
  );
  if (unchained[0]) return breakAt(entries, unchained[0].id, 'UNCHAINED_ACTIVITY');
  return { organizationId, entries };
}
