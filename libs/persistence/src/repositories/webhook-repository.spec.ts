/** Webhook endpoints, fan-out, the per-endpoint queue and signing keys, on a real PostgreSQL. */
import { createKeyVault, newId } from '@latchkey/crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../database.js';
import { openMigratedTestDatabase, type TMigratedTestDatabase } from '../testing/migrated-test-database.js';
import { webhookBodyOf } from '../webhooks/activity-webhook-body.js';
import { ensureWebhookSigningKey, rotateWebhookSigningKey, webhookJwksDocument } from '../webhooks/webhook-signing-keys.js';
import { legacyWebhookEndpointId, webhookDeliveryRepository } from './webhook-delivery-repository.js';
import { activityRepository } from './activity-repository.js';
import { webhookEndpointRepository } from './webhook-endpoint-repository.js';
import { webhookSigningKeyRepository } from './webhook-signing-key-repository.js';

let testDb: TMigratedTestDatabase;
let db: TDatabase;

beforeAll(async () => {
  testDb = await openMigratedTestDatabase(4);
  db = testDb.db;
});
afterAll(() => testDb?.close());

const org = async (id: string, parent: string | null = null) => db.sql.query(`INSERT INTO organizations (id, parent_organization_id, name) VALUES ($1, $2, $1)`, [id, parent]);
const event = async (organizationId: string, activityId: string) =>
  db.sql.query(`INSERT INTO outbox_events (organization_id, event_type, payload) VALUES ($1, 'ACTIVITY_UPDATES', $2::jsonb)`, [
    organizationId,
    JSON.stringify({ activity: { id: activityId, organizationId, status: 'ACTIVITY_STATUS_COMPLETED', type: 'ACTIVITY_TYPE_CREATE_WALLET', canApprove: true } }),
  ]);
const endpoint = (organizationId: string, opts: { active?: boolean; subActive?: boolean; eventType?: string } = {}) =>
  webhookEndpointRepository(db.prisma)
    .create({ id: newId(), organizationId, url: `https://hooks.example.com/${organizationId}`, name: 'n', now: new Date(), subscriptions: [{ id: newId(), eventType: opts.eventType ?? 'ACTIVITY_UPDATES', isActive: opts.subActive ?? true }] })
    .then(async (e) => (opts.active === false ? (await webhookEndpointRepository(db.prisma).update(organizationId, e.endpointId, { isActive: false, now: new Date() }))! : e));
const fanOutAll = async () => {
  const repo = webhookDeliveryRepository(db);
  for (;;) {
    const r = await repo.fanOut(100, webhookBodyOf, () => `evt_${newId()}`);
    if (r !== 'busy' && r.events === 0) return;
  }
};

describe('webhook endpoints', () => {
  it('creates, lists, updates and deletes per organization, subscriptions in the order given', async () => {
    await org('o-crud');
    const repo = webhookEndpointRepository(db.prisma);
    const created = await repo.create({
      id: newId(),
      organizationId: 'o-crud',
      url: 'https://a.example.com/h',
      name: 'first',
      now: new Date(),
      subscriptions: [
        { id: newId(), eventType: 'ACTIVITY_UPDATES', filtersJson: '{"x":1}' },
        { id: newId(), eventType: 'BALANCE_CONFIRMED_UPDATES', isActive: false },
      ],
    });
    expect(created).toEqual({
      endpointId: created.endpointId,
      organizationId: 'o-crud',
      url: 'https://a.example.com/h',
      name: 'first',
      isActive: true,
      subscriptions: [
        { eventType: 'ACTIVITY_UPDATES', filtersJson: '{"x":1}', isActive: true },
        { eventType: 'BALANCE_CONFIRMED_UPDATES', isActive: false },
      ],
    });
    expect(await repo.update('another-org', created.endpointId, { name: 'x', now: new Date() })).toBeNull();
    expect(await repo.update('o-crud', created.endpointId, { name: 'renamed', isActive: false, now: new Date() })).toMatchObject({ name: 'renamed', isActive: false, url: 'https://a.example.com/h' });
    expect((await repo.list('o-crud')).map((e) => e.name)).toEqual(['renamed']);
    expect(await repo.count('o-crud')).toBe(1);
    expect(await repo.delete('another-org', created.endpointId)).toBe(false);
    expect(await repo.delete('o-crud', created.endpointId)).toBe(true);
    expect(await repo.list('o-crud')).toEqual([]);
    expect(await db.prisma.webhookSubscription.count({ where: { endpointId: created.endpointId } })).toBe(0);
  });
});

