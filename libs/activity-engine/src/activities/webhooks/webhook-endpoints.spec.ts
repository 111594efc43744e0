/**
 * Webhook endpoints in process against a real database: the activities and the query with the
 * wire shapes of `@turnkey/http` 6.6, the URL rules at creation (and the allow switch coming in
 * through `services.webhookUrls`), and the ACTIVITY_UPDATES outbox events — one per status reached,
 * each carrying the activity exactly as get_activity shows it (votes included, flags false).
 */
import { createKeyVault, generateMasterKey, generateP256KeyPair, newId, signP256 } from '@latchkey/crypto';
import type { TActivity } from '@latchkey/domain';
import { createStore, openDatabase, runMigrations, webhookBodyOf, type TDatabase, type TStore } from '@latchkey/persistence';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, createRootOrganization, ensureServerKeys, unconfiguredServices, type TEngine } from '../../index.js';

type TKey = { publicKey: string; privateKey: string };

let testDb: TTestDatabase;
let db: TDatabase;
let store: TStore;
let open: TEngine;
let strict: TEngine;
let root: { organizationId: string; userId: string } & TKey;

const stamp = (body: string, key: TKey) => ({
  'x-stamp': Buffer.from(JSON.stringify({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(key.privateKey, Buffer.from(body)) })).toString('base64url'),
});
async function submit(engine: TEngine, path: string, type: string, parameters: object, key: TKey = root): Promise<TActivity> {
  const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: root.organizationId, parameters });
  return (await engine.submit(path, stamp(body, key), Buffer.from(body))).activity;
}
async function query<T>(path: string, body: object, key: TKey = root): Promise<T> {
  const text = JSON.stringify({ organizationId: root.organizationId, ...body });
  return (await open.query(path, stamp(text, key), Buffer.from(text))) as T;
}
const createEndpoint = (engine: TEngine, parameters: object) => submit(engine, 'create_webhook_endpoint', 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', parameters);
async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x as { code: string; message: string },
  );
  expect(e, 'expected a refusal').toBeDefined();
  return e!;
}
/** The ACTIVITY_UPDATES events the outbox holds for one activity, oldest first. */
async function eventsOf(activityId: string): Promise<{ event_type: string; payload: { activity: TActivity } }[]> {
  return (await db.sql.query<{ event_type: string; payload: { activity: TActivity } }>(`SELECT event_type, payload FROM outbox_events WHERE payload->'activity'->>'id' = $1 ORDER BY id`, [activityId])).rows;
}
/** get_activity as no particular reader sees it: what an event must carry. */
async function readerless(activityId: string): Promise<TActivity> {
  const { activity } = await query<{ activity: TActivity }>('get_activity', { activityId });
  return { ...activity, canApprove: false, canReject: false };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  await runMigrations(testDb.url);
  db = openDatabase(testDb.url);
  store = createStore(db.prisma, db.sql);
  const vault = createKeyVault(generateMasterKey());
  await ensureServerKeys(store, vault);
  const kp = generateP256KeyPair();
  const boot = await store.transaction((tx) => createRootOrganization(tx, { organizationName: 'Root organization', userName: 'root', apiPublicKey: kp.publicKey, apiKeyName: 'bootstrap' }));
  root = { organizationId: boot.organizationId, userId: boot.userId, ...kp };
  open = createEngine({ store, vault, timestampWindowMs: 300_000, services: { ...unconfiguredServices(), webhookUrls: { allowInsecure: true } } });
  strict = createEngine({ store, vault, timestampWindowMs: 300_000, services: unconfiguredServices() });
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
  await stopTestPostgres();
});

