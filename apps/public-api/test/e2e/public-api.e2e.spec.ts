/**
 * The public API end to end: one real Latchkey (the built launcher, its database and apps) driven
 * by the unmodified published Turnkey clients — `@turnkey/http` `TurnkeyClient` with
 * `@turnkey/api-key-stamper`, and `@turnkey/sdk-server`. Where the clients cannot say something
 * (a tampered body, no stamp, a bad path) a raw `fetch` does, still stamped by the real stamper.
 * Every wallet name is unique, so the tests do not depend on each other's order.
 */
import { p256 } from '@noble/curves/nist.js';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import { TurnkeyActivityError, TurnkeyClient, TurnkeyRequestError, createActivityPoller, type TurnkeyApiTypes } from '@turnkey/http';
import { Turnkey } from '@turnkey/sdk-server';
import type { TLatchkey } from '@latchkey/testkit';
import { latchkeyForThisFile } from './shared-platform.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountParams,
  createWalletRequest,
  ethereumAddressOf,
  ethereumPath,
  expectErrorResponse,
  expectRecentTimestamp,
  rawRequest,
  rejectionOf,
  sha256Hex,
  toChecksumAddress,
  turnkeyErrorCodes,
  uncompressedSecp256k1,
  uniqueName,
  type TWalletAccountParams,
} from './e2e-helpers.js';

type TWalletAccount = TurnkeyApiTypes['v1WalletAccount'];
type TActivity = TurnkeyApiTypes['v1Activity'];

let lk: TLatchkey;
let orgId: string;
let client: TurnkeyClient;
let stamper: ApiKeyStamper;

beforeAll(async () => {
  lk = await latchkeyForThisFile({ apps: ['public-api'] });
  const { apiPublicKey, apiPrivateKey, organizationId } = lk.bootstrap;
  if (!apiPrivateKey) throw new Error('bootstrap.json has no apiPrivateKey: Latchkey should generate one when LATCHKEY_ROOT_API_PUBLIC_KEY is unset');
  orgId = organizationId;
  stamper = new ApiKeyStamper({ apiPublicKey, apiPrivateKey });
  client = new TurnkeyClient({ baseUrl: lk.baseUrl }, stamper);
});

afterAll(async () => {
  await lk?.stop();
});

/** `@turnkey/sdk-server`'s API client, as an integrator configures it. */
function sdkServerClient() {
  const { apiPublicKey, apiPrivateKey, organizationId } = lk.bootstrap;
  return new Turnkey({ apiBaseUrl: lk.baseUrl, apiPublicKey, apiPrivateKey: apiPrivateKey!, defaultOrganizationId: organizationId }).apiClient();
}

const createWalletPoller = () => createActivityPoller({ client, requestFn: client.createWallet });

/** Creates a wallet through the http client's poller; the activity must complete. */
async function createWallet(name: string, accounts: TWalletAccountParams[] = [accountParams(0)]): Promise<{ activity: TActivity; walletId: string }> {
  const activity = await createWalletPoller()(createWalletRequest(orgId, name, accounts));
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  const walletId = activity.result.createWalletResult?.walletId;
  if (!walletId) throw new Error(`no createWalletResult in ${JSON.stringify(activity)}`);
  return { activity, walletId };
}

/** Every account (of a wallet, or of the organization), fetched in pages of 100. */
async function allAccounts(walletId?: string): Promise<TWalletAccount[]> {
  const out: TWalletAccount[] = [];
  for (;;) {
    const after = out.at(-1)?.walletAccountId;
    const { accounts } = await client.getWalletAccounts({
      organizationId: orgId,
      ...(walletId ? { walletId } : {}),
      paginationOptions: { limit: '100', ...(after ? { after } : {}) },
    });
    out.push(...accounts);
    if (accounts.length < 100) return out;
  }
}

async function walletsNamed(name: string) {
  const { wallets } = await client.getWallets({ organizationId: orgId });
  return wallets.filter((w) => w.walletName === name);
}