describe('fan-out', () => {
  it('queues one message per matching endpoint: own, parent, legacy feature; not inactive ones', async () => {
    await org('o-parent');
    await org('o-child', 'o-parent');
    await org('o-other');
    const own = await endpoint('o-child');
    const parent = await endpoint('o-parent');
    const inactive = await endpoint('o-child', { active: false });
    const inactiveSub = await endpoint('o-child', { subActive: false });
    const otherType = await endpoint('o-child', { eventType: 'BALANCE_CONFIRMED_UPDATES' });
    const unrelated = await endpoint('o-other');
    await db.sql.query(`INSERT INTO organization_features (organization_id, name, value) VALUES ('o-child', 'FEATURE_NAME_WEBHOOK', 'https://legacy.example.com/h')`);
    await event('o-child', 'act-1');
    await fanOutAll();
    const repo = webhookDeliveryRepository(db);
    const count = async (o: string, e: string) => (await repo.messages(o, e)).length;
    expect(await count('o-child', own.endpointId)).toBe(1);
    expect(await count('o-parent', parent.endpointId)).toBe(1);
    expect(await count('o-child', legacyWebhookEndpointId('o-child'))).toBe(1);
    for (const e of [inactive, inactiveSub, otherType]) expect(await count('o-child', e.endpointId)).toBe(0);
    expect(await count('o-other', unrelated.endpointId)).toBe(0);
    // Each message has its own event id; the body is the bare activity, no reader's voting flags.
    const ids = [...(await repo.messages('o-child', own.endpointId)), ...(await repo.messages('o-parent', parent.endpointId))].map((m) => m.eventId);
    expect(new Set(ids).size).toBe(2);
    const all = await repo.claim(100, 30_000);
    const claimed = all.filter((m) => m.endpointId === own.endpointId);
    expect(JSON.parse(claimed[0]!.body.toString())).toEqual({ id: 'act-1', organizationId: 'o-child', status: 'ACTIVITY_STATUS_COMPLETED', type: 'ACTIVITY_TYPE_CREATE_WALLET', canApprove: false, canReject: false });
    expect(Object.keys(JSON.parse(claimed[0]!.body.toString()))).toEqual(['id', 'organizationId', 'status', 'type', 'canApprove', 'canReject']);
    // The legacy endpoint's URL is the feature's value.
    expect(all.find((m) => m.endpointId === legacyWebhookEndpointId('o-child'))).toMatchObject({ url: 'https://legacy.example.com/h', endpointActive: true, organizationId: 'o-child' });
    expect(all.find((m) => m.endpointId === parent.endpointId)).toMatchObject({ organizationId: 'o-parent' });
  });
});