describe('create / update / delete_webhook_endpoint and list_webhook_endpoints', () => {
  it('creates an endpoint with its subscriptions, echoes filtersJson, and lists it as WebhookEndpointData', async () => {
    const a = await createEndpoint(open, {
      url: 'http://127.0.0.1:9/hook',
      name: 'local',
      subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }, { eventType: 'BALANCE_CONFIRMED_UPDATES', filtersJson: '{"caip2":"eip155:1"}', isActive: false }],
    });
    expect(a.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(a.type).toBe('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT');
    const r = a.result['createWebhookEndpointResult'] as { endpointId: string; webhookEndpoint: unknown };
    const expected = {
      endpointId: r.endpointId,
      organizationId: root.organizationId,
      url: 'http://127.0.0.1:9/hook',
      name: 'local',
      isActive: true,
      subscriptions: [
        { eventType: 'ACTIVITY_UPDATES', isActive: true },
        { eventType: 'BALANCE_CONFIRMED_UPDATES', filtersJson: '{"caip2":"eip155:1"}', isActive: false },
      ],
    };
    expect(r.webhookEndpoint).toEqual(expected);
    expect(await query('list_webhook_endpoints', {})).toEqual({ webhookEndpoints: [expected] });

    const u = await submit(open, 'update_webhook_endpoint', 'ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT', { endpointId: r.endpointId, name: 'renamed', isActive: false });
    expect(u.result['updateWebhookEndpointResult']).toEqual({ endpointId: r.endpointId, webhookEndpoint: { ...expected, name: 'renamed', isActive: false } });

    const d = await submit(open, 'delete_webhook_endpoint', 'ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT', { endpointId: r.endpointId });
    expect(d.result['deleteWebhookEndpointResult']).toEqual({ endpointId: r.endpointId });
    expect(await query('list_webhook_endpoints', {})).toEqual({ webhookEndpoints: [] });
  });

  it('refuses an unknown event type naming the allowed ones, and filtersJson that is not JSON', async () => {
    const unknown = await refusal(createEndpoint(open, { url: 'http://127.0.0.1:9/', name: 'x', subscriptions: [{ eventType: 'WALLET_UPDATES' }] }));
    expect(unknown.code).toBe('BAD_REQUEST');
    expect(unknown.message).toMatch(/ACTIVITY_UPDATES, BALANCE_CONFIRMED_UPDATES, BALANCE_FINALIZED_UPDATES, SEND_TRANSACTION_STATUS_UPDATES/);
    const filters = await refusal(createEndpoint(open, { url: 'http://127.0.0.1:9/', name: 'x', subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{nope' }] }));
    expect(filters.message).toMatch(/filtersJson.*valid JSON/);
    expect((await refusal(createEndpoint(open, { url: 'http://127.0.0.1:9/', name: ' ', subscriptions: [] }))).message).toMatch(/name/);
  });

  it('refuses private and plain-http URLs without LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS, naming it, and writes nothing', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'https://10.1.2.3/hook', 'https://[::1]/hook']) {
      const e = await refusal(createEndpoint(strict, { url, name: 'x', subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }] }));
      expect(e.code).toBe('BAD_REQUEST');
      expect(e.message).toMatch(/LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS/);
    }
    // Cloud metadata stays refused even with the switch; userinfo and fragments always.
    for (const url of ['http://169.254.169.254/latest', 'https://user:pw@example.com/', 'https://example.com/#x']) {
      expect((await refusal(createEndpoint(open, { url, name: 'x', subscriptions: [] }))).code).toBe('BAD_REQUEST');
    }
    expect(await query('list_webhook_endpoints', {})).toEqual({ webhookEndpoints: [] });
    // The same rule on update and on the legacy feature.
    const created = (await createEndpoint(open, { url: 'http://127.0.0.1:9/a', name: 'a', subscriptions: [] })).result['createWebhookEndpointResult'] as { endpointId: string };
    const upd = await refusal(submit(strict, 'update_webhook_endpoint', 'ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT', { endpointId: created.endpointId, url: 'http://192.168.0.1/' }));
    expect(upd.message).toMatch(/LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS/);
    const feature = await refusal(submit(strict, 'set_organization_feature', 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', { name: 'FEATURE_NAME_WEBHOOK', value: 'http://127.0.0.1:9/legacy' }));
    expect(feature.message).toMatch(/LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS/);
    await submit(open, 'delete_webhook_endpoint', 'ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT', { endpointId: created.endpointId });
  });

  it('answers 404 for an endpoint the organization does not have', async () => {
    const e = await refusal(submit(open, 'delete_webhook_endpoint', 'ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT', { endpointId: newId() }));
    expect(e.code).toBe('NOT_FOUND');
  });
});