describe('whoami', () => {
  it('answers the @turnkey/http client with the bootstrap organization and root user', async () => {
    const me = await client.getWhoami({ organizationId: orgId });
    expect(me).toEqual({ organizationId: orgId, organizationName: expect.any(String), userId: lk.bootstrap.userId, username: 'root' });
    expect(me.organizationName.length).toBeGreaterThan(0);
  });

  it('answers @turnkey/sdk-server getWhoami (organizationId filled in from defaultOrganizationId)', async () => {
    const [viaHttp, viaSdk] = await Promise.all([client.getWhoami({ organizationId: orgId }), sdkServerClient().getWhoami()]);
    expect(viaSdk).toEqual({ organizationId: orgId, organizationName: viaHttp.organizationName, userId: lk.bootstrap.userId, username: 'root' });
  });
});

describe('create_wallet', () => {
  it('completes through createActivityPoller with EIP-55 addresses that match the account public keys', async () => {
    const name = uniqueName('poller');
    const accounts = [0, 1, 2].map((i) => accountParams(i));
    const { activity, walletId } = await createWallet(name, accounts);

    expect(activity.type).toBe('ACTIVITY_TYPE_CREATE_WALLET');
    expect(activity.organizationId).toBe(orgId);
    const addresses = activity.result.createWalletResult?.addresses ?? [];
    expect(addresses).toHaveLength(3);
    expect(new Set(addresses).size).toBe(3);
    for (const a of addresses) {
      expect(a).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(a).toBe(toChecksumAddress(a));
    }

    const listed = await allAccounts(walletId);
    expect(listed.map((a) => a.address)).toEqual(addresses);
    expect(listed.map((a) => a.path)).toEqual([0, 1, 2].map(ethereumPath));
    const first = listed[0]!;
    expect(first).toEqual({
      walletAccountId: expect.any(String),
      organizationId: orgId,
      walletId,
      curve: 'CURVE_SECP256K1',
      pathFormat: 'PATH_FORMAT_BIP32',
      path: ethereumPath(0),
      addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
      address: addresses[0],
      createdAt: expect.anything(),
      updatedAt: expect.anything(),
      publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
    });
    expectRecentTimestamp(first.createdAt);
    // The independent check: keccak256 of the decompressed key, not the server's encoder.
    for (const account of listed) expect(ethereumAddressOf(account.publicKey!)).toBe(account.address);
  });

  it('encodes ADDRESS_FORMAT_COMPRESSED and _UNCOMPRESSED as the SEC1 forms of the same key', async () => {
    const formats = ['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_COMPRESSED', 'ADDRESS_FORMAT_UNCOMPRESSED'] as const;
    const { walletId } = await createWallet(
      uniqueName('formats'),
      formats.map((f) => accountParams(7, f)),
    );
    const listed = await allAccounts(walletId);
    expect(listed.map((a) => a.addressFormat)).toEqual([...formats]);
    const publicKeys = new Set(listed.map((a) => a.publicKey));
    expect(publicKeys.size).toBe(1);
    const publicKey = listed[0]!.publicKey!;
    const [eth, compressed, uncompressed] = listed.map((a) => a.address);
    expect(eth).toBe(ethereumAddressOf(publicKey));
    expect(compressed).toBe(publicKey);
    expect(uncompressed).toBe(Buffer.from(uncompressedSecp256k1(publicKey)).toString('hex'));
  });

  it('returns the flattened {walletId, addresses, activity} to @turnkey/sdk-server createWallet', async () => {
    const name = uniqueName('sdk-server');
    const res = await sdkServerClient().createWallet({ walletName: name, accounts: [accountParams(0), accountParams(1)] });
    expect(res.walletId).toEqual(expect.any(String));
    expect(res.addresses).toHaveLength(2);
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(res.activity.type).toBe('ACTIVITY_TYPE_CREATE_WALLET');
    expect(res.activity.result.createWalletResult).toEqual({ walletId: res.walletId, addresses: res.addresses });
    const { wallet } = await client.getWallet({ organizationId: orgId, walletId: res.walletId });
    expect(wallet.walletName).toBe(name);
    const listed = await allAccounts(res.walletId);
    expect(listed.map((a) => a.address)).toEqual(res.addresses);
    for (const a of listed) expect(ethereumAddressOf(a.publicKey!)).toBe(a.address);
  });

  it('dedupes an identical resubmission: same activity, one wallet', async () => {
    const name = uniqueName('dedupe');
    const request = createWalletRequest(orgId, name, [accountParams(0)], String(Date.now()));
    const first = await client.createWallet(request);
    const second = await client.createWallet(request);
    const third = await createWalletPoller()(request);
    expect(second.activity.id).toBe(first.activity.id);
    expect(third.id).toBe(first.activity.id);
    expect(second.activity.fingerprint).toBe(first.activity.fingerprint);
    expect(second.activity.result).toEqual(first.activity.result);
    expect(first.activity.fingerprint).toBe(`sha256:${sha256Hex(JSON.stringify(request))}`);
    expect(await walletsNamed(name)).toHaveLength(1);
  });

  it('records a duplicate wallet name as a FAILED activity (HTTP 200) and creates no second wallet', async () => {
    const name = uniqueName('duplicate');
    const { walletId } = await createWallet(name);

    // A different body (another timestamp) with the same name: not a dedupe, a real second attempt.
    const again = createWalletRequest(orgId, name, [accountParams(1)], String(Date.now() + 1));
    const err = await rejectionOf(createWalletPoller()(again), TurnkeyActivityError);
    expect(err.activityStatus).toBe('ACTIVITY_STATUS_FAILED');
    expect(err.activityType).toBe('ACTIVITY_TYPE_CREATE_WALLET');
    expect(err.activityId).toEqual(expect.any(String));

    const { activity } = await client.getActivity({ organizationId: orgId, activityId: err.activityId! });
    expect(activity.status).toBe('ACTIVITY_STATUS_FAILED');
    expect(activity.fingerprint).toBe(`sha256:${sha256Hex(JSON.stringify(again))}`);
    expect(activity.failure).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(activity.result.createWalletResult).toBeUndefined();

    const failed = await client.getActivities({ organizationId: orgId, filterByStatus: ['ACTIVITY_STATUS_FAILED'], paginationOptions: { limit: '100' } });
    expect(failed.activities.map((a) => a.id)).toContain(err.activityId);

    const named = await walletsNamed(name);
    expect(named.map((w) => w.walletId)).toEqual([walletId]);
  });

  it('gives concurrent identical submissions (a retry racing its original) one activity and one wallet', async () => {
    const name = uniqueName('retry-race');
    const request = createWalletRequest(orgId, name);
    const responses = await Promise.all(Array.from({ length: 6 }, () => client.createWallet(request)));
    expect(new Set(responses.map((r) => r.activity.id)).size).toBe(1);
    expect(responses.map((r) => r.activity.status)).toEqual(Array(6).fill('ACTIVITY_STATUS_COMPLETED'));
    expect(await walletsNamed(name)).toHaveLength(1);
  });

  it('keeps wallet names unique under concurrent submissions: one COMPLETED, the rest FAILED, one wallet', async () => {
    // Several rounds: a check-then-insert race does not lose every time.
    for (let round = 0; round < 3; round++) {
      const name = uniqueName(`name-race-${round}`);
      const t = Date.now();
      // Distinct bodies (timestamps differ), so fingerprint dedupe does not apply.
      const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => client.createWallet(createWalletRequest(orgId, name, [accountParams(0)], String(t + i)))));
      const statuses = responses.map((r) => r.activity.status).sort();
      const named = await walletsNamed(name);
      expect({ round, wallets: named.length, statuses }).toEqual({
        round,
        wallets: 1,
        statuses: ['ACTIVITY_STATUS_COMPLETED', ...Array<string>(7).fill('ACTIVITY_STATUS_FAILED')],
      });
    }
  });

  it('refuses invalid parameters with HTTP 400 (code 3), not a FAILED activity, and creates nothing', async () => {
    const name = uniqueName('bad-path');
    const bad = { ...accountParams(0), path: 'not/a/derivation/path' };
    const err = await rejectionOf(client.createWallet(createWalletRequest(orgId, name, [bad])), TurnkeyRequestError);
    expect(err.code).toBe(3);
    expect(turnkeyErrorCodes(err.details)).toContain('REQUEST_INVALID');
    expect(await walletsNamed(name)).toEqual([]);
  });

  it.each([
    ['four minutes ago', -240_000],
    ['four minutes ahead', 240_000],
  ])('accepts a timestampMs %s (inside the 300 s window)', async (_label, offset) => {
    const name = uniqueName('skew');
    const activity = await createWalletPoller()(createWalletRequest(orgId, name, [accountParams(0)], String(Date.now() + offset)));
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(await walletsNamed(name)).toHaveLength(1);
  });
});