describe('events nobody is subscribed to (migration 0027)', () => {
  /** An activity recorded as the signing path records it, with its event; its event's outbox row. */
  const recordActivity = async (organizationId: string) => {
    const id = newId();
    const activity = { id, organizationId, status: 'ACTIVITY_STATUS_COMPLETED', type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', canApprove: false, canReject: false };
    const row = { id, organizationId, type: activity.type, status: activity.status, intent: {}, result: {}, failure: null, fingerprint: `sha256:${id}`, createdByUserId: null, createdAt: new Date() };
    expect(await activityRepository(db.prisma, db.sql).insertWithEvent(row, { eventType: 'ACTIVITY_UPDATES', payload: { activity } })).toBe(true);
    const { rows } = await db.sql.query<{ id: string; processed: boolean }>(`SELECT id, processed_at IS NOT NULL AS processed FROM outbox_events WHERE organization_id = $1 ORDER BY id DESC LIMIT 1`, [organizationId]);
    return rows[0]!;
  };
  const messagesOf = async (outboxEventId: string) => Number((await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_messages WHERE outbox_event_id = $1`, [outboxEventId])).rows[0]!.n);
  const feature = (organizationId: string, value: string) => db.sql.query(`INSERT INTO organization_features (organization_id, name, value) VALUES ($1, 'FEATURE_NAME_WEBHOOK', $2)`, [organizationId, value]);

  // Each case: a fresh organization — a root one, or a sub-organization of a fresh parent — set up,
  // then one activity recorded. A root organization's event is stored unprocessed exactly when the
  // fan-out makes a message of it; a sub-organization's always is (its parent's endpoints are on
  // another shard: the signing statement does not read them), and the fan-out decides.
  type TCase = [name: string, setUp: (o: string, parent: string) => Promise<unknown>, sub: boolean, hasDestination: boolean];
  const cases: TCase[] = [
    ['no endpoint', async () => undefined, false, false],
    ['an active endpoint subscribed to ACTIVITY_UPDATES', (o) => endpoint(o), false, true],
    ['an inactive endpoint only', (o) => endpoint(o, { active: false }), false, false],
    ['an inactive subscription only', (o) => endpoint(o, { subActive: false }), false, false],
    ['a subscription to another event type only', (o) => endpoint(o, { eventType: 'BALANCE_CONFIRMED_UPDATES' }), false, false],
    ['a legacy FEATURE_NAME_WEBHOOK URL', (o) => feature(o, 'https://legacy.example.com/h'), false, true],
    ['an empty legacy feature', (o) => feature(o, ''), false, false],
    [
      "another organization's endpoint",
      async () => {
        const unrelated = `o-u-${newId()}`;
        await org(unrelated);
        await endpoint(unrelated);
      },
      false,
      false,
    ],
    ["a sub-organization, the parent's active endpoint", (_o, parent) => endpoint(parent), true, true],
    ["a sub-organization, the parent's legacy URL", (_o, parent) => feature(parent, 'https://legacy.example.com/p'), true, true],
    ['a sub-organization, its own endpoint', (o) => endpoint(o), true, true],
    ['a sub-organization, no endpoint anywhere', async () => undefined, true, false],
  ];

  it.each(cases)('%s', async (_name, setUp, sub, hasDestination) => {
    const parent = `o-p-${newId()}`;
    const o = `o-c-${newId()}`;
    await org(parent);
    await org(o, sub ? parent : null);
    await setUp(o, parent);
    const e = await recordActivity(o);
    expect(e.processed).toBe(!sub && !hasDestination);
    await fanOutAll();
    expect((await messagesOf(e.id)) > 0).toBe(hasDestination);
  });

  it('wakes the webhook workers for an event with a destination only', async () => {
    await org('o-quiet');
    await org('o-loud');
    await endpoint('o-loud');
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (n) => heard.push(n.channel));
      await listener.query('LISTEN latchkey_webhooks');
      const settled = async () => {
        // A notification is delivered once its transaction commits; a round trip on the listening
        // connection after that commit has read whatever was sent before it.
        await listener.query('SELECT 1');
        return heard.splice(0).length;
      };
      await recordActivity('o-quiet');
      expect(await settled()).toBe(0);
      await recordActivity('o-loud');
      expect(await settled()).toBe(1);
      // Events written without the check (other writers) still wake the workers.
      await event('o-quiet', 'act-plain-insert');
      expect(await settled()).toBe(1);
    } finally {
      await listener.end();
    }
  });
});

describe('fan-out durability', () => {
  /** The repository on `db`, with the text of every statement its fan-out transaction runs. */
  const recording = () => {
    const seen: string[] = [];
    const recorded: TDatabase = { ...db, sqlTransaction: (work) => db.sqlTransaction((tx) => work({ query: (text, values, name) => (seen.push(text), tx.query(text, values, name)) })) };
    return { repo: webhookDeliveryRepository(recorded), seen };
  };
  const SYNC = 'SET LOCAL synchronous_commit = on';

  it('commits a fan-out that made messages synchronously, before their event ids can be sent', async () => {
    await fanOutAll();
    await org('o-sync-some');
    await endpoint('o-sync-some');
    await event('o-sync-some', 'act-sync-some');
    const { repo, seen } = recording();
    expect(await repo.fanOut(100, webhookBodyOf, () => `evt_${newId()}`)).toMatchObject({ events: 1, messages: 1 });
    const insert = seen.findIndex((t) => t.includes('INSERT INTO webhook_messages'));
    expect(insert).toBeGreaterThan(-1);
    expect(seen.indexOf(SYNC)).toBeGreaterThan(-1);
    expect(seen.indexOf(SYNC)).toBeLessThan(insert);
  });

  it('leaves a fan-out that made no message (no endpoint) to the session commit mode: no second disk flush per activity', async () => {
    await fanOutAll();
    await org('o-sync-none');
    await event('o-sync-none', 'act-sync-none');
    const { repo, seen } = recording();
    expect(await repo.fanOut(100, webhookBodyOf, () => `evt_${newId()}`)).toMatchObject({ events: 1, messages: 0 });
    expect(seen).not.toContain(SYNC);
    const { rows } = await db.sql.query<{ processed: boolean }>(`SELECT processed_at IS NOT NULL AS processed FROM outbox_events WHERE organization_id = 'o-sync-none'`);
    expect(rows).toEqual([{ processed: true }]);
  });
});

describe('fan-out of a malformed event', () => {
  it('sets it aside with its error instead of blocking the outbox', async () => {
    await org('o-bad');
    const e = await endpoint('o-bad');
    await db.sql.query(`INSERT INTO outbox_events (organization_id, event_type, payload) VALUES ('o-bad', 'ACTIVITY_UPDATES', '{"no":"activity"}')`);
    await event('o-bad', 'good-after-bad');
    const r = await webhookDeliveryRepository(db).fanOut(100, webhookBodyOf, () => `evt_${newId()}`);
    expect(r).toMatchObject({ unsendable: [{ error: 'ACTIVITY_UPDATES outbox event without an activity object in payload.activity' }] });
    expect(await webhookDeliveryRepository(db).messages('o-bad', e.endpointId)).toHaveLength(1);
    const { rows } = await db.sql.query<{ processed: boolean; last_error: string | null }>(`SELECT processed_at IS NOT NULL AS processed, last_error FROM outbox_events WHERE organization_id = 'o-bad' ORDER BY id`);
    expect(rows).toEqual([
      { processed: true, last_error: 'ACTIVITY_UPDATES outbox event without an activity object in payload.activity' },
      { processed: true, last_error: null },
    ]);
  });
});

describe('the queue', () => {
  it('claims only the head of each endpoint, records, retries, dead-letters and redelivers', async () => {
    await org('o-q');
    const e = await endpoint('o-q');
    for (const a of ['q1', 'q2', 'q3']) await event('o-q', a);
    await fanOutAll();
    const repo = webhookDeliveryRepository(db);
    const mine = async () => (await repo.claim(100, 30_000)).filter((m) => m.endpointId === e.endpointId);
    const first = await mine();
    expect(first.map((m) => JSON.parse(m.body.toString()).id)).toEqual(['q1']);
    expect(first[0]).toMatchObject({ attempt: 1, url: `https://hooks.example.com/o-q`, endpointActive: true, organizationId: 'o-q' });
    // In flight: nothing else of this endpoint is claimable.
    expect(await mine()).toEqual([]);
    expect(await repo.record(first[0]!, { kind: 'retry', statusCode: 500, error: 'HTTP 500', retryInMs: 0 }, 12)).toBe(true);
    const again = await mine();
    expect(again.map((m) => [JSON.parse(m.body.toString()).id, m.attempt, m.eventId])).toEqual([['q1', 2, first[0]!.eventId]]);
    expect(await repo.record(again[0]!, { kind: 'delivered', statusCode: 200 }, 5)).toBe(true);
    const second = (await mine())[0]!;
    expect(JSON.parse(second.body.toString()).id).toBe('q2');
    expect(await repo.record(second, { kind: 'dead', statusCode: 400, error: 'HTTP 400' }, 5)).toBe(true);
    // A stale answer (an attempt number no longer ours) moves nothing but is logged.
    expect(await repo.record(second, { kind: 'delivered', statusCode: 200 }, 5)).toBe(false);
    const third = (await mine())[0]!;
    expect(JSON.parse(third.body.toString()).id).toBe('q3');
    await repo.record(third, { kind: 'delivered', statusCode: 204 }, 5);
    expect((await repo.messages('o-q', e.endpointId)).map((m) => m.status)).toEqual(['delivered', 'dead', 'delivered']);
    const log = await repo.log('o-q', e.endpointId);
    expect(log.map((l) => [l.attempt, l.statusCode])).toEqual([[1, 204], [1, 200], [1, 400], [2, 200], [1, 500]]);
    expect(log.at(-1)!.nextAttemptAt).not.toBeNull();

    expect(await repo.redeliver({ endpointId: e.endpointId, dead: true })).toBe(1);
    const re = (await mine())[0]!;
    expect([re.eventId, re.attempt]).toEqual([second.eventId, 1]);
    await repo.record(re, { kind: 'delivered', statusCode: 200 }, 5);
    expect(await repo.redeliver({ eventId: first[0]!.eventId })).toBe(1);
    expect((await mine()).map((m) => m.eventId)).toEqual([first[0]!.eventId]);
  });

  it('claims the next head with the record of a finished one, never past a retry', async () => {
    await org('o-chain');
    const e = await endpoint('o-chain');
    for (const a of ['c1', 'c2', 'c3']) await event('o-chain', a);
    await fanOutAll();
    const repo = webhookDeliveryRepository(db);
    const first = (await repo.claim(100, 30_000)).find((m) => m.endpointId === e.endpointId)!;
    const ids = (ms: readonly { body: Buffer }[]) => ms.map((m) => (JSON.parse(m.body.toString()) as { id: string }).id);
    const next = { claimNext: { leaseMs: 30_000, runLength: 1 } };
    // A retry keeps the head: nothing chained.
    const retried = await repo.recordRun([{ m: first, outcome: { kind: 'retry', statusCode: 500, error: 'HTTP 500', retryInMs: 0 }, latencyMs: 1 }], [], next);
    expect(retried).toEqual({ held: 1, next: [] });
    const again = (await repo.claim(100, 30_000)).find((m) => m.endpointId === e.endpointId)!;
    expect([ids([again]), again.attempt]).toEqual([['c1'], 2]);
    const chained = await repo.recordRun([{ m: again, outcome: { kind: 'delivered', statusCode: 200 }, latencyMs: 1 }], [], next);
    expect([chained.held, ids(chained.next), chained.next[0]?.attempt, chained.next[0]?.url]).toEqual([1, ['c2'], 1, 'https://hooks.example.com/o-chain']);
    // While c2 is in flight, a claim finds nothing of this endpoint.
    expect((await repo.claim(100, 30_000)).filter((m) => m.endpointId === e.endpointId)).toEqual([]);
    const last = await repo.recordRun([{ m: chained.next[0]!, outcome: { kind: 'dead', statusCode: 400, error: 'HTTP 400' }, latencyMs: 1 }], [], next);
    expect(ids(last.next)).toEqual(['c3']);
    expect(await repo.recordRun([{ m: last.next[0]!, outcome: { kind: 'delivered', statusCode: 200 }, latencyMs: 1 }], [], next)).toEqual({ held: 1, next: [] });
    expect((await repo.messages('o-chain', e.endpointId)).map((m) => m.status)).toEqual(['delivered', 'dead', 'delivered']);
  });

  it('claims runs in queue order, records one in a statement, puts back what was not attempted', async () => {
    await org('o-run');
    const e = await endpoint('o-run');
    for (const a of ['r1', 'r2', 'r3', 'r4', 'r5', 'r6']) await event('o-run', a);
    await fanOutAll();
    const repo = webhookDeliveryRepository(db);
    const ids = (ms: readonly { body: Buffer }[]) => ms.map((m) => (JSON.parse(m.body.toString()) as { id: string }).id);
    const mine = async (runLength: number) => (await repo.claim(100, 30_000, runLength)).filter((m) => m.endpointId === e.endpointId);
    const run = await mine(4);
    expect(ids(run)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(run.map((m) => m.attempt)).toEqual([1, 1, 1, 1]);
    expect(await mine(4)).toEqual([]);
    // In flight: shown as delivering, though the row stays 'pending' under a lease (the claim changes no indexed column).
    expect((await repo.messages('o-run', e.endpointId)).map((m) => m.status)).toEqual(['delivering', 'delivering', 'delivering', 'delivering', 'pending', 'pending']);
    expect((await repo.messages('o-run', e.endpointId, 'delivering')).length).toBe(4);
    const raw = await db.sql.query<{ status: string }>(`SELECT DISTINCT status FROM webhook_messages WHERE organization_id = 'o-run'`);
    expect(raw.rows).toEqual([{ status: 'pending' }]);
    // r1 delivered, r2 to be retried: r3 and r4 were not attempted and go back as they were.
    const r = await repo.recordRun(
      [
        { m: run[0]!, outcome: { kind: 'delivered', statusCode: 200 }, latencyMs: 3 },
        { m: run[1]!, outcome: { kind: 'retry', statusCode: 503, error: 'HTTP 503', retryInMs: 0 }, latencyMs: 4 },
      ],
      run.slice(2),
      null,
    );
    expect(r).toEqual({ held: 2, next: [] });
    expect((await repo.messages('o-run', e.endpointId)).map((m) => [m.status, m.attempts])).toEqual([
      ['delivered', 1],
      ['pending', 1],
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
    ]);
    expect((await repo.log('o-run', e.endpointId)).map((l) => [l.eventId, l.attempt, l.statusCode]).sort()).toEqual(
      [
        [run[0]!.eventId, 1, 200],
        [run[1]!.eventId, 1, 503],
      ].sort(),
    );
    // The same answer recorded twice (a duplicate, not a new claim): logged, but nothing held or moved.
    expect(await repo.recordRun([{ m: run[1]!, outcome: { kind: 'delivered', statusCode: 200 }, latencyMs: 1 }], [], null)).toEqual({ held: 0, next: [] });
    expect((await repo.messages('o-run', e.endpointId)).map((m) => m.status)[1]).toBe('pending');
    // The retried head leads the next run, the others behind it in order.
    const second = await mine(3);
    expect([ids(second), second.map((m) => m.attempt)]).toEqual([['r2', 'r3', 'r4'], [2, 1, 1]]);
    // All finished: the record claims the rest of the queue as the next run.
    const chained = await repo.recordRun(
      second.map((m) => ({ m, outcome: { kind: 'delivered' as const, statusCode: 200 }, latencyMs: 1 })),
      [],
      { claimNext: { leaseMs: 30_000, runLength: 5 } },
    );
    expect([chained.held, ids(chained.next)]).toEqual([3, ['r5', 'r6']]);
    // A stale record (attempt numbers no longer ours) holds nothing and chains nothing.
    expect(await repo.recordRun(second.map((m) => ({ m, outcome: { kind: 'delivered' as const, statusCode: 200 }, latencyMs: 1 })), [], { claimNext: { leaseMs: 30_000, runLength: 5 } })).toEqual({ held: 0, next: [] });
    await repo.recordRun(chained.next.map((m) => ({ m, outcome: { kind: 'delivered' as const, statusCode: 200 }, latencyMs: 1 })), [], null);
    expect((await repo.messages('o-run', e.endpointId)).map((m) => m.status)).toEqual(Array(6).fill('delivered'));
  });

  it('takes over a whole run whose lease expired, in order', async () => {
    await org('o-run-lease');
    const e = await endpoint('o-run-lease');
    for (const a of ['t1', 't2', 't3']) await event('o-run-lease', a);
    await fanOutAll();
    const repo = webhookDeliveryRepository(db);
    const a = (await repo.claim(100, 1, 10)).filter((m) => m.endpointId === e.endpointId);
    expect(a).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 20));
    const b = (await repo.claim(100, 30_000, 10)).filter((m) => m.endpointId === e.endpointId);
    expect(b.map((m) => [m.eventId, m.attempt])).toEqual(a.map((m) => [m.eventId, 2]));
  });

  it('takes over a claim whose lease expired', async () => {
    await org('o-lease');
    const e = await endpoint('o-lease');
    await event('o-lease', 'l1');
    await fanOutAll();
    const repo = webhookDeliveryRepository(db);
    const a = (await repo.claim(100, 1)).filter((m) => m.endpointId === e.endpointId);
    expect(a).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 20));
    const b = (await repo.claim(100, 30_000)).filter((m) => m.endpointId === e.endpointId);
    expect(b.map((m) => [m.eventId, m.attempt])).toEqual([[a[0]!.eventId, 2]]);
    // The first worker's late answer does not count.
    expect(await repo.record(a[0]!, { kind: 'delivered', statusCode: 200 }, 1)).toBe(false);
    expect(await repo.record(b[0]!, { kind: 'delivered', statusCode: 200 }, 1)).toBe(true);
  });
});

