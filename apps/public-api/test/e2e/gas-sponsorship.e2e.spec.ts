/**
 * Gas sponsorship end to end (issue 15 §2) on a real chain (anvil, Prague, started by the test
 * kit): the relayer shown by `latchkey gas relayer`, funded by the test as an operator would;
 * upsert_gas_usage_config (no sdk-server method: a stamped raw request) and get_gas_usage through
 * the unmodified sdk-server; sponsored eth_send_transaction — the sender's account delegates to
 * the gas station by EIP-7702 in the same type-4 transaction the relayer submits and pays for —
 * with the ledger equal to the receipts × LATCHKEY_GAS_PRICE_USD, and the window refusing a send
 * with 429 RESOURCE_EXHAUSTED until it slides past the usage. Sub-organizations: each send counts
 * against the sub-organization and its parent; subOrgWindowLimitUsd bounds each, orgWindowLimitUsd
 * their sum; concurrent sends reserve their worst case, so they cannot overshoot the window.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import { Turnkey } from '@turnkey/sdk-server';
import { repoRoot, startAnvil, startLatchkey, type TAnvil, type TLatchkey } from '@latchkey/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, rawRequest, uniqueName, type TRawResponse } from './e2e-helpers.js';
import { policyE2e, refusal } from './policy-e2e-helpers.js';
import { LOCAL, receiptOf } from './evm-e2e.js';

let anvil: TAnvil;
let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let sender: string;
let relayer: string;
let gasStation: string;

const PRICE = '2000.5';
const sdk = () => e2e.sdk(e2e.rootKey);

const receipt = (hash: string) => receiptOf(anvil, hash);

/** ceil(wei × 2000.5 / 10^18) in micro-dollars: the ledger's rule, computed independently. */
const usdMicrosOf = (wei: bigint): bigint => (wei * 20005n + 10n ** 13n - 1n) / 10n ** 13n;
const micros = (usd: string) => BigInt(usd.split('.')[0]!) * 1_000_000n + BigInt((usd.split('.')[1] ?? '').padEnd(6, '0'));
const formatUsd = (m: bigint): string => {
  const frac = (m % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${m / 1_000_000n}${frac ? `.${frac}` : ''}`;
};

async function upsertGasConfig(parameters: Record<string, unknown>): Promise<TRawResponse> {
  const body = JSON.stringify({ type: 'ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters });
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: e2e.rootKey.publicKey, apiPrivateKey: e2e.rootKey.privateKey }).stamp(body);
  return rawRequest(`${latchkey.baseUrl}/public/v1/submit/upsert_gas_usage_config`, { body, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
}

async function sponsoredSend(calls: { to: string; value?: string; data?: string }[], extra: Record<string, string> = {}) {
  const { sendTransactionStatusId } = await sdk().ethSendTransaction({ from: sender, caip2: LOCAL, sponsor: true, calls, ...extra });
  return sdk().pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 100, timeoutMs: 30_000 });
}

beforeAll(async () => {
  anvil = await startAnvil();
  latchkey = await startLatchkey({
    // A wait for readiness on a loaded machine, not a speed assertion.
    timeoutMs: 240_000,
    env: { LATCHKEY_EVM_RPC_URLS: anvil.rpcUrlsEnv, LATCHKEY_GAS_PRICE_USD: `${anvil.caip2}=${PRICE}`, LATCHKEY_WEBHOOK_POLL_MS: '200' },
  });
  e2e = policyE2e(latchkey);
  const wallet = await sdk().createWallet({ walletName: uniqueName('sponsored'), accounts: [accountParams(0)] });
  sender = wallet.addresses[0]!;
  await anvil.setBalance(sender, 10n ** 17n);
  // The operator's step: `npm run latchkey -- gas relayer --chain eip155:31337`, then fund it.
  const cli = spawnSync(process.execPath, [join(repoRoot(), 'tools', 'cli', 'dist', 'main.mjs'), 'gas', 'relayer', '--chain', anvil.caip2], {
    env: { ...process.env, DATABASE_URL: await latchkey.databaseUrl(), LATCHKEY_DATA_DIR: latchkey.dataDir, LATCHKEY_EVM_RPC_URLS: anvil.rpcUrlsEnv, LATCHKEY_LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  expect(cli.status, cli.stderr).toBe(0);
  const shown = JSON.parse(cli.stdout) as { chain: string; relayer: string; gasStation: string; balanceWei: string };
  expect(shown).toMatchObject({ chain: anvil.caip2, relayer: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), balanceWei: '0' });
  ({ relayer, gasStation } = shown);
  await anvil.setBalance(relayer, 10n ** 19n);
}, 300_000);

afterAll(async () => {
  await latchkey?.stop();
  await anvil?.stop();
});

/** Makes an organization's recorded gas usage `seconds` older, as if that much time had passed for it. */
async function ageGasLedger(organizationId: string, seconds: number): Promise<void> {
  const db = new pg.Client({ connectionString: await latchkey.databaseUrl() });
  await db.connect();
  try {
    const aged = await db.query(`UPDATE gas_ledger_entries SET created_at = created_at - make_interval(secs => $2) WHERE organization_id = $1`, [organizationId, seconds]);
    expect(aged.rowCount).toBeGreaterThan(0);
  } finally {
    await db.end();
  }
}

describe('gas window configuration', () => {
  it('a sponsored send before any configuration is refused (400), nothing sent', async () => {
    const r = await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, sponsor: true, calls: [{ to: sender }] }));
    expect(r.code).toBe(3);
    expect(r.message).toContain('upsert_gas_usage_config');
    expect(await sdk().getGasUsage({})).toEqual({ windowDurationMinutes: 0, windowLimitUsd: '0', usageUsd: '0' });
  });

  it('upsert_gas_usage_config (raw request: no sdk-server method) sets the window; bad amounts are 400s naming the field', async () => {
    const bad = await upsertGasConfig({ orgWindowLimitUsd: '1.1234567', subOrgWindowLimitUsd: '1', windowDurationMinutes: '60' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('orgWindowLimitUsd');
    expect((await upsertGasConfig({ orgWindowLimitUsd: '1', subOrgWindowLimitUsd: '1', windowDurationMinutes: '43201' })).text).toContain('windowDurationMinutes');
    expect((await upsertGasConfig({ orgWindowLimitUsd: '1', subOrgWindowLimitUsd: '-1', windowDurationMinutes: '5' })).status).toBe(400);
    const ok = await upsertGasConfig({ orgWindowLimitUsd: '100', subOrgWindowLimitUsd: '5', windowDurationMinutes: '1', enabled: true });
    expect(ok.status).toBe(200);
    const activity = (ok.json as { activity: { status: string; result: { upsertGasUsageConfigResult: { gasUsageConfigId: string } } } }).activity;
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.result.upsertGasUsageConfigResult.gasUsageConfigId).toMatch(/.+/);
    expect(await sdk().getGasUsage({})).toEqual({ windowDurationMinutes: 1, windowLimitUsd: '100', usageUsd: '0' });
  });
});

describe('sponsored sends', () => {
  const spent: bigint[] = [];

  it('the relayer pays: the sender’s balance is unchanged, the account is delegated to the gas station (deployed by the relayer on first use)', async () => {
    const [senderBefore, relayerBefore] = [await anvil.balance(sender), await anvil.balance(relayer)];
    const status = await sponsoredSend([{ to: '0x000000000000000000000000000000000000cafe', data: '0x1234' }]);
    expect(status.txStatus).toBe('INCLUDED');
    const r = await receipt(status.eth!.txHash!);
    expect(r).toMatchObject({ status: '0x1', type: '0x4', from: relayer.toLowerCase(), to: sender.toLowerCase() });
    const paid = BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
    spent.push(paid);
    expect(await anvil.balance(sender)).toBe(senderBefore);
    // The first sponsored send on a chain also deploys the station: the relayer paid both.
    expect(await anvil.rpc<string>('eth_getCode', [gasStation, 'latest'])).not.toBe('0x');
    expect(relayerBefore - (await anvil.balance(relayer))).toBeGreaterThan(paid);
    expect(await anvil.rpc<string>('eth_getCode', [sender, 'latest'])).toBe(`0xef0100${gasStation.slice(2).toLowerCase()}`);
  });

  it('a value transfer moves the sender’s ETH; the relayer pays exactly the receipt’s gas; get_gas_usage is the sum of the receipts × the price', async () => {
    const to = '0x00000000000000000000000000000000000000d1';
    const [senderBefore, relayerBefore] = [await anvil.balance(sender), await anvil.balance(relayer)];
    const status = await sponsoredSend([{ to, value: '4242' }]);
    const r = await receipt(status.eth!.txHash!);
    const paid = BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
    spent.push(paid);
    expect(await anvil.balance(to)).toBe(4242n);
    expect(senderBefore - (await anvil.balance(sender))).toBe(4242n);
    expect(relayerBefore - (await anvil.balance(relayer))).toBe(paid);
    const usage = spent.map(usdMicrosOf).reduce((a, b) => a + b, 0n);
    expect(await sdk().getGasUsage({})).toEqual({ windowDurationMinutes: 1, windowLimitUsd: '100', usageUsd: formatUsd(usage) });
  });

  it('a send that would exceed the window is refused with 429 RESOURCE_EXHAUSTED naming the limit and the usage, nothing broadcast; it goes through once the window has slid past', async () => {
    const { usageUsd } = await sdk().getGasUsage({});
    const target = [{ to: '0x00000000000000000000000000000000000000d2' }];
    // A limit equal to the usage: any send's worst case is too much. The refusal says what it may cost.
    expect((await upsertGasConfig({ orgWindowLimitUsd: usageUsd, subOrgWindowLimitUsd: '5', windowDurationMinutes: '1' })).status).toBe(200);
    const probe = await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, sponsor: true, calls: target }));
    expect(probe.code).toBe(8);
    expect(probe.message).toContain(`gas window exhausted: organization ${e2e.orgId} has used ${usageUsd} USD of its ${usageUsd} USD limit over the last 1 minutes`);
    const maxCost = micros(/may cost up to ([0-9.]+) USD/.exec(probe.message)![1]!);
    expect(maxCost).toBeGreaterThan(0n);
    // A limit the send fits alone but not on top of the usage (the usage is two sends, each more than
    // half a worst case): refused now, allowed once the usage has slid out. Half a worst case of
    // margin both ways, so a fee estimate that moves a little between requests changes neither.
    expect(micros(usageUsd)).toBeGreaterThan(maxCost / 2n);
    const limit = formatUsd(micros(usageUsd) + maxCost / 2n);
    expect((await upsertGasConfig({ orgWindowLimitUsd: limit, subOrgWindowLimitUsd: '5', windowDurationMinutes: '1' })).status).toBe(200);
    const relayerNonce = await anvil.rpc<string>('eth_getTransactionCount', [relayer, 'latest']);
    const refused = await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, sponsor: true, calls: target }));
    expect(refused.code).toBe(8);
    expect(refused.message).toContain(`has used ${usageUsd} USD of its ${limit} USD limit`);
    expect(await anvil.rpc<string>('eth_getTransactionCount', [relayer, 'latest'])).toBe(relayerNonce);
    // The window slides with the database's clock over the ledger's `created_at`: a minute passes
    // for this organization's usage when its entries are a minute and a second older (a wait of 61 s
    // did the same before, on the critical path of every CI pass).
    await ageGasLedger(e2e.orgId, 61);
    expect((await sdk().getGasUsage({})).usageUsd).toBe('0');
    await expect(sponsoredSend(target)).resolves.toMatchObject({ txStatus: 'INCLUDED' });
  });
});


describe('sub-organizations', () => {
  type TSub = { id: string; sender: string; sdk: ReturnType<Turnkey['apiClient']> };
  let a: TSub;
  let b: TSub;
  const paid = new Map<string, bigint>();
  const relayerNonce = () => anvil.rpc<string>('eth_getTransactionCount', [relayer, 'pending']);

  /** A sub-organization created with the sdk-server, its root user's API key and an Ethereum wallet. */
  async function subOrganization(name: string): Promise<TSub> {
    const key = generateP256KeyPair();
    const created = await sdk().createSubOrganization({
      subOrganizationName: uniqueName(name),
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: 'Owner', apiKeys: [{ apiKeyName: 'k', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] }],
      wallet: { walletName: uniqueName('w'), accounts: [accountParams(0)] },
    });
    const client = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: created.subOrganizationId, activityPoller: { intervalMs: 20, numRetries: 0 } }).apiClient();
    return { id: created.subOrganizationId, sender: created.wallet!.addresses[0]!, sdk: client };
  }

  async function subSend(sub: TSub, to: string) {
    const { sendTransactionStatusId } = await sub.sdk.ethSendTransaction({ from: sub.sender, caip2: LOCAL, sponsor: true, calls: [{ to }] });
    return sub.sdk.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 100, timeoutMs: 30_000 });
  }

  beforeAll(async () => {
    [a, b] = [await subOrganization('gas-sub-a'), await subOrganization('gas-sub-b')];
  }, 60_000);

  it('a sub-organization’s sponsored send counts against it and its parent: each get_gas_usage equals its receipts × the price', async () => {
    // A long window, so nothing slides out during the test; the parent's earlier usage comes back into it.
    expect((await upsertGasConfig({ orgWindowLimitUsd: '100', subOrgWindowLimitUsd: '50', windowDurationMinutes: '60' })).status).toBe(200);
    const parentBefore = micros((await sdk().getGasUsage({})).usageUsd);
    for (const sub of [a, b]) {
      const balance = await anvil.balance(sub.sender);
      const status = await subSend(sub, '0x00000000000000000000000000000000000000d3');
      expect(status.txStatus).toBe('INCLUDED');
      const r = await receipt(status.eth!.txHash!);
      expect(r).toMatchObject({ status: '0x1', type: '0x4', from: relayer.toLowerCase(), to: sub.sender.toLowerCase() });
      expect(await anvil.balance(sub.sender)).toBe(balance);
      paid.set(sub.id, BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice));
    }
    const [usageA, usageB] = [usdMicrosOf(paid.get(a.id)!), usdMicrosOf(paid.get(b.id)!)];
    expect(usageA).toBeGreaterThan(0n);
    expect(await a.sdk.getGasUsage({})).toEqual({ windowDurationMinutes: 60, windowLimitUsd: '50', usageUsd: formatUsd(usageA) });
    expect(await b.sdk.getGasUsage({})).toEqual({ windowDurationMinutes: 60, windowLimitUsd: '50', usageUsd: formatUsd(usageB) });
    expect(await sdk().getGasUsage({})).toEqual({ windowDurationMinutes: 60, windowLimitUsd: '100', usageUsd: formatUsd(parentBefore + usageA + usageB) });
  }, 90_000);

  it('the parent’s orgWindowLimitUsd bounds the sum of its sub-organizations’ usage: a send well within the sub-organization’s limit is refused (429) naming the parent’s, nothing broadcast', async () => {
    const { usageUsd: parentUsage } = await sdk().getGasUsage({});
    const { usageUsd: subUsage } = await a.sdk.getGasUsage({});
    // The parent's usage is A's, B's and its own: A alone is far below both limits set here.
    expect(micros(parentUsage)).toBeGreaterThan(micros(subUsage));
    expect((await upsertGasConfig({ orgWindowLimitUsd: parentUsage, subOrgWindowLimitUsd: '50', windowDurationMinutes: '60' })).status).toBe(200);
    const nonce = await relayerNonce();
    const refused = await refusal(a.sdk.ethSendTransaction({ from: a.sender, caip2: LOCAL, sponsor: true, calls: [{ to: '0x00000000000000000000000000000000000000d4' }] }));
    expect(refused.code).toBe(8);
    expect(refused.message).toContain(`gas window exhausted: organization ${e2e.orgId} has used ${parentUsage} USD of its ${parentUsage} USD limit over the last 60 minutes`);
    expect(await relayerNonce()).toBe(nonce);
    expect((await a.sdk.getGasUsage({})).usageUsd).toBe(subUsage);
  });

  it('subOrgWindowLimitUsd bounds each sub-organization: A at its limit is refused (429) naming A, B still sends', async () => {
    const { usageUsd: subUsage } = await a.sdk.getGasUsage({});
    expect((await upsertGasConfig({ orgWindowLimitUsd: '100', subOrgWindowLimitUsd: subUsage, windowDurationMinutes: '60' })).status).toBe(200);
    const nonce = await relayerNonce();
    const refused = await refusal(a.sdk.ethSendTransaction({ from: a.sender, caip2: LOCAL, sponsor: true, calls: [{ to: '0x00000000000000000000000000000000000000d5' }] }));
    expect(refused.code).toBe(8);
    expect(refused.message).toContain(`gas window exhausted: organization ${a.id} has used ${subUsage} USD of its ${subUsage} USD limit over the last 60 minutes`);
    expect(await relayerNonce()).toBe(nonce);
    // B's own usage is its one send: with the limit raised above it by a worst case, B sends.
    const maxCost = micros(/may cost up to ([0-9.]+) USD/.exec(refused.message)![1]!);
    const limitB = formatUsd(micros((await b.sdk.getGasUsage({})).usageUsd) + maxCost * 2n);
    expect((await upsertGasConfig({ orgWindowLimitUsd: '100', subOrgWindowLimitUsd: limitB, windowDurationMinutes: '60' })).status).toBe(200);
    await expect(subSend(b, '0x00000000000000000000000000000000000000d5')).resolves.toMatchObject({ txStatus: 'INCLUDED' });
  }, 60_000);

  it('concurrent sends cannot overshoot the window: each reserves its worst case under the lock, those that do not fit get 429, nothing of theirs broadcast, and the usage stays within the limit', async () => {
    expect((await upsertGasConfig({ orgWindowLimitUsd: '100', subOrgWindowLimitUsd: (await a.sdk.getGasUsage({})).usageUsd, windowDurationMinutes: '60' })).status).toBe(200);
    const probe = await refusal(a.sdk.ethSendTransaction({ from: a.sender, caip2: LOCAL, sponsor: true, calls: [{ to: '0x00000000000000000000000000000000000000d6' }] }));
    const maxCost = micros(/may cost up to ([0-9.]+) USD/.exec(probe.message)![1]!);
    const before = micros((await a.sdk.getGasUsage({})).usageUsd);
    const parentBefore = micros((await sdk().getGasUsage({})).usageUsd);
    // Room for one and a half worst cases; eight sends would use several times that if all went.
    const limit = formatUsd(before + (maxCost * 3n) / 2n);
    expect((await upsertGasConfig({ orgWindowLimitUsd: '100', subOrgWindowLimitUsd: limit, windowDurationMinutes: '60' })).status).toBe(200);
    const nonce = BigInt(await relayerNonce());
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => subSend(a, '0x00000000000000000000000000000000000000d6')));
    const sent = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = await Promise.all(outcomes.filter((o) => o.status === 'rejected').map((o) => refusal(Promise.reject(o.reason))));
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(sent.length + refused.length).toBe(8);
    for (const r of refused) {
      expect(r.code).toBe(8);
      expect(r.message).toContain(`gas window exhausted: organization ${a.id}`);
    }
    let spent = 0n;
    for (const o of sent) {
      expect(o.value.txStatus).toBe('INCLUDED');
      const r = await receipt(o.value.eth!.txHash!);
      spent += usdMicrosOf(BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice));
    }
    // Only the sends that fit were broadcast; the ledger is their receipts, within the limit, for A and its parent.
    expect(BigInt(await relayerNonce()) - nonce).toBe(BigInt(sent.length));
    const after = micros((await a.sdk.getGasUsage({})).usageUsd);
    expect(after).toBe(before + spent);
    expect(after).toBeLessThanOrEqual(micros(limit));
    expect(micros((await sdk().getGasUsage({})).usageUsd)).toBe(parentBefore + spent);
  }, 120_000);
});
