/**
 * Delivery end to end on real parts: PostgreSQL, the worker loop with LISTEN/NOTIFY, and an HTTP
 * receiver on 127.0.0.1 that verifies every delivery with `@turnkey/crypto`'s verifier and the
 * JWKS keys. Loopback needs LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS, except in the test that checks
 * the refusal without it.
 */
import { newId } from '@latchkey/crypto';
import {
  ensureWebhookSigningKey,
  listenForWebhookWork,
  redeliver,
  rotateWebhookSigningKey,
  webhookBodyOf,
  webhookDeliveryRepository,
  webhookEndpointRepository,
  webhookSigningKeyRepository,
} from '@latchkey/persistence';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { verifyTurnkeyWebhookSignature } from '@turnkey/crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhookConfig, type TWebhookConfig } from '../src/config.js';
import { createSignerCache } from '../src/signer-cache.js';
import { createWebhookWorker, MAX_CHAIN, RUN_LENGTH } from '../src/worker.js';
import { appendEvents, createEndpoint, createOrganization, header, jwksVerificationKeys, openWorld, startReceiver, waitFor, type TReceiver, type TWorld } from './helpers.js';

let w: TWorld;
let receiver: TReceiver;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  w = await openWorld();
  await ensureWebhookSigningKey(webhookSigningKeyRepository(w.db), w.vault);
  receiver = await startReceiver(w.db);
});
afterAll(async () => {
  await receiver?.close();
  await w?.db.close();
  await w?.testDb.drop();
  await stopTestPostgres();
});