describe('pruning', () => {
  it('drops log entries and delivered messages older than the retention, nothing else', async () => {
    const repo = webhookDeliveryRepository(db);
    await db.sql.query(`INSERT INTO webhook_delivery_attempts (organization_id, endpoint_id, message_id, event_id, attempt, latency_ms, at)
      VALUES ('o-prune', 'e', 1, 'evt_old', 1, 5, now() - interval '15 days'), ('o-prune', 'e', 2, 'evt_new', 1, 5, now() - interval '13 days')`);
    await db.sql.query(`INSERT INTO webhook_messages (organization_id, endpoint_id, event_id, event_type, outbox_event_id, body, status, delivered_at)
      VALUES ('o-prune', 'e', 'evt_p1', 'ACTIVITY_UPDATES', -1, '\\x7b7d', 'delivered', now() - interval '15 days'),
             ('o-prune', 'e', 'evt_p2', 'ACTIVITY_UPDATES', -2, '\\x7b7d', 'dead', NULL),
             ('o-prune', 'e', 'evt_p3', 'ACTIVITY_UPDATES', -3, '\\x7b7d', 'delivered', now() - interval '1 day')`);
    expect(await repo.prune(14)).toEqual({ attempts: 1, messages: 1 });
    expect((await repo.log('o-prune', 'e')).map((l) => l.eventId)).toEqual(['evt_new']);
    expect((await repo.messages('o-prune', 'e')).map((m) => m.eventId)).toEqual(['evt_p2', 'evt_p3']);
  });
});