describe('ACTIVITY_UPDATES outbox events', () => {
  it('an activity created and completed at once: one event carrying get_activity’s activity (votes [])', async () => {
    const a = await submit(open, 'create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: `w-${newId()}`, accounts: [] });
    const events = await eventsOf(a.id);
    expect(events.map((e) => [e.event_type, e.payload.activity.status])).toEqual([['ACTIVITY_UPDATES', 'ACTIVITY_STATUS_COMPLETED']]);
    expect(events[0]!.payload.activity).toEqual(await readerless(a.id));
    expect(events[0]!.payload.activity.votes).toEqual([]);
    // The delivered bytes are that object, flags false.
    expect(JSON.parse(webhookBodyOf('ACTIVITY_UPDATES', events[0]!.payload).toString('utf8'))).toEqual(await readerless(a.id));
  });

  it('consensus: CONSENSUS_NEEDED then COMPLETED, two events, each with the votes so far and their users', async () => {
    const member = generateP256KeyPair();
    const users = await submit(open, 'create_users', 'ACTIVITY_TYPE_CREATE_USERS_V4', {
      users: [{ userName: 'member', apiKeys: [{ apiKeyName: 'k', publicKey: member.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [], userTags: [] }],
    });
    const memberId = (users.result['createUsersResult'] as { userIds: string[] }).userIds[0]!;
    const policy = await submit(open, 'create_policy', 'ACTIVITY_TYPE_CREATE_POLICY_V3', {
      policyName: `p-${newId()}`,
      notes: '',
      effect: 'EFFECT_ALLOW',
      condition: "activity.resource == 'WALLET'",
      consensus: `approvers.any(user, user.id == '${memberId}') && approvers.any(user, user.id == '${root.userId}')`,
    });
    const policyId = (policy.result['createPolicyResult'] as { policyId: string }).policyId;

    const waiting = await submit(open, 'create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: `w-${newId()}`, accounts: [] }, member);
    expect(waiting.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    const first = await eventsOf(waiting.id);
    expect(first).toHaveLength(1);
    expect(first[0]!.payload.activity).toEqual(await readerless(waiting.id));
    expect(first[0]!.payload.activity.votes.map((v) => [v.userId, v.selection, v.user.userName])).toEqual([[memberId, 'VOTE_SELECTION_APPROVED', 'member']]);

    const done = await submit(open, 'approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', { fingerprint: waiting.fingerprint });
    expect(done.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const both = await eventsOf(waiting.id);
    expect(both.map((e) => e.payload.activity.status)).toEqual(['ACTIVITY_STATUS_CONSENSUS_NEEDED', 'ACTIVITY_STATUS_COMPLETED']);
    expect(both[1]!.payload.activity).toEqual(await readerless(waiting.id));
    expect(both[1]!.payload.activity.votes).toHaveLength(2);
    await submit(open, 'delete_policy', 'ACTIVITY_TYPE_DELETE_POLICY', { policyId });
  });

  it('a refused endpoint creation leaves no activity and no event', async () => {
    const before = (await db.sql.query<{ n: string }>('SELECT count(*) AS n FROM outbox_events')).rows[0]!.n;
    await refusal(createEndpoint(strict, { url: 'http://127.0.0.1:9/', name: 'x', subscriptions: [] }));
    expect((await db.sql.query<{ n: string }>('SELECT count(*) AS n FROM outbox_events')).rows[0]!.n).toBe(before);
  });
});
