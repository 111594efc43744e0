/**
 * Webhooks end to end: one real Latchkey (`npm start`'s launcher, so the webhook worker runs too,
 * with LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS=true for a receiver on 127.0.0.1) driven by the
 * unmodified `@turnkey/sdk-server`, and a real HTTP receiver that checks every delivery with the
 * real `verifyTurnkeyWebhookSignature` of `@turnkey/crypto` against keys fetched from
 * `GET /public/v1/discovery/webhooks/jwks`, as a receiver written for Turnkey does.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateP256KeyPair, verifyTurnkeyWebhookSignature } from '@turnkey/crypto';
import type { TurnkeyApiTypes } from '@turnkey/http';
import { Turnkey } from '@turnkey/sdk-server';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair } from './policy-e2e-helpers.js';

type TActivity = TurnkeyApiTypes['v1Activity'];
interface TDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** What verifyTurnkeyWebhookSignature said, with the keys of the JWKS. */
  verified: ReturnType<typeof verifyTurnkeyWebhookSignature>;
  activity: TActivity;
}

const JWKS_PATH = '/public/v1/discovery/webhooks/jwks';
let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let orgId: string;
let rootKey: TKeyPair;
let receiver: Server;
let receiverUrl: string;
const deliveries: TDelivery[] = [];
let verificationKeys: { keyId: string; publicKey: string; algorithm: 'ed25519' }[] = [];

async function fetchJwks() {
  const r = await fetch(`${latchkey.baseUrl}${JWKS_PATH}`);
  const body = (await r.json()) as { keys: { kid: string; x: string }[] };
  verificationKeys = body.keys.map((k) => ({ keyId: k.kid, publicKey: Buffer.from(k.x, 'base64url').toString('hex'), algorithm: 'ed25519' }));
  return { response: r, body };
}

/** Waits until `pick` finds something among the deliveries so far. */
async function waitFor<T>(pick: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = pick();
    if (found !== undefined && (!Array.isArray(found) || found.length > 0)) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; deliveries so far: ${deliveries.map((d) => `${d.path} ${d.activity.type} ${d.activity.status}`).join('; ')}\n${latchkey.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const deliveriesOf = (activityId: string, path = '/hook') => deliveries.filter((d) => d.path === path && d.activity.id === activityId);
const sdkFor = (key: TKeyPair, organizationId: string) =>
  new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: organizationId, activityPoller: { intervalMs: 20, numRetries: 0 } }).apiClient();