describe('signing keys', () => {
  it('makes a key once, rotates, and publishes the retired key for its grace period only', async () => {
    const vault = createKeyVault(new Uint8Array(32).fill(7));
    const repo = webhookSigningKeyRepository(db);
    const [a, b] = await Promise.all([ensureWebhookSigningKey(repo, vault), ensureWebhookSigningKey(repo, vault)]);
    expect(a.keyId).toBe(b.keyId);
    expect((await webhookJwksDocument(repo)).body.keys.map((k) => k.kid)).toEqual([a.keyId]);
    const rotated = await rotateWebhookSigningKey(repo, vault, 60_000);
    expect(rotated.retired).toEqual([a.keyId]);
    expect((await ensureWebhookSigningKey(repo, vault)).keyId).toBe(rotated.keyId);
    const doc = await webhookJwksDocument(repo);
    expect(doc.body.keys.map((k) => k.kid)).toEqual([rotated.keyId, a.keyId]);
    expect(doc.headers['Cache-Control']).toBe('public, max-age=86400, s-maxage=86400, stale-if-error=604800');
    const again = await rotateWebhookSigningKey(repo, vault, 0);
    expect((await webhookJwksDocument(repo)).body.keys.map((k) => k.kid)).toEqual([again.keyId, a.keyId]);
    // Another master key cannot open it.
    await expect(ensureWebhookSigningKey(repo, createKeyVault(new Uint8Array(32).fill(8)))).rejects.toThrow(/master key/);
  });
});
