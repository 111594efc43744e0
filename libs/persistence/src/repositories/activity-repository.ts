/** Activities and their votes. The (organization, fingerprint) pair is unique: the idempotency key. */
import { rawRows, type TDb, type TSql } from '../database.js';
import type { Activity, Prisma, Vote } from '../generated/prisma/client.js';
import { finishPage, planPage, type TPageRequest } from '../pagination.js';
import { auditAppendCtes } from '../audit/audit-chain.js';
import { AUDITED_STATUSES, canonicalActivityBytes } from '../audit/canonical-activity.js';
import { webhookDestinationExists } from './webhook-delivery-repository.js';

export interface TNewActivity {
  id: string;
  organizationId: string;
  type: string;
  status: string;
  intent: Prisma.InputJsonValue;
  result: Prisma.InputJsonValue;
  failure?: Prisma.InputJsonValue | null;
  fingerprint: string;
  createdByUserId: string | null;
  /** Also the initial updatedAt. */
  createdAt: Date;
}

export interface TActivityListQuery extends TPageRequest {
  organizationId: string;
  statuses?: string[] | undefined;
  types?: string[] | undefined;
  /** Only activities these users submitted (`created_by_user_id`). */
  createdByUserIds?: string[] | undefined;
}

/** A vote: the stamp that cast it (as received) and the credential that signed it. */
export interface TNewVote {
  id: string;
  organizationId: string;
  activityId: string;
  userId: string;
  selection: string;
  message: string;
  publicKey: string;
  signature: string;
  scheme: string;
  /** The API key or authenticator id ('' for an attested stamp). */
  credentialId: string;
  /** CREDENTIAL_TYPE_… of that credential. */
  credentialType: string;
  /** A passkey's WebAuthn credential id; null for other credentials. */
  webauthnCredentialId: string | null;
  createdAt: Date;
}

/**
 * Rows an activity's statement inserts along with it (`insertWithEvent`): a staged handler's
 * effects (`TActivityDefinition.stage`), committed with the activity and its outbox event or not
 * at all. `ctes` gives the common table expressions that insert them, each reading `gate` (the
 * inserted activity: one row, or none when an identical submission got there first) so that
 * nothing is inserted without the activity; `bind` adds a value to the statement and returns its
 * placeholder. `name` names the shape (the prepared statement's name includes it).
 */
export interface TStatementRows {
  name: string;
  ctes(gate: string, bind: (value: unknown) => string): string[];
}

/** The activity columns under their Prisma names (plain SQL returns rows of the `Activity` shape). */
const ACTIVITY_COLUMNS = `id, organization_id AS "organizationId", type, status, intent, result, failure, fingerprint,
  created_by_user_id AS "createdByUserId", created_at AS "createdAt", updated_at AS "updatedAt"`;