describe('list_wallet_accounts', () => {
  let walletId: string;
  let walletName: string;
  let all: TWalletAccount[];

  beforeAll(async () => {
    walletName = uniqueName('paged');
    ({ walletId } = await createWallet(
      walletName,
      Array.from({ length: 25 }, (_, i) => accountParams(i)),
    ));
    all = await allAccounts(walletId);
  });

  const page = (paginationOptions: TurnkeyApiTypes['v1Pagination']) =>
    client.getWalletAccounts({ organizationId: orgId, walletId, paginationOptions }).then((r) => r.accounts);

  it('pages forward with limit 10 and after = last walletAccountId: 10, 10, 5, then nothing', async () => {
    const p1 = await page({ limit: '10' });
    const p2 = await page({ limit: '10', after: p1.at(-1)!.walletAccountId });
    const p3 = await page({ limit: '10', after: p2.at(-1)!.walletAccountId });
    const p4 = await page({ limit: '10', after: p3.at(-1)!.walletAccountId });
    expect([p1.length, p2.length, p3.length, p4.length]).toEqual([10, 10, 5, 0]);

    const joined = [...p1, ...p2, ...p3];
    expect(new Set(joined.map((a) => a.walletAccountId)).size).toBe(25);
    expect(joined.map((a) => a.path)).toEqual(Array.from({ length: 25 }, (_, i) => ethereumPath(i)));
    expect(joined).toEqual(all);
    for (const a of joined) expect(a.walletId).toBe(walletId);
  });

  it('defaults to 10 accounts when no paginationOptions are given', async () => {
    const { accounts } = await client.getWalletAccounts({ organizationId: orgId, walletId });
    expect(accounts.map((a) => a.path)).toEqual(Array.from({ length: 10 }, (_, i) => ethereumPath(i)));
  });

  it('pages backwards with before: the accounts just before the cursor, in listing order', async () => {
    const before20 = await page({ limit: '10', before: all[20]!.walletAccountId });
    expect(before20.map((a) => a.path)).toEqual(Array.from({ length: 10 }, (_, i) => ethereumPath(10 + i)));
    const before5 = await page({ limit: '10', before: all[5]!.walletAccountId });
    expect(before5.map((a) => a.path)).toEqual(Array.from({ length: 5 }, (_, i) => ethereumPath(i)));
    const beforeFirst = await page({ limit: '10', before: all[0]!.walletAccountId });
    expect(beforeFirst).toEqual([]);
  });

  it('adds walletDetails with includeWalletDetails', async () => {
    const { wallet } = await client.getWallet({ organizationId: orgId, walletId });
    const { accounts } = await client.getWalletAccounts({ organizationId: orgId, walletId, includeWalletDetails: true, paginationOptions: { limit: '3' } });
    expect(accounts).toHaveLength(3);
    for (const a of accounts) {
      expect(a.walletDetails).toEqual({ walletId, walletName, createdAt: wallet.createdAt, updatedAt: wallet.updatedAt, exported: false, imported: false });
    }
    const plain = await page({ limit: '3' });
    for (const a of plain) expect(a).not.toHaveProperty('walletDetails');
  });

  it('lists the accounts of every wallet of the organization when walletId is omitted', async () => {
    const other = await createWallet(uniqueName('other'), [accountParams(0), accountParams(1)]);
    const orgWide = await allAccounts();
    const { wallets } = await client.getWallets({ organizationId: orgId });
    const perWallet = (await Promise.all(wallets.map((w) => allAccounts(w.walletId)))).flat();

    expect(orgWide.length).toBe(perWallet.length);
    expect(new Set(orgWide.map((a) => a.walletAccountId))).toEqual(new Set(perWallet.map((a) => a.walletAccountId)));
    const walletIds = new Set(orgWide.map((a) => a.walletId));
    expect(walletIds.has(walletId)).toBe(true);
    expect(walletIds.has(other.walletId)).toBe(true);
    // A stable order across pages: org-wide paging with `after` also yields distinct accounts.
    const firstPage = await client.getWalletAccounts({ organizationId: orgId, paginationOptions: { limit: '10' } });
    const secondPage = await client.getWalletAccounts({ organizationId: orgId, paginationOptions: { limit: '10', after: firstPage.accounts.at(-1)!.walletAccountId } });
    const ids = [...firstPage.accounts, ...secondPage.accounts].map((a) => a.walletAccountId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(orgWide.slice(0, ids.length).map((a) => a.walletAccountId));
  });

  it.each(['0', '101'])('refuses limit %s with TurnkeyRequestError code 3 (HTTP 400)', async (limit) => {
    const err = await rejectionOf(page({ limit }), TurnkeyRequestError);
    expect(err.code).toBe(3);
    expect(turnkeyErrorCodes(err.details)).toContain('REQUEST_INVALID');

    const signed = await client.stampGetWalletAccounts({ organizationId: orgId, walletId, paginationOptions: { limit } });
    const res = await rawRequest(signed.url, { body: signed.body, headers: { 'content-type': 'application/json', [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue } });
    expectErrorResponse(res, 400, 3, 'REQUEST_INVALID');
  });

  it('accepts the bounds 1 and 100', async () => {
    expect(await page({ limit: '1' })).toHaveLength(1);
    expect(await page({ limit: '100' })).toHaveLength(25);
  });
});

describe('activities', () => {
  let first: { activity: TActivity; body: string; name: string };
  let second: { activity: TActivity; body: string; name: string };

  /** Submits through `client.createWallet`, keeping the exact body the client signed and sent. */
  async function submit(name: string) {
    const request = createWalletRequest(orgId, name, [accountParams(0), accountParams(1)]);
    const { body } = await client.stampCreateWallet(request);
    const { activity } = await client.createWallet(request);
    return { activity, body, name };
  }

  beforeAll(async () => {
    first = await submit(uniqueName('activity-a'));
    second = await submit(uniqueName('activity-b'));
  });

  it('get_activity returns the exact activity shape', async () => {
    const { activity } = await client.getActivity({ organizationId: orgId, activityId: first.activity.id });
    const sent = JSON.parse(first.body) as ReturnType<typeof createWalletRequest>;
    const walletId = first.activity.result.createWalletResult?.walletId;
    expect(activity).toEqual({
      id: first.activity.id,
      organizationId: orgId,
      status: 'ACTIVITY_STATUS_COMPLETED',
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      intent: { createWalletIntent: expect.objectContaining({ walletName: first.name, accounts: sent.parameters.accounts }) },
      result: { createWalletResult: { walletId: expect.any(String), addresses: expect.any(Array) } },
      votes: [],
      fingerprint: `sha256:${sha256Hex(first.body)}`,
      canApprove: false,
      canReject: false,
      createdAt: expect.anything(),
      updatedAt: expect.anything(),
    });
    expect(activity).toEqual(first.activity);
    expectRecentTimestamp(activity.createdAt);
    expectRecentTimestamp(activity.updatedAt);
    const listed = await allAccounts(walletId);
    expect(activity.result.createWalletResult?.addresses).toEqual(listed.map((a) => a.address));
  });

  it('get_activity of an unknown id is a 404 TurnkeyRequestError', async () => {
    const err = await rejectionOf(client.getActivity({ organizationId: orgId, activityId: '01a00000-0000-7000-8000-000000000000' }), TurnkeyRequestError);
    expect(err.code).toBe(5);
  });

  it('list_activities filters by type, newest first', async () => {
    const { activities } = await client.getActivities({ organizationId: orgId, filterByType: ['ACTIVITY_TYPE_CREATE_WALLET'], paginationOptions: { limit: '100' } });
    for (const a of activities) expect(a.type).toBe('ACTIVITY_TYPE_CREATE_WALLET');
    const ids = activities.map((a) => a.id);
    const iFirst = ids.indexOf(first.activity.id);
    const iSecond = ids.indexOf(second.activity.id);
    expect(iFirst).toBeGreaterThanOrEqual(0);
    expect(iSecond).toBeGreaterThanOrEqual(0);
    expect(iSecond).toBeLessThan(iFirst);
    const listedFirst = activities[iFirst]!;
    expect(listedFirst).toEqual(first.activity);
    expect(listedFirst.fingerprint).toBe(`sha256:${sha256Hex(first.body)}`);

    const none = await client.getActivities({ organizationId: orgId, filterByType: ['ACTIVITY_TYPE_SIGN_TRANSACTION_V2'] });
    expect(none.activities).toEqual([]);
  });

  it('list_activities is newest first by createdAt, also after concurrent submissions', async () => {
    // Concurrent submissions wait on each other in the database, so an activity's arrival and its
    // recorded creation can be some way apart; the listing must still agree with createdAt.
    for (let round = 0; round < 3; round++) {
      await Promise.all(Array.from({ length: 10 }, () => client.createWallet(createWalletRequest(orgId, uniqueName(`concurrent-${round}`)))));
    }
    const { activities } = await client.getActivities({ organizationId: orgId, paginationOptions: { limit: '100' } });
    expect(activities.length).toBeGreaterThanOrEqual(30);
    const created = activities.map((a) => BigInt(a.createdAt.seconds) * 1_000_000_000n + BigInt(a.createdAt.nanos));
    const outOfOrder = activities
      .map((a, i) => ({ newer: activities[i - 1], older: a, i }))
      .filter(({ i }) => i > 0 && created[i]! > created[i - 1]!)
      .map(({ newer, older }) => ({ listedFirst: { id: newer!.id, createdAt: newer!.createdAt }, listedAfter: { id: older.id, createdAt: older.createdAt } }));
    expect(outOfOrder).toEqual([]);
  });

  it('list_activities filters by status', async () => {
    const completed = await client.getActivities({ organizationId: orgId, filterByStatus: ['ACTIVITY_STATUS_COMPLETED'], paginationOptions: { limit: '100' } });
    for (const a of completed.activities) expect(a.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(completed.activities.map((a) => a.id)).toEqual(expect.arrayContaining([first.activity.id, second.activity.id]));

    const rejected = await client.getActivities({ organizationId: orgId, filterByStatus: ['ACTIVITY_STATUS_REJECTED', 'ACTIVITY_STATUS_FAILED'], paginationOptions: { limit: '100' } });
    for (const a of rejected.activities) expect(['ACTIVITY_STATUS_REJECTED', 'ACTIVITY_STATUS_FAILED']).toContain(a.status);
    expect(rejected.activities.map((a) => a.id)).not.toContain(first.activity.id);
  });

  it('list_activities pages newest first with limit and after', async () => {
    const filter = { organizationId: orgId, filterByType: ['ACTIVITY_TYPE_CREATE_WALLET' as const] };
    const [newest, full] = await Promise.all([
      client.getActivities({ ...filter, paginationOptions: { limit: '1' } }),
      client.getActivities({ ...filter, paginationOptions: { limit: '100' } }),
    ]);
    expect(newest.activities.map((a) => a.id)).toEqual([full.activities[0]!.id]);
    // `second` was submitted right after `first`: each is the other's neighbour in the listing.
    const next = await client.getActivities({ ...filter, paginationOptions: { limit: '1', after: second.activity.id } });
    expect(next.activities.map((a) => a.id)).toEqual([first.activity.id]);
    const prev = await client.getActivities({ ...filter, paginationOptions: { limit: '1', before: first.activity.id } });
    expect(prev.activities.map((a) => a.id)).toEqual([second.activity.id]);
  });
});

describe('get_organization', () => {
  it('returns the root user with its API key, the root quorum and the wallets', async () => {
    const { walletId } = await createWallet(uniqueName('org'));
    const [{ organizationData: org }, { wallets }, me] = await Promise.all([
      client.getOrganization({ organizationId: orgId }),
      client.getWallets({ organizationId: orgId }),
      client.getWhoami({ organizationId: orgId }),
    ]);
    expect(org.organizationId).toBe(orgId);
    expect(org.name).toBe(me.organizationName);
    expect(org.rootQuorum).toEqual({ threshold: 1, userIds: [lk.bootstrap.userId] });

    const users = org.users ?? [];
    expect(users).toHaveLength(1);
    const root = users[0]!;
    expect(root.userId).toBe(lk.bootstrap.userId);
    expect(root.userName).toBe('root');
    expect(root.apiKeys).toEqual([
      expect.objectContaining({
        apiKeyId: lk.bootstrap.apiKeyId,
        apiKeyName: expect.any(String),
        credential: expect.objectContaining({ publicKey: lk.bootstrap.apiPublicKey, type: 'CREDENTIAL_TYPE_API_KEY_P256' }),
      }),
    ]);
    expect(root.authenticators).toEqual([]);
    expectRecentTimestamp(root.createdAt);

    expect(org.wallets).toEqual(wallets);
    expect((org.wallets ?? []).map((w) => w.walletId)).toContain(walletId);
  });
});

describe('authentication and transport errors', () => {
  const stampHeaders = async (body: string, s: ApiKeyStamper = stamper) => {
    const { stampHeaderName, stampHeaderValue } = await s.stamp(body);
    return { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue };
  };

  it('refuses a tampered body with 401 SIGNATURE_INVALID and creates nothing', async () => {
    const name = uniqueName('tamper');
    const body = JSON.stringify(createWalletRequest(orgId, name));
    const headers = await stampHeaders(body);
    const tampered = body.replace(name, `${name}-evil`);
    expect(tampered).not.toBe(body);

    const res = await rawRequest(`${lk.baseUrl}/public/v1/submit/create_wallet`, { body: tampered, headers });
    expectErrorResponse(res, 401, 16, 'SIGNATURE_INVALID');
    expect(await walletsNamed(`${name}-evil`)).toEqual([]);

    // The stamp itself was good: the untampered body goes through with it.
    const ok = await rawRequest(`${lk.baseUrl}/public/v1/submit/create_wallet`, { body, headers });
    expect(ok.status, ok.text).toBe(200);
    expect((ok.json as { activity: TActivity }).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(await walletsNamed(name)).toHaveLength(1);
  });

  it.each([true, false])('accepts a valid P-256 stamp whatever half S is in (high S: %s); the clients never normalise it', async (highS) => {
    const body = JSON.stringify({ organizationId: orgId });
    const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
    const stamp = JSON.parse(Buffer.from(stampHeaderValue, 'base64url').toString('utf8')) as { publicKey: string; scheme: string; signature: string };
    let sig = p256.Signature.fromHex(stamp.signature, 'der');
    // (r, n − s) verifies exactly when (r, s) does: the same signature in the other half.
    if (sig.hasHighS() !== highS) sig = new p256.Signature(sig.r, p256.Point.Fn.ORDER - sig.s);
    expect(sig.hasHighS()).toBe(highS);
    const restamped = Buffer.from(JSON.stringify({ ...stamp, signature: sig.toHex('der') }), 'utf8').toString('base64url');
    const res = await rawRequest(`${lk.baseUrl}/public/v1/query/whoami`, { body, headers: { 'content-type': 'application/json', [stampHeaderName]: restamped } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual(expect.objectContaining({ organizationId: orgId, userId: lk.bootstrap.userId }));
  });

  it('refuses an unknown API key with TurnkeyRequestError code 16 PUBLIC_KEY_NOT_FOUND (HTTP 401)', async () => {
    const kp = generateP256KeyPair();
    expect(kp.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    const stranger = new TurnkeyClient({ baseUrl: lk.baseUrl }, new ApiKeyStamper({ apiPublicKey: kp.publicKey, apiPrivateKey: kp.privateKey }));
    const err = await rejectionOf(stranger.getWhoami({ organizationId: orgId }), TurnkeyRequestError);
    expect(err.code).toBe(16);
    expect(turnkeyErrorCodes(err.details)).toContain('PUBLIC_KEY_NOT_FOUND');

    const signed = await stranger.stampCreateWallet(createWalletRequest(orgId, uniqueName('stranger')));
    const res = await rawRequest(signed.url, { body: signed.body, headers: { 'content-type': 'application/json', [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue } });
    expectErrorResponse(res, 401, 16, 'PUBLIC_KEY_NOT_FOUND');
  });

  it.each([
    ['an hour ago', -3_600_000],
    ['an hour ahead', 3_600_000],
  ])('refuses a timestampMs %s with TurnkeyRequestError code 3 (HTTP 400) and creates nothing', async (_label, offset) => {
    const name = uniqueName('stale');
    const request = createWalletRequest(orgId, name, [accountParams(0)], String(Date.now() + offset));
    const err = await rejectionOf(client.createWallet(request), TurnkeyRequestError);
    expect(err.code).toBe(3);
    expect(turnkeyErrorCodes(err.details)).toContain('REQUEST_INVALID');

    const signed = await client.stampCreateWallet(request);
    const res = await rawRequest(signed.url, { body: signed.body, headers: { 'content-type': 'application/json', [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue } });
    expectErrorResponse(res, 400, 3, 'REQUEST_INVALID');
    expect(await walletsNamed(name)).toEqual([]);
  });

  it.each(['query/whoami', 'submit/create_wallet'])('answers a correctly stamped malformed JSON body on %s with a JSON 400', async (path) => {
    const body = `{"organizationId":"${orgId}",`;
    const res = await rawRequest(`${lk.baseUrl}/public/v1/${path}`, { body, headers: await stampHeaders(body) });
    expectErrorResponse(res, 400, 3, 'REQUEST_INVALID');
  });

  it('answers a request without a stamp with 401 SIGNATURE_MISSING', async () => {
    const res = await rawRequest(`${lk.baseUrl}/public/v1/query/whoami`, { body: JSON.stringify({ organizationId: orgId }), headers: { 'content-type': 'application/json' } });
    expectErrorResponse(res, 401, 16, 'SIGNATURE_MISSING');
    const submit = await rawRequest(`${lk.baseUrl}/public/v1/submit/create_wallet`, { body: JSON.stringify(createWalletRequest(orgId, uniqueName('nostamp'))), headers: { 'content-type': 'application/json' } });
    expectErrorResponse(submit, 401, 16, 'SIGNATURE_MISSING');
  });

  it.each([
    ['POST', '/public/v1/query/whoami/'],
    ['POST', '/public/v1/nope'],
    ['POST', '/public/v2/query/whoami'],
    ['GET', '/nope'],
  ] as const)('answers %s %s with a JSON 404, never a redirect', async (method, path) => {
    const body = method === 'POST' ? JSON.stringify({ organizationId: orgId }) : undefined;
    const headers = body ? await stampHeaders(body) : {};
    const res = await rawRequest(`${lk.baseUrl}${path}`, { method, headers, ...(body ? { body } : {}) });
    expectErrorResponse(res, 404, 5, 'NOT_FOUND');
  });

  it.each(['query/no_such_query', 'submit/no_such_activity'])('answers a stamped request to the unknown endpoint %s with a JSON 404', async (path) => {
    const body = JSON.stringify({ organizationId: orgId, type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs: String(Date.now()), parameters: {} });
    const res = await rawRequest(`${lk.baseUrl}/public/v1/${path}`, { body, headers: await stampHeaders(body) });
    expectErrorResponse(res, 404, 5, 'NOT_FOUND');
  });
});

describe('unauthenticated endpoints', () => {
  it('/.well-known/latchkey.json publishes the five server keys of bootstrap.json, uncompressed', async () => {
    const res = await rawRequest(`${lk.baseUrl}/.well-known/latchkey.json`, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
    const { signerPublicKey, notarizerPublicKey, otpVerifierPublicKey, tlsFetcherPublicKey, oidcIssuerPublicKey } = lk.bootstrap;
    expect(res.json).toEqual({ signerPublicKey, notarizerPublicKey, otpVerifierPublicKey, tlsFetcherPublicKey, oidcIssuerPublicKey });
    const keys = [signerPublicKey, notarizerPublicKey, otpVerifierPublicKey, tlsFetcherPublicKey, oidcIssuerPublicKey];
    expect(new Set(keys).size).toBe(5);
    for (const k of keys) {
      expect(k).toMatch(/^04[0-9a-f]{128}$/);
      expect(() => p256.Point.fromHex(k)).not.toThrow();
    }
  });

  it('/healthz answers 200', async () => {
    const res = await rawRequest(`${lk.baseUrl}/healthz`, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
  });
});
