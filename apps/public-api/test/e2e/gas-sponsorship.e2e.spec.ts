/**
 * Gas sponsorship end to end (issue 15 §2) on a real chain (anvil, Prague, started by the test
 * kit): the relayer shown by `latchkey gas relayer`, funded by the test as an operator would;
 * upsert_gas_usage_config (no sdk-server method: a stamped raw request) and get_gas_usage through
 * the unmodified sdk-server; sponsored eth_send_transaction — the sender's account delegates to
 * the gas station by EIP-7702 in the same type-4 transaction the relayer submits and pays for —
 * with the ledger equal to the receipts × LATCHKEY_GAS_PRICE_USD, and the window refusing a send
 * with 429 RESOURCE_EXHAUSTED until it slides past the usage.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { repoRoot, startAnvil, startLatchkey, type TAnvil, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, rawRequest, uniqueName, type TRawResponse } from './e2e-helpers.js';
import { policyE2e, refusal } from './policy-e2e-helpers.js';

let anvil: TAnvil;
let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let sender: string;
let relayer: string;
let gasStation: string;

const LOCAL = 'eip155:31337' as 'eip155:1';
const PRICE = '2000.5';
const sdk = () => e2e.sdk(e2e.rootKey);

interface TReceipt {
  status: string;
  from: string;
  to: string | null;
  type: string;
  gasUsed: string;
  effectiveGasPrice: string;
}
const receipt = (hash: string) => anvil.rpc<TReceipt>('eth_getTransactionReceipt', [hash]);

/** ceil(wei × 2000.5 / 10^18) in micro-dollars: the ledger's rule, computed independently. */
const usdMicrosOf = (wei: bigint): bigint => (wei * 20005n + 10n ** 13n - 1n) / 10n ** 13n;
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
    const micros = (usd: string) => BigInt(usd.split('.')[0]!) * 1_000_000n + BigInt((usd.split('.')[1] ?? '').padEnd(6, '0'));
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
    await new Promise((r) => setTimeout(r, 61_000));
    expect((await sdk().getGasUsage({})).usageUsd).toBe('0');
    await expect(sponsoredSend(target)).resolves.toMatchObject({ txStatus: 'INCLUDED' });
  }, 120_000);
});