const testConfig = (over: Partial<TWebhookConfig> = {}): TWebhookConfig => ({
  ...parseWebhookConfig({ LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true', LATCHKEY_WEBHOOK_RETRY_BASE_MS: '30', LATCHKEY_WEBHOOK_POLL_MS: '1000', LATCHKEY_WEBHOOK_TIMEOUT_MS: '2000' }),
  ...over,
});

/** Runs a worker (woken by NOTIFY, as in production) around `fn`. */
async function withWorker<T>(fn: () => Promise<T>, over: Partial<TWebhookConfig> = {}): Promise<T> {
  const worker = createWebhookWorker({ db: w.db, config: testConfig(over), logger, signer: createSignerCache(webhookSigningKeyRepository(w.db), w.vault, 50) });
  const wakeups = await listenForWebhookWork(w.testDb.url, (x) => worker.wake(x));
  worker.start();
  try {
    return await fn();
  } finally {
    await wakeups.close();
    await worker.stop();
  }
}

const bodyOf = (r: { body: Buffer }) => JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;

describe('webhook delivery', () => {
  it('delivers a signed, verifiable bare activity within moments of the commit; a tampered byte fails', async () => {
    await createOrganization(w.db, 'org-basic');
    await createEndpoint(w.db, 'org-basic', receiver.url('/basic'));
    await withWorker(async () => {
      // A first event warms the path up (JIT, first signature, first connection).
      await appendEvents(w.db, [{ organizationId: 'org-basic', activityId: 'act-warm-up' }]);
      await waitFor('the first delivery', () => receiver.at('/basic').length === 1);
      await new Promise((r) => setTimeout(r, 300)); // idle: the fallback poll is 1 s away
      const committed = Date.now();
      await appendEvents(w.db, [{ organizationId: 'org-basic', activityId: 'act-basic' }]);
      await waitFor('the delivery', () => receiver.at('/basic').length === 2);
      // Woken by NOTIFY, not by the 1 s poll.
      expect(receiver.at('/basic')[1]!.at - committed).toBeLessThan(500);
    });
    const r = receiver.at('/basic')[1]!;
    expect(r.verified).toMatchObject({ ok: true });
    expect(header(r, 'content-type')).toBe('application/json');
    expect(header(r, 'x-turnkey-event-type')).toBe('ACTIVITY_UPDATES');
    expect(header(r, 'x-turnkey-webhook-version')).toBe('1');
    expect(header(r, 'x-turnkey-organization-id')).toBe('org-basic');
    expect(header(r, 'x-turnkey-signature-algorithm')).toBe('ed25519');
    expect(header(r, 'x-turnkey-signature-version')).toBe('v1');
    expect(header(r, 'x-turnkey-signature')).toMatch(/^[0-9a-f]{128}$/);
    expect(bodyOf(r)).toMatchObject({ id: 'act-basic', organizationId: 'org-basic', status: 'ACTIVITY_STATUS_COMPLETED', type: 'ACTIVITY_TYPE_CREATE_WALLET', fingerprint: 'fp-act-basic', canApprove: false, canReject: false });
    const keys = await jwksVerificationKeys(w.db);
    const tampered = Buffer.from(r.body);
    tampered[10] = tampered[10]! ^ 1;
    expect(verifyTurnkeyWebhookSignature({ headers: r.headers as Record<string, string>, body: tampered, verificationKeys: keys, maxTimestampAgeMs: 300_000 })).toMatchObject({ ok: false, reason: 'invalid_signature' });
  });

  it('500, 500, 200: three attempts with one event id and new timestamps; one success in the log', async () => {
    await createOrganization(w.db, 'org-500');
    const endpointId = await createEndpoint(w.db, 'org-500', receiver.url('/flaky'));
    receiver.answer('/flaky', (n) => ({ status: n < 2 ? 500 : 200 }));
    await withWorker(async () => {
      await appendEvents(w.db, [{ organizationId: 'org-500', activityId: 'act-500' }]);
      await waitFor('three attempts', () => receiver.at('/flaky').length === 3);
      await waitFor('the success recorded', async () => (await webhookDeliveryRepository(w.db).messages('org-500', endpointId, 'delivered')).length === 1);
    });
    const got = receiver.at('/flaky');
    expect(got.every((r) => r.verified.ok)).toBe(true);
    expect(new Set(got.map((r) => header(r, 'x-turnkey-event-id'))).size).toBe(1);
    const stamps = got.map((r) => Number(header(r, 'x-turnkey-timestamp')));
    expect(stamps[1]).toBeGreaterThan(stamps[0]!);
    expect(stamps[2]).toBeGreaterThan(stamps[1]!);
    expect(new Set(got.map((r) => header(r, 'x-turnkey-signature'))).size).toBe(3);
    const log = await webhookDeliveryRepository(w.db).log('org-500', endpointId);
    expect(log.map((l) => [l.attempt, l.statusCode, l.error])).toEqual([
      [3, 200, null],
      [2, 500, 'HTTP 500'],
      [1, 500, 'HTTP 500'],
    ]);
    expect(log.every((l) => l.latencyMs >= 0)).toBe(true);
  });

  it('a retry in the middle of a queue holds back what is behind it: order kept, nothing attempted twice but the failed one', async () => {
    await createOrganization(w.db, 'org-mid');
    const endpointId = await createEndpoint(w.db, 'org-mid', receiver.url('/mid'));
    // The third request (act-mid-2's first attempt) fails once.
    receiver.answer('/mid', (n) => ({ status: n === 2 ? 503 : 200 }));
    await appendEvents(w.db, Array.from({ length: 10 }, (_, i) => ({ organizationId: 'org-mid', activityId: `act-mid-${i}` })));
    await withWorker(async () => {
      await waitFor('all delivered', async () => (await webhookDeliveryRepository(w.db).messages('org-mid', endpointId, 'delivered')).length === 10);
    });
    expect(receiver.at('/mid').map((r) => bodyOf(r)['id'])).toEqual(['act-mid-0', 'act-mid-1', 'act-mid-2', ...Array.from({ length: 8 }, (_, i) => `act-mid-${i + 2}`)]);
    const messages = await webhookDeliveryRepository(w.db).messages('org-mid', endpointId);
    expect(messages.map((m) => m.attempts)).toEqual([1, 1, 2, 1, 1, 1, 1, 1, 1, 1]);
    expect((await webhookDeliveryRepository(w.db).log('org-mid', endpointId)).length).toBe(11);
  });

  it('400: one attempt, final', async () => {
    await createOrganization(w.db, 'org-400');
    const endpointId = await createEndpoint(w.db, 'org-400', receiver.url('/bad'));
    receiver.answer('/bad', () => ({ status: 400 }));
    await withWorker(async () => {
      await appendEvents(w.db, [{ organizationId: 'org-400', activityId: 'act-400' }]);
      await waitFor('dead letter', async () => (await webhookDeliveryRepository(w.db).messages('org-400', endpointId, 'dead')).length === 1);
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(receiver.at('/bad')).toHaveLength(1);
    expect((await webhookDeliveryRepository(w.db).messages('org-400', endpointId))[0]).toMatchObject({ status: 'dead', attempts: 1, lastStatusCode: 400, lastError: 'HTTP 400' });
  });

  it('429 with Retry-After: 1 is retried, after at least a second', async () => {
    await createOrganization(w.db, 'org-429');
    await createEndpoint(w.db, 'org-429', receiver.url('/slow-down'));
    receiver.answer('/slow-down', (n) => (n === 0 ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 200 }));
    await withWorker(async () => {
      await appendEvents(w.db, [{ organizationId: 'org-429', activityId: 'act-429' }]);
      await waitFor('the retry', () => receiver.at('/slow-down').length === 2);
    });
    const [first, second] = receiver.at('/slow-down');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    expect(header(second!, 'x-turnkey-event-id')).toBe(header(first!, 'x-turnkey-event-id'));
  });

  it("a sub-organization's event reaches the parent's endpoint; inactive endpoints and subscriptions get nothing", async () => {
    await createOrganization(w.db, 'org-parent');
    await createOrganization(w.db, 'org-child', 'org-parent');
    await createEndpoint(w.db, 'org-parent', receiver.url('/parent'));
    await createEndpoint(w.db, 'org-child', receiver.url('/child'));
    await createEndpoint(w.db, 'org-child', receiver.url('/inactive-endpoint'), { isActive: false });
    await createEndpoint(w.db, 'org-child', receiver.url('/inactive-subscription'), { subscriptionActive: false });
    await withWorker(async () => {
      await appendEvents(w.db, [{ organizationId: 'org-child', activityId: 'act-child' }]);
      await waitFor('both deliveries', () => receiver.at('/parent').length === 1 && receiver.at('/child').length === 1);
      await new Promise((r) => setTimeout(r, 300));
    });
    const parent = receiver.at('/parent')[0]!;
    expect(parent.verified.ok).toBe(true);
    expect(header(parent, 'x-turnkey-organization-id')).toBe('org-parent');
    expect(bodyOf(parent)).toMatchObject({ id: 'act-child', organizationId: 'org-child' });
    expect(header(receiver.at('/child')[0]!, 'x-turnkey-organization-id')).toBe('org-child');
    expect(receiver.at('/inactive-endpoint')).toHaveLength(0);
    expect(receiver.at('/inactive-subscription')).toHaveLength(0);
  });

  it('with fewer slots than busy endpoints, a long queue does not keep another endpoint waiting', async () => {
    await createOrganization(w.db, 'org-long');
    await createOrganization(w.db, 'org-short');
    await createEndpoint(w.db, 'org-long', receiver.url('/long'));
    await createEndpoint(w.db, 'org-short', receiver.url('/short'));
    const long = MAX_CHAIN * RUN_LENGTH + 50;
    await appendEvents(w.db, [...Array.from({ length: long }, (_, i) => ({ organizationId: 'org-long', activityId: `long-${i}` })), { organizationId: 'org-short', activityId: 'short-0' }]);
    await withWorker(
      async () => {
        await waitFor('both queues', () => receiver.at('/long').length === long && receiver.at('/short').length === 1);
      },
      { concurrency: 1 },
    );
    const order = receiver.received.filter((r) => r.path === '/long' || r.path === '/short').map((r) => r.path);
    // One slot: the long queue chains at most MAX_CHAIN runs, then yields to the short queue's head.
    expect(order.indexOf('/short')).toBeGreaterThan(0);
    expect(order.indexOf('/short')).toBeLessThanOrEqual(MAX_CHAIN * RUN_LENGTH);
  });

  it('delivers to the legacy FEATURE_NAME_WEBHOOK URL, signed the same way', async () => {
    await createOrganization(w.db, 'org-legacy');
    await w.db.sql.query(`INSERT INTO organization_features (organization_id, name, value) VALUES ('org-legacy', 'FEATURE_NAME_WEBHOOK', $1)`, [receiver.url('/legacy')]);
    await withWorker(async () => {
      await appendEvents(w.db, [{ organizationId: 'org-legacy', activityId: 'act-legacy' }]);
      await waitFor('the delivery', () => receiver.at('/legacy').length === 1);
    });
    const r = receiver.at('/legacy')[0]!;
    expect(r.verified.ok).toBe(true);
    expect(header(r, 'x-turnkey-organization-id')).toBe('org-legacy');
    expect(bodyOf(r)).toMatchObject({ id: 'act-legacy' });
  });

  it('dead-letters what was queued for an endpoint deactivated before delivery', async () => {
    await createOrganization(w.db, 'org-deactivated');
    const endpointId = await createEndpoint(w.db, 'org-deactivated', receiver.url('/deactivated'));
    await appendEvents(w.db, [{ organizationId: 'org-deactivated', activityId: 'act-deactivated' }]);
    // Queued (fanned out) while active, then switched off before any worker sends it.
    await webhookDeliveryRepository(w.db).fanOut(100, webhookBodyOf, () => `evt_${newId()}`);
    await webhookEndpointRepository(w.db.prisma).update('org-deactivated', endpointId, { isActive: false, now: new Date() });
    await withWorker(async () => {
      await waitFor('dead letter', async () => (await webhookDeliveryRepository(w.db).messages('org-deactivated', endpointId, 'dead')).length === 1);
    });
    expect(receiver.at('/deactivated')).toHaveLength(0);
    expect((await webhookDeliveryRepository(w.db).messages('org-deactivated', endpointId))[0]!.lastError).toBe('endpoint inactive');
  });

  it('refuses a private (loopback) destination without the switch, naming it; delivers it with the switch after redelivery', async () => {
    await createOrganization(w.db, 'org-private');
    const endpointId = await createEndpoint(w.db, 'org-private', receiver.url('/private'));
    await withWorker(
      async () => {
        await appendEvents(w.db, [{ organizationId: 'org-private', activityId: 'act-private' }]);
        await waitFor('dead letter', async () => (await webhookDeliveryRepository(w.db).messages('org-private', endpointId, 'dead')).length === 1);
      },
      { allowInsecureUrls: false },
    );
    expect(receiver.at('/private')).toHaveLength(0);
    const dead = (await webhookDeliveryRepository(w.db).messages('org-private', endpointId))[0]!;
    expect(dead.lastError).toMatch(/LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS=true/);
    expect(await redeliver(w.db, { endpointId, dead: true })).toBe(1);
    await withWorker(async () => {
      await waitFor('the delivery', () => receiver.at('/private').length === 1);
    });
    expect(header(receiver.at('/private')[0]!, 'x-turnkey-event-id')).toBe(dead.eventId);
  });

  it('does not follow a redirect: the 3xx is final', async () => {
    await createOrganization(w.db, 'org-redirect');
    const endpointId = await createEndpoint(w.db, 'org-redirect', receiver.url('/moved'));
    receiver.answer('/moved', () => ({ status: 302, headers: { Location: receiver.url('/target') } }));
    await withWorker(async () => {
      await appendEvents(w.db, [{ organizationId: 'org-redirect', activityId: 'act-redirect' }]);
      await waitFor('dead letter', async () => (await webhookDeliveryRepository(w.db).messages('org-redirect', endpointId, 'dead')).length === 1);
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(receiver.at('/moved')).toHaveLength(1);
    expect(receiver.at('/target')).toHaveLength(0);
    expect((await webhookDeliveryRepository(w.db).messages('org-redirect', endpointId))[0]!.lastError).toMatch(/HTTP 302 \(redirects are not followed\)/);
  });

  it('retries an attempt that times out, with the same event id', async () => {
    await createOrganization(w.db, 'org-timeout');
    const endpointId = await createEndpoint(w.db, 'org-timeout', receiver.url('/sluggish'));
    receiver.answer('/sluggish', (n) => (n === 0 ? { status: 200, delayMs: 800 } : { status: 200 }));
    await withWorker(
      async () => {
        await appendEvents(w.db, [{ organizationId: 'org-timeout', activityId: 'act-timeout' }]);
        await waitFor('delivered', async () => (await webhookDeliveryRepository(w.db).messages('org-timeout', endpointId, 'delivered')).length === 1);
      },
      { timeoutMs: 300 },
    );
    const got = receiver.at('/sluggish');
    expect(got).toHaveLength(2);
    expect(header(got[1]!, 'x-turnkey-event-id')).toBe(header(got[0]!, 'x-turnkey-event-id'));
    const log = await webhookDeliveryRepository(w.db).log('org-timeout', endpointId);
    expect(log.map((l) => [l.attempt, l.statusCode, l.error])).toEqual([
      [2, 200, null],
      [1, null, 'timed out after 300 ms'],
    ]);
  });

  it('gives up after the maximum attempts: a dead letter with the reason', async () => {
    await createOrganization(w.db, 'org-down');
    const endpointId = await createEndpoint(w.db, 'org-down', receiver.url('/down'));
    receiver.answer('/down', () => ({ status: 503 }));
    await withWorker(
      async () => {
        await appendEvents(w.db, [{ organizationId: 'org-down', activityId: 'act-down' }]);
        await waitFor('dead letter', async () => (await webhookDeliveryRepository(w.db).messages('org-down', endpointId, 'dead')).length === 1);
      },
      { maxAttempts: 3 },
    );
    expect(receiver.at('/down')).toHaveLength(3);
    expect((await webhookDeliveryRepository(w.db).messages('org-down', endpointId))[0]!.lastError).toBe('gave up after 3 attempts: HTTP 503');
  });

  it('signs with a rotated key from then on; the old key stays published', async () => {
    await createOrganization(w.db, 'org-rotate');
    await createEndpoint(w.db, 'org-rotate', receiver.url('/rotate'));
    const before = (await webhookSigningKeyRepository(w.db).current())!.keyId;
    const rotated = await rotateWebhookSigningKey(webhookSigningKeyRepository(w.db), w.vault, 60_000);
    await withWorker(async () => {
      await new Promise((r) => setTimeout(r, 100)); // the signer cache's lifetime here is 50 ms
      await appendEvents(w.db, [{ organizationId: 'org-rotate', activityId: 'act-rotate' }]);
      await waitFor('the delivery', () => receiver.at('/rotate').length === 1);
    });
    const r = receiver.at('/rotate')[0]!;
    expect(header(r, 'x-turnkey-signature-key-id')).toBe(rotated.keyId);
    expect(r.verified.ok).toBe(true);
    expect((await jwksVerificationKeys(w.db)).map((k) => k.keyId)).toEqual([rotated.keyId, before]);
  });
});
