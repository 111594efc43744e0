/**
 * The canonical bytes of an activity, as the tamper-evident log hashes them (migration 0021):
 *
 *   hash(n) = SHA-256(hash(n-1) ‖ canonicalActivityBytes(activity))   with hash(0) = 32 zero bytes
 *
 * The bytes are the UTF-8 of an RFC 8785 (JCS) canonical JSON object of the activity row's eleven
 * columns — the row as stored, so `audit verify` recomputes them from the database alone.
 * libs/activity-engine/README.md ("The audit log") is the reference; keep the two in step, since
 * changing either breaks every existing chain.
 */
import { createHash } from 'node:crypto';

/** The statuses an activity never leaves: each gets exactly one link. */
export const AUDITED_STATUSES: ReadonlySet<string> = new Set(['ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_FAILED', 'ACTIVITY_STATUS_REJECTED']);

/** The previous hash of an organization's first link. */
export const AUDIT_GENESIS_HASH: Buffer = Buffer.alloc(32);

/** An activity row as stored (JSON columns parsed, as `pg` and Prisma return them). */
export interface TAuditedActivity {
  id: string;
  organizationId: string;
  type: string;
  status: string;
  intent: unknown;
  result: unknown;
  failure: unknown;
  fingerprint: string;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * RFC 8785 canonical JSON of a JSON value: object members sorted by the UTF-16 code units of their
 * names, no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them (which is
 * what RFC 8785 prescribes). Members whose value is `undefined` are left out, as JSON does.
 * @throws TypeError on a value JSON cannot hold (a non-finite number, a bigint, a function), naming its path.
 */
export function canonicalJson(value: unknown, path = '$'): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${path} is ${value}, which JSON cannot hold`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v, i) => (v === undefined ? 'null' : canonicalJson(v, `${path}[${i}]`))).join(',')}]`;
      const o = value as Record<string, unknown>;
      // Default sort compares UTF-16 code units: exactly RFC 8785 §3.2.3.
      const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k], `${path}.${k}`)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: ${path} is a ${typeof value}, which JSON cannot hold`);
  }
}

/**
 * The bytes an activity's link hashes. Timestamps are ISO-8601 UTC with milliseconds (the
 * precision the platform writes); a missing failure is `null`.
 */
export function canonicalActivityBytes(a: TAuditedActivity): Buffer {
  return Buffer.from(
    canonicalJson({
      createdAt: a.createdAt.toISOString(),
      createdByUserId: a.createdByUserId,
      failure: a.failure ?? null,
      fingerprint: a.fingerprint,
      id: a.id,
      intent: a.intent,
      organizationId: a.organizationId,
      result: a.result,
      status: a.status,
      type: a.type,
      updatedAt: a.updatedAt.toISOString(),
    }),
    'utf8',
  );
}

/** SHA-256(previous ‖ bytes): the same computation the append statement makes in SQL. */
export function nextAuditHash(previous: Buffer, bytes: Buffer): Buffer {
  return createHash('sha256').update(previous).update(bytes).digest();
}
