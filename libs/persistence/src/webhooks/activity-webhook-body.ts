/**
 * The body of an ACTIVITY_UPDATES delivery: the bare activity object as `get_activity` shows it
 * (§B5), taken from the outbox event the activity's transaction wrote (`{activity}`). The outbox
 * column is jsonb, which does not keep key order, so the activity's keys are put back in
 * get_activity's order. `canApprove`/`canReject` are those of no particular reader: false.
 */

/** get_activity's field order (libs/domain TActivity); unknown keys follow in their own order. */
const ACTIVITY_KEY_ORDER = ['id', 'organizationId', 'status', 'type', 'intent', 'result', 'votes', 'fingerprint', 'canApprove', 'canReject', 'createdAt', 'updatedAt', 'failure'];

/**
 * The wire bytes for an outbox event: for ACTIVITY_UPDATES the activity of `payload.activity`;
 * other event types (not produced yet) send their payload as it is.
 * @throws Error when an ACTIVITY_UPDATES payload carries no activity object.
 */
export function webhookBodyOf(eventType: string, payload: unknown): Buffer {
  if (eventType !== 'ACTIVITY_UPDATES') return Buffer.from(JSON.stringify(payload), 'utf8');
  const activity = (payload as { activity?: unknown } | null)?.activity;
  if (typeof activity !== 'object' || activity === null || Array.isArray(activity)) throw new Error('ACTIVITY_UPDATES outbox event without an activity object in payload.activity');
  const a: Record<string, unknown> = { ...(activity as Record<string, unknown>), canApprove: false, canReject: false };
  const ordered: Record<string, unknown> = {};
  for (const k of ACTIVITY_KEY_ORDER) if (k in a) ordered[k] = a[k];
  for (const [k, v] of Object.entries(a)) if (!(k in ordered)) ordered[k] = v;
  return Buffer.from(JSON.stringify(ordered), 'utf8');
}
