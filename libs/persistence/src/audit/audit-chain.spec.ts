/**
 * The tamper-evident activity log: every way an activity becomes final appends exactly one link,
 * in the same statement or transaction; concurrent finalisations of one organization make one
 * unbroken chain; and the verifier names the first link an edit, a removal or an unlinked
 * activity breaks. Hashes are recomputed here with node:crypto, independently of the SQL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../database.js';
import { runMigrations } from '../migrations/run-migrations.js';
import { createStore, type TStore } from '../store.js';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '../testing/index.js';
import { verifyAuditChains } from './audit-chain.js';
import { AUDIT_GENESIS_HASH, canonicalActivityBytes, canonicalJson, nextAuditHash } from './canonical-activity.js';

let t: TTestDatabase;
let db: TDatabase;
let store: TStore;
let admin: pg.Client;

beforeAll(async () => {
  t = await createTestDatabase();
  await runMigrations(t.url);
  db = openDatabase(t.url, { max: 6 });
  store = createStore(db.prisma, db.sql);
  admin = new pg.Client({ connectionString: t.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await db?.close();
  await t?.drop();
  await stopTestPostgres();
});

let n = 0;
const activity = (organizationId: string, status = 'ACTIVITY_STATUS_COMPLETED') => {
  n++;
  return {
    id: `act-${String(n).padStart(5, '0')}`,
    organizationId,
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    status,
    intent: { signRawPayloadIntentV2: { signWith: '0xabc', payload: `ü "q" \\ ${n}`, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', n: 1.5 } },
    result: status === 'ACTIVITY_STATUS_COMPLETED' ? { signRawPayloadResult: { r: '01', s: '02', v: '00' } } : {},
    failure: status === 'ACTIVITY_STATUS_FAILED' ? { code: 'BAD_REQUEST', message: 'no' } : null,
    fingerprint: `sha256:${n}`,
    createdByUserId: n % 2 ? 'user-1' : null,
    createdAt: new Date(Date.UTC(2026, 10, 27, 9, 0, 0, n)),
  };
};
const EVENT = { eventType: 'ACTIVITY_UPDATES', payload: {} };

async function entries(org: string): Promise<{ seq: string; activity_id: string; hash: Buffer }[]> {
  return (await admin.query('SELECT seq::text, activity_id, hash FROM audit_log_entries WHERE organization_id = $1 ORDER BY audit_log_entries.seq', [org])).rows;
}

/** The chain recomputed from the activity rows with node:crypto. */
async function recomputed(org: string): Promise<Buffer[]> {
  const out: Buffer[] = [];
  let prev = AUDIT_GENESIS_HASH;
  for (const e of await entries(org)) {
    const { rows } = await admin.query(
      `SELECT id, organization_id AS "organizationId", type, status, intent, result, failure, fingerprint, created_by_user_id AS "createdByUserId", created_at AS "createdAt", updated_at AS "updatedAt" FROM activities WHERE organization_id = $1 AND id = $2`,
      [org, e.activity_id],
    );
    prev = nextAuditHash(prev, canonicalActivityBytes(rows[0]));
    out.push(prev);
  }
  return out;
}