export function activityRepository(db: TDb, sql?: TSql) {
  return {
    /** Inserts an activity; a final one gets its audit link too (atomically only when `db` is a transaction). */
    async insert(a: TNewActivity): Promise<Activity> {
      const { failure, ...rest } = a;
      const row = await db.activity.create({ data: { ...rest, updatedAt: a.createdAt, ...(failure ? { failure } : {}) } });
      if (AUDITED_STATUSES.has(row.status)) await appendAuditLink(db, row);
      return row;
    },
    async findById(organizationId: string, id: string): Promise<Activity | null> {
      return db.activity.findFirst({ where: { organizationId, id } });
    },
    /** The idempotency lookup every submission makes: plain SQL outside a transaction (see TSql). */
    async findByFingerprint(organizationId: string, fingerprint: string): Promise<Activity | null> {
      if (!sql) return db.activity.findUnique({ where: { organizationId_fingerprint: { organizationId, fingerprint } } });
      const rows = await rawRows<Activity>(db, sql, `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE organization_id = $1 AND fingerprint = $2`, [organizationId, fingerprint], 'activity-by-fingerprint');
      return rows[0] ?? null;
    },
    /**
     * Inserts a finished activity and its outbox event in one statement: atomic without a
     * transaction, for activities whose handler wrote nothing (signing). Returns false, writing
     * nothing, when an activity with the same fingerprint exists (a racing identical submission).
     * A final activity (COMPLETED, FAILED, REJECTED) gets its audit link in that same statement:
     * no extra round trip on the signing path, and no final activity without its link.
     * A root organization's event that nobody is subscribed to (`webhookDestinationExists`) is
     * stored already processed: its commit wakes no webhook worker (the NOTIFY, and each
     * listener's wake-up, cost a signature about as much as its own WAL flush on two shared cores:
     * docs/BENCHMARKS.md, signing). `alongside`: rows inserted with the activity, only if it is
     * (a staged handler's: create_wallet's wallet and accounts); a unique violation among them
     * fails the statement, so nothing at all is written.
     */
    async insertWithEvent(a: TNewActivity, event: { eventType: string; payload: Prisma.InputJsonValue }, alongside?: TStatementRows): Promise<boolean> {
      const intent = JSON.stringify(a.intent);
      const result = JSON.stringify(a.result);
      const failure = a.failure == null ? null : JSON.stringify(a.failure);
      const values: unknown[] = [a.id, a.organizationId, a.type, a.status, intent, result, failure, a.fingerprint, a.createdByUserId, a.createdAt.toISOString(), event.eventType, JSON.stringify(event.payload)];
      const bind = (value: unknown) => `$${values.push(value)}`;
      const audited = AUDITED_STATUSES.has(a.status);
      // The bytes are those of the row as stored: the JSON columns as jsonb will give them back.
      let auditCtes = '';
      if (audited) {
        const stored = { ...a, intent: JSON.parse(intent) as unknown, result: JSON.parse(result) as unknown, failure: failure === null ? null : (JSON.parse(failure) as unknown), updatedAt: a.createdAt };
        auditCtes = `,
         ${auditAppendCtes('inserted', `${bind(canonicalActivityBytes(stored).toString('hex'))}::text`, '$1')}`;
      }
      const rowCtes = alongside ? alongside.ctes('inserted', bind).map((cte) => `,\n         ${cte}`).join('') : '';
      const rows = await rawRows<{ id: unknown }>(
        db,
        sql,
        `WITH inserted AS (
           INSERT INTO activities (id, organization_id, type, status, intent, result, failure, fingerprint, created_by_user_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8, $9, $10::timestamptz, $10::timestamptz)
           ON CONFLICT (organization_id, fingerprint) DO NOTHING
           RETURNING organization_id),
         event AS (
           INSERT INTO outbox_events (organization_id, event_type, payload, processed_at)
           SELECT organization_id, $11, $12::jsonb, CASE WHEN ${webhookDestinationExists('inserted.organization_id', '$11::text')} THEN NULL ELSE now() END FROM inserted
           RETURNING id)${auditCtes}${rowCtes}
         SELECT id FROM event`,
        values,
        `${audited ? 'insert-final-activity-with-event' : 'insert-activity-with-event'}${alongside ? `+${alongside.name}` : ''}`,
      );
      return rows.length > 0;
    },
    /** Newest first. */
    async list(q: TActivityListQuery): Promise<Activity[]> {
      const plan = planPage('desc', q);
      const rows = await db.activity.findMany({
        where: {
          organizationId: q.organizationId,
          ...(q.statuses?.length ? { status: { in: q.statuses } } : {}),
          ...(q.types?.length ? { type: { in: q.types } } : {}),
          ...(q.createdByUserIds?.length ? { createdByUserId: { in: q.createdByUserIds } } : {}),
          ...(plan.idFilter ? { id: plan.idFilter } : {}),
        },
        orderBy: { id: plan.queryDirection },
        take: plan.take,
      });
      return finishPage(plan, rows);
    },
    /** The votes that have not lapsed (the engine still checks the window: see `liveVotes`). */
    async votes(organizationId: string, activityId: string): Promise<Vote[]> {
      return db.vote.findMany({ where: { organizationId, activityId, lapsedAt: null }, orderBy: { id: 'asc' } });
    },
    /** Marks an activity's votes lapsed (its approval window ran out); they are kept, but no longer count. */
    async lapseVotes(organizationId: string, activityId: string, at: Date): Promise<void> {
      await db.vote.updateMany({ where: { organizationId, activityId, lapsedAt: null }, data: { lapsedAt: at } });
    },
    /** Votes of several activities (list_activities), grouped by activity id. */
    async votesOf(organizationId: string, activityIds: readonly string[]): Promise<Map<string, Vote[]>> {
      const out = new Map<string, Vote[]>();
      if (activityIds.length === 0) return out;
      const rows = await db.vote.findMany({ where: { organizationId, activityId: { in: [...activityIds] }, lapsedAt: null }, orderBy: { id: 'asc' } });
      for (const v of rows) out.set(v.activityId, [...(out.get(v.activityId) ?? []), v]);
      return out;
    },
    /** The activity, locked until the transaction ends: one vote at a time decides it. */
    async lockByFingerprint(organizationId: string, fingerprint: string): Promise<Activity | null> {
      const rows = await db.$queryRaw<{ id: string }[]>`SELECT id FROM activities WHERE organization_id = ${organizationId} AND fingerprint = ${fingerprint} FOR UPDATE`;
      const id = rows[0]?.id;
      return id ? db.activity.findFirst({ where: { organizationId, id } }) : null;
    },
    /** @throws a unique violation when the user has a live (not lapsed) vote on this activity */
    async addVote(v: TNewVote): Promise<Vote> {
      return db.vote.create({ data: v });
    },
    /** Changes a user's vote (the initiator withdrawing its approval), with the stamp and credential that cast it now. */
    async replaceVote(id: string, v: Omit<TNewVote, 'id' | 'organizationId' | 'activityId' | 'userId'>): Promise<Vote> {
      return db.vote.update({
        where: { id },
        data: {
          selection: v.selection,
          message: v.message,
          publicKey: v.publicKey,
          signature: v.signature,
          scheme: v.scheme,
          credentialId: v.credentialId,
          credentialType: v.credentialType,
          webauthnCredentialId: v.webauthnCredentialId,
          createdAt: v.createdAt,
        },
      });
    },
    /** Sets a waiting activity's outcome; a final status appends its audit link in the same transaction (`db`'s). */
    async finish(organizationId: string, id: string, f: { status: string; result?: Prisma.InputJsonValue; failure?: Prisma.InputJsonValue | null; at: Date }): Promise<Activity> {
      const row = await db.activity.update({
        where: { id, organizationId },
        data: { status: f.status, updatedAt: f.at, ...(f.result !== undefined ? { result: f.result } : {}), ...(f.failure ? { failure: f.failure } : {}) },
      });
      if (AUDITED_STATUSES.has(row.status)) await appendAuditLink(db, row);
      return row;
    },
  };
}
export type TActivityRepository = ReturnType<typeof activityRepository>;

/**
 * Appends a stored final activity's link (one statement). Callers run it in the transaction that
 * made the activity final, so both commit or neither does.
 */
async function appendAuditLink(db: TDb, row: Activity): Promise<void> {
  const bytes = canonicalActivityBytes(row).toString('hex');
  await db.$queryRawUnsafe(`WITH one AS (SELECT $1::text AS organization_id), ${auditAppendCtes('one', '$2::text', '$3::text')} SELECT seq FROM audit_link`, row.organizationId, bytes, row.id);
}