/** get_activity as no particular reader sees it: what the event body must be. */
async function readerless(activityId: string, organizationId = orgId, key = rootKey): Promise<TActivity> {
  const { activity } = await sdkFor(key, organizationId).getActivity({ activityId, organizationId });
  return { ...activity, canApprove: false, canReject: false };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const verified = verifyTurnkeyWebhookSignature({ headers: req.headers as Record<string, string>, body: raw, verificationKeys, maxTimestampAgeMs: 300_000 });
      deliveries.push({ path: req.url ?? '', headers: req.headers, raw, verified, activity: JSON.parse(raw.toString('utf8')) as TActivity });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  latchkey = await startLatchkey({ env: { LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true', LATCHKEY_WEBHOOK_RETRY_BASE_MS: '20', LATCHKEY_WEBHOOK_POLL_MS: '200' } });
  e2e = policyE2e(latchkey);
  ({ orgId, rootKey } = e2e);
  await fetchJwks();
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('GET /public/v1/discovery/webhooks/jwks', () => {
  it('publishes the signing key made at first start, unauthenticated, with Turnkey’s cache header', async () => {
    const { response, body } = await fetchJwks();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400, s-maxage=86400, stale-if-error=604800');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toEqual({
      kid: expect.any(String),
      kty: 'OKP',
      crv: 'Ed25519',
      alg: 'EdDSA',
      use: 'sig',
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      turnkey_signature_algorithm: 'ed25519',
      turnkey_signature_version: 'v1',
    });
  });
});

describe('webhook endpoints through sdk-server', () => {
  let endpointId: string;

  it('createWebhookEndpoint answers WebhookEndpointData; listWebhookEndpoints shows it', async () => {
    const sdk = e2e.sdk(rootKey);
    const created = await sdk.createWebhookEndpoint({ name: 'e2e', url: `${receiverUrl}/hook`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{}' }] });
    endpointId = created.endpointId;
    const expected = { endpointId, organizationId: orgId, url: `${receiverUrl}/hook`, name: 'e2e', isActive: true, subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{}', isActive: true }] };
    expect(created.webhookEndpoint).toEqual(expected);
    expect((await sdk.listWebhookEndpoints({})).webhookEndpoints).toEqual([expected]);
  });

  it('a wallet’s activity arrives signed: verifyTurnkeyWebhookSignature accepts it, the body is get_activity’s activity, a changed byte fails', async () => {
    const { activity } = (await e2e.sdk(rootKey).createWallet({ walletName: uniqueName('w'), accounts: [] })) as unknown as { activity: TActivity };
    const [d] = await waitFor(() => deliveriesOf(activity.id), 'the create_wallet event');
    expect(d!.verified).toMatchObject({ ok: true, eventId: d!.headers['x-turnkey-event-id'], keyId: verificationKeys[0]!.keyId });
    expect(d!.headers['x-turnkey-event-type']).toBe('ACTIVITY_UPDATES');
    expect(d!.headers['x-turnkey-webhook-version']).toBe('1');
    expect(d!.headers['x-turnkey-organization-id']).toBe(orgId);
    expect(d!.headers['content-type']).toMatch(/^application\/json/);
    expect(d!.activity).toEqual(await readerless(activity.id));
    expect(d!.activity).toMatchObject({ id: activity.id, organizationId: orgId, status: 'ACTIVITY_STATUS_COMPLETED', type: 'ACTIVITY_TYPE_CREATE_WALLET', fingerprint: activity.fingerprint, votes: [] });

    const tampered = Buffer.from(d!.raw);
    tampered[tampered.length - 2] = tampered[tampered.length - 2]! ^ 1;
    expect(verifyTurnkeyWebhookSignature({ headers: d!.headers as Record<string, string>, body: tampered, verificationKeys, maxTimestampAgeMs: 300_000 })).toMatchObject({ ok: false, reason: 'invalid_signature' });
  });

  it('every delivery so far verifies', () => {
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries) expect(d.verified, `${d.activity.type} ${d.activity.status}`).toMatchObject({ ok: true });
  });

  it('a sub-organization’s activity reaches the parent’s endpoint under the parent’s id', async () => {
    const subKey = generateP256KeyPair();
    const { subOrganizationId } = await e2e.sdk(rootKey).createSubOrganization({
      subOrganizationName: uniqueName('sub'),
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: 'End User', apiKeys: [{ apiKeyName: 'device', publicKey: subKey.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] }],
    });
    const { activity } = (await sdkFor(subKey, subOrganizationId).createWallet({ walletName: uniqueName('sub-w'), accounts: [] })) as unknown as { activity: TActivity };
    const [d] = await waitFor(() => deliveriesOf(activity.id), 'the sub-organization’s event at the parent');
    expect(d!.verified.ok).toBe(true);
    expect(d!.headers['x-turnkey-organization-id']).toBe(orgId);
    expect(d!.activity.organizationId).toBe(subOrganizationId);
    expect(d!.activity).toEqual(await readerless(activity.id, subOrganizationId, subKey));
  });

  it('a consensus activity gives two events: CONSENSUS_NEEDED with the initiator’s vote, then COMPLETED', async () => {
    const alice = await e2e.member('alice');
    const { policyId } = await e2e.sdk(rootKey).createPolicy({
      policyName: uniqueName('needs-root'),
      effect: 'EFFECT_ALLOW',
      notes: '',
      condition: "activity.resource == 'WALLET'",
      consensus: `approvers.any(user, user.id == '${alice.userId}') && approvers.any(user, user.id == '${latchkey.bootstrap.userId}')`,
    });
    const waiting = (await e2e.sdk(alice.key).createWallet({ walletName: uniqueName('w'), accounts: [] })) as unknown as { activity: TActivity };
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    await e2e.sdk(rootKey).approveActivity({ fingerprint: waiting.activity.fingerprint });
    const both = await waitFor(() => (deliveriesOf(waiting.activity.id).length >= 2 ? deliveriesOf(waiting.activity.id) : undefined), 'two events of the consensus activity');
    expect(both.map((d) => d.activity.status)).toEqual(['ACTIVITY_STATUS_CONSENSUS_NEEDED', 'ACTIVITY_STATUS_COMPLETED']);
    expect(new Set(both.map((d) => d.headers['x-turnkey-event-id'])).size).toBe(2);
    expect(both[0]!.activity.votes.map((v) => [v.userId, v.selection])).toEqual([[alice.userId, 'VOTE_SELECTION_APPROVED']]);
    expect(both[1]!.activity).toEqual(await readerless(waiting.activity.id));
    expect(both[1]!.activity.votes).toHaveLength(2);
    for (const d of both) expect(d.verified.ok).toBe(true);
    await e2e.sdk(rootKey).deletePolicy({ policyId });
  });

  it('an inactive endpoint gets nothing; updateWebhookEndpoint and deleteWebhookEndpoint answer as Turnkey’s', async () => {
    const sdk = e2e.sdk(rootKey);
    const quiet = await sdk.createWebhookEndpoint({ name: 'quiet', url: `${receiverUrl}/quiet`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }] });
    const updated = await sdk.updateWebhookEndpoint({ endpointId: quiet.endpointId, isActive: false, name: 'quiet (off)' });
    expect(updated).toMatchObject({ endpointId: quiet.endpointId, webhookEndpoint: { endpointId: quiet.endpointId, isActive: false, name: 'quiet (off)', url: `${receiverUrl}/quiet` } });
    const { activity } = (await sdk.createWallet({ walletName: uniqueName('w'), accounts: [] })) as unknown as { activity: TActivity };
    await waitFor(() => deliveriesOf(activity.id), 'the event at the active endpoint');
    await new Promise((r) => setTimeout(r, 500));
    expect(deliveriesOf(activity.id, '/quiet')).toEqual([]);

    expect(await sdk.deleteWebhookEndpoint({ endpointId: quiet.endpointId })).toMatchObject({ endpointId: quiet.endpointId });
    expect((await sdk.listWebhookEndpoints({})).webhookEndpoints.map((e) => e.endpointId)).toEqual([endpointId]);
    expect((await refusal(sdk.deleteWebhookEndpoint({ endpointId: quiet.endpointId }))).codes).toContain('NOT_FOUND');
  });

  it('refuses unknown event types naming the allowed ones, non-JSON filters, and metadata addresses even with the switch (400)', async () => {
    const sdk = e2e.sdk(rootKey);
    const unknown = await refusal(sdk.createWebhookEndpoint({ name: 'x', url: `${receiverUrl}/x`, subscriptions: [{ eventType: 'WALLET_UPDATES' }] }));
    expect(unknown.code).toBe(3);
    expect(unknown.message).toContain('ACTIVITY_UPDATES, BALANCE_CONFIRMED_UPDATES, BALANCE_FINALIZED_UPDATES, SEND_TRANSACTION_STATUS_UPDATES');
    expect((await refusal(sdk.createWebhookEndpoint({ name: 'x', url: `${receiverUrl}/x`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{' }] }))).message).toMatch(/valid JSON/);
    const metadata = await refusal(sdk.createWebhookEndpoint({ name: 'x', url: 'http://169.254.169.254/latest/meta-data', subscriptions: [] }));
    expect(metadata.code).toBe(3);
    expect(metadata.message).toMatch(/cloud-metadata/);
    expect((await sdk.listWebhookEndpoints({})).webhookEndpoints).toHaveLength(1);
  });
});