describe('canonicalJson (RFC 8785)', () => {
  it('writes the RFC 8785 §3.2.2 example as the RFC does', () => {
    const input = JSON.parse('{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}');
    expect(canonicalJson(input)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });
  it('sorts members by UTF-16 code units (RFC 8785 §3.2.3) and drops undefined members', () => {
    const input = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis', gone: undefined };
    // (Object.keys would put the integer-like "1" first: compare the text.)
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    expect(canonicalJson(input)).toBe(`{${order.map((k) => `${JSON.stringify(k)}:${JSON.stringify(input[k as keyof typeof input])}`).join(',')}}`);
  });
  it('refuses what JSON cannot hold, naming the path', () => {
    expect(() => canonicalJson({ a: [1, Number.NaN] })).toThrow('$.a[1]');
    expect(() => canonicalJson({ b: 1n })).toThrow('$.b');
  });
});

describe('the audit chain', () => {
  it('links each final activity once, whichever way it became final, and the SQL hash is SHA-256(prev ‖ canonical bytes)', async () => {
    const org = 'org-ways';
    // 1. the signing path: plain SQL, one statement
    expect(await store.activities.insertWithEvent(activity(org), EVENT)).toBe(true);
    // 2. the transactional path (Prisma), FAILED
    await store.transaction(async (tx) => void (await tx.activities.insertWithEvent(activity(org, 'ACTIVITY_STATUS_FAILED'), EVENT)));
    // 3. waiting: no link; then finished (REJECTED) by a vote: a link
    const waiting = activity(org, 'ACTIVITY_STATUS_CONSENSUS_NEEDED');
    await store.transaction(async (tx) => void (await tx.activities.insertWithEvent(waiting, EVENT)));
    expect((await entries(org)).length).toBe(2);
    await store.transaction(async (tx) => void (await tx.activities.finish(org, waiting.id, { status: 'ACTIVITY_STATUS_REJECTED', at: new Date(Date.UTC(2026, 10, 27, 10)) })));
    // 4. a repeat (fingerprint conflict) writes nothing, link included
    const dup = activity(org);
    expect(await store.activities.insertWithEvent(dup, EVENT)).toBe(true);
    expect(await store.activities.insertWithEvent({ ...dup, id: 'act-dup' }, EVENT)).toBe(false);

    const stored = await entries(org);
    expect(stored.map((e) => e.seq)).toEqual(['1', '2', '3', '4']);
    expect(stored[2]!.activity_id).toBe(waiting.id);
    expect(stored.map((e) => e.hash.toString('hex'))).toEqual((await recomputed(org)).map((h) => h.toString('hex')));
    expect(await verifyAuditChains(db, { organizationId: org })).toEqual([{ organizationId: org, entries: 4 }]);
  });

  it('a finalisation that rolls back leaves no link', async () => {
    const org = 'org-rollback';
    await store.activities.insertWithEvent(activity(org), EVENT);
    await expect(
      store.transaction(async (tx) => {
        await tx.activities.insertWithEvent(activity(org), EVENT);
        throw new Error('handler fault');
      }),
    ).rejects.toThrow('handler fault');
    expect((await entries(org)).map((e) => e.seq)).toEqual(['1']);
    expect(await verifyAuditChains(db, { organizationId: org })).toEqual([{ organizationId: org, entries: 1 }]);
  });

  it('concurrent finalisations of one organization make one unbroken chain, and other organizations keep their own', async () => {
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      writes.push(store.activities.insertWithEvent(activity('org-busy'), EVENT));
      if (i % 4 === 0) writes.push(store.transaction(async (tx) => tx.activities.insertWithEvent(activity('org-busy', 'ACTIVITY_STATUS_FAILED'), EVENT)));
      if (i % 8 === 0) writes.push(store.activities.insertWithEvent(activity('org-quiet'), EVENT));
    }
    await Promise.all(writes);
    const busy = await entries('org-busy');
    expect(busy.map((e) => Number(e.seq))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(busy.map((e) => e.activity_id)).size).toBe(50);
    expect(busy.map((e) => e.hash.toString('hex'))).toEqual((await recomputed('org-busy')).map((h) => h.toString('hex')));
    const all = await verifyAuditChains(db, { batchSize: 7 });
    expect(all.filter((r) => r.organizationId.startsWith('org-busy') || r.organizationId === 'org-quiet')).toEqual([
      { organizationId: 'org-busy', entries: 50 },
      { organizationId: 'org-quiet', entries: 5 },
    ]);
  });

  it('names the first broken link: an edited activity, an edited hash, a removed entry, a removed activity, an unlinked activity', async () => {
    const org = 'org-tamper';
    const acts = [activity(org), activity(org), activity(org), activity(org)];
    for (const a of acts) await store.activities.insertWithEvent(a, EVENT);
    expect(await verifyAuditChains(db, { organizationId: org })).toEqual([{ organizationId: org, entries: 4 }]);

    const broken = async () => (await verifyAuditChains(db, { organizationId: org }))[0]!.broken;
    // An activity's result changed by SQL (a forged signature, say).
    await admin.query(`UPDATE activities SET result = jsonb_set(result, '{signRawPayloadResult,r}', '"ff"') WHERE organization_id = $1 AND id = $2`, [org, acts[1]!.id]);
    expect(await broken()).toEqual({ organizationId: org, seq: 2, activityId: acts[1]!.id, reason: 'HASH_MISMATCH' });
    await admin.query(`UPDATE activities SET result = jsonb_set(result, '{signRawPayloadResult,r}', '"01"') WHERE organization_id = $1 AND id = $2`, [org, acts[1]!.id]);
    expect(await broken()).toBeUndefined();

    // A status changed (a FAILED made COMPLETED) is as visible.
    await admin.query(`UPDATE activities SET status = 'ACTIVITY_STATUS_FAILED' WHERE organization_id = $1 AND id = $2`, [org, acts[2]!.id]);
    expect(await broken()).toEqual({ organizationId: org, seq: 3, activityId: acts[2]!.id, reason: 'HASH_MISMATCH' });
    await admin.query(`UPDATE activities SET status = 'ACTIVITY_STATUS_COMPLETED' WHERE organization_id = $1 AND id = $2`, [org, acts[2]!.id]);

    // A removed last entry: the head still counts it.
    const last = (await entries(org))[3]!;
    await admin.query('DELETE FROM audit_log_entries WHERE organization_id = $1 AND seq = 4', [org]);
    expect(await broken()).toEqual({ organizationId: org, seq: 4, activityId: null, reason: 'HEAD_MISMATCH' });
    await admin.query('INSERT INTO audit_log_entries (organization_id, seq, activity_id, hash) VALUES ($1, 4, $2, $3)', [org, last.activity_id, last.hash]);

    // A removed middle entry.
    const second = (await entries(org))[1]!;
    await admin.query('DELETE FROM audit_log_entries WHERE organization_id = $1 AND seq = 2', [org]);
    expect(await broken()).toEqual({ organizationId: org, seq: 2, activityId: null, reason: 'SEQUENCE_GAP' });
    await admin.query('INSERT INTO audit_log_entries (organization_id, seq, activity_id, hash) VALUES ($1, 2, $2, $3)', [org, second.activity_id, second.hash]);

    // A removed activity.
    const row = (await admin.query('SELECT * FROM activities WHERE organization_id = $1 AND id = $2', [org, acts[0]!.id])).rows[0];
    await admin.query('DELETE FROM activities WHERE organization_id = $1 AND id = $2', [org, acts[0]!.id]);
    expect(await broken()).toEqual({ organizationId: org, seq: 1, activityId: acts[0]!.id, reason: 'ACTIVITY_MISSING' });
    const cols = Object.keys(row);
    await admin.query(`INSERT INTO activities (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, cols.map((c) => (typeof row[c] === 'object' && row[c] !== null && !(row[c] instanceof Date) ? JSON.stringify(row[c]) : row[c])));
    expect(await broken()).toBeUndefined();

    // A final activity slipped in without a link.
    await admin.query(
      `INSERT INTO activities (id, organization_id, type, status, intent, result, fingerprint, created_at, updated_at) VALUES ('act-forged', $1, 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', 'ACTIVITY_STATUS_COMPLETED', '{}', '{}', 'sha256:forged', now(), now())`,
      [org],
    );
    expect(await broken()).toEqual({ organizationId: org, seq: 4, activityId: 'act-forged', reason: 'UNCHAINED_ACTIVITY' });
  });
});
