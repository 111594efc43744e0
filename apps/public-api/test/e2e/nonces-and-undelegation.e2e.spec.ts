/**
 * get_nonces and eth_undelegate_7702 end to end (issue 15 §2), through the unmodified
 * `@turnkey/sdk-server` (`getNonces`, `ethUndelegate7702`, `pollTransactionStatus`) on a real chain
 * (anvil, Prague, started by the test kit): the standard nonce equals anvil's pending count before
 * and after sends; a sponsored send moves the gas-station nonce by one, as the station's own
 * `gasStationNonce()` answers; an undelegation — a type-4 transaction the account sends itself,
 * its authorization delegating to the zero address — clears the account's code, is followed by
 * the receipt watcher to INCLUDED and announced by signed SEND_TRANSACTION_STATUS_UPDATES
 * webhooks; the swagger's type name is the same activity; malformed input is a 400 naming the field.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { verifyTurnkeyWebhookSignature } from '@turnkey/crypto';
import { repoRoot, startAnvil, startLatchkey, type TAnvil, type TLatchkey } from '@latchkey/testkit';
import { id as keccakId } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, rawRequest, uniqueName, type TRawResponse } from './e2e-helpers.js';
import { policyE2e, refusal } from './policy-e2e-helpers.js';
import { LOCAL, receiptOf, statusDeliveries } from './evm-e2e.js';

let anvil: TAnvil;
let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let receiver: Server;
/** Sponsored, then undelegated. */
let sender: string;
/** Never delegated: sends its own transactions. */
let plain: string;
let gasStation: string;
const deliveries: { ok: boolean; type: string; body: Record<string, unknown> }[] = [];
let verificationKeys: { keyId: string; publicKey: string; algorithm: 'ed25519' }[] = [];

const sdk = () => e2e.sdk(e2e.rootKey);

const receipt = (hash: string) => receiptOf(anvil, hash);
const code = (address: string) => anvil.rpc<string>('eth_getCode', [address, 'latest']);
/** anvil's own view of the next nonce. */
const anvilNonce = async (address: string) => BigInt(await anvil.rpc<string>('eth_getTransactionCount', [address, 'pending'])).toString();
/** The station's `gasStationNonce()`, called on the delegated account: the contract's answer, not a storage read. */
const stationNonce = async (address: string) => BigInt(await anvil.rpc<string>('eth_call', [{ to: address, data: keccakId('gasStationNonce()').slice(0, 10) }, 'latest'])).toString();

async function stamped(path: string, payload: Record<string, unknown>): Promise<TRawResponse> {
  const body = JSON.stringify(payload);
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: e2e.rootKey.publicKey, apiPrivateKey: e2e.rootKey.privateKey }).stamp(body);
  return rawRequest(`${latchkey.baseUrl}${path}`, { body, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
}

async function sponsoredSend(to: string, from = sender) {
  const { sendTransactionStatusId } = await sdk().ethSendTransaction({ from, caip2: LOCAL, sponsor: true, calls: [{ to, data: '0x01' }] });
  return sdk().pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 100, timeoutMs: 30_000 });
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const verified = verifyTurnkeyWebhookSignature({ headers: req.headers as Record<string, string>, body: raw, verificationKeys, maxTimestampAgeMs: 300_000 });
      deliveries.push({ ok: verified.ok, type: String(req.headers['x-turnkey-event-type']), body: JSON.parse(raw.toString('utf8')) as Record<string, unknown> });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  anvil = await startAnvil();
  latchkey = await startLatchkey({
    // A wait for readiness on a loaded machine, not a speed assertion.
    timeoutMs: 240_000,
    env: {
      LATCHKEY_EVM_RPC_URLS: anvil.rpcUrlsEnv,
      LATCHKEY_GAS_PRICE_USD: `${anvil.caip2}=2000`,
      LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      LATCHKEY_WEBHOOK_RETRY_BASE_MS: '20',
      LATCHKEY_WEBHOOK_POLL_MS: '200',
    },
  });
  e2e = policyE2e(latchkey);
  const { keys } = (await (await fetch(`${latchkey.baseUrl}/public/v1/discovery/webhooks/jwks`)).json()) as { keys: { kid: string; x: string }[] };
  verificationKeys = keys.map((k) => ({ keyId: k.kid, publicKey: Buffer.from(k.x, 'base64url').toString('hex'), algorithm: 'ed25519' }));
  await sdk().createWebhookEndpoint({
    name: 'undelegations',
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sends`,
    subscriptions: [{ eventType: 'SEND_TRANSACTION_STATUS_UPDATES' }],
  });
  const wallet = await sdk().createWallet({ walletName: uniqueName('nonces'), accounts: [accountParams(0), accountParams(1)] });
  [sender, plain] = [wallet.addresses[0]!, wallet.addresses[1]!];
  await anvil.setBalance(sender, 10n ** 17n);
  await anvil.setBalance(plain, 10n ** 17n);
  // The operator's step (README): show the relayer, fund it, enable the organization's window.
  const cli = spawnSync(process.execPath, [join(repoRoot(), 'tools', 'cli', 'dist', 'main.mjs'), 'gas', 'relayer', '--chain', anvil.caip2], {
    env: { ...process.env, DATABASE_URL: await latchkey.databaseUrl(), LATCHKEY_DATA_DIR: latchkey.dataDir, LATCHKEY_EVM_RPC_URLS: anvil.rpcUrlsEnv, LATCHKEY_LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  expect(cli.status, cli.stderr).toBe(0);
  const shown = JSON.parse(cli.stdout) as { relayer: string; gasStation: string };
  gasStation = shown.gasStation;
  await anvil.setBalance(shown.relayer, 10n ** 19n);
  const config = await stamped('/public/v1/submit/upsert_gas_usage_config', {
    type: 'ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG',
    timestampMs: String(Date.now()),
    organizationId: e2e.orgId,
    parameters: { orgWindowLimitUsd: '1000', subOrgWindowLimitUsd: '10', windowDurationMinutes: '60', enabled: true },
  });
  expect(config.status, config.text).toBe(200);
}, 300_000);

afterAll(async () => {
  await latchkey?.stop();
  await anvil?.stop();
  if (receiver) {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  }
});

describe('get_nonces', () => {
  it("answers anvil's pending count as nonce, before and after a send, and 0 as the gas-station nonce of a never-delegated account", async () => {
    const before = await sdk().getNonces({ address: plain, caip2: LOCAL, nonce: true, gasStationNonce: true });
    expect(before).toEqual({ nonce: await anvilNonce(plain), gasStationNonce: '0' });
    const { sendTransactionStatusId } = await sdk().ethSendTransaction({ from: plain, caip2: LOCAL, calls: [{ to: '0x00000000000000000000000000000000000000c1', value: '5' }] });
    await sdk().pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 100, timeoutMs: 30_000 });
    const after = await sdk().getNonces({ address: plain, caip2: LOCAL, nonce: true, gasStationNonce: true });
    expect(after).toEqual({ nonce: await anvilNonce(plain), gasStationNonce: '0' });
    expect(BigInt(after.nonce!)).toBe(BigInt(before.nonce!) + 1n);
  });

  it('answers only the nonces asked for', async () => {
    expect(await sdk().getNonces({ address: plain, caip2: LOCAL, nonce: true })).toEqual({ nonce: await anvilNonce(plain) });
    expect(await sdk().getNonces({ address: plain, caip2: LOCAL, gasStationNonce: true })).toEqual({ gasStationNonce: '0' });
  });

  it("a sponsored send moves the gas-station nonce by one (the station's gasStationNonce() agrees); the standard nonce stays anvil's", async () => {
    expect(await sdk().getNonces({ address: sender, caip2: LOCAL, gasStationNonce: true })).toEqual({ gasStationNonce: '0' });
    expect((await sponsoredSend('0x00000000000000000000000000000000000000c2')).txStatus).toBe('INCLUDED');
    expect(await code(sender)).toBe(`0xef0100${gasStation.slice(2).toLowerCase()}`);
    expect(await sdk().getNonces({ address: sender, caip2: LOCAL, nonce: true, gasStationNonce: true })).toEqual({ nonce: await anvilNonce(sender), gasStationNonce: '1' });
    expect(await stationNonce(sender)).toBe('1');
    await sponsoredSend('0x00000000000000000000000000000000000000c3');
    expect(await sdk().getNonces({ address: sender, caip2: LOCAL, nonce: true, gasStationNonce: true })).toEqual({ nonce: await anvilNonce(sender), gasStationNonce: '2' });
    expect(await stationNonce(sender)).toBe('2');
  });

  it('refuses malformed input with a 400 naming the field', async () => {
    const unconfigured = await refusal(sdk().getNonces({ address: plain, caip2: 'eip155:1', nonce: true }));
    expect(unconfigured.code).toBe(3);
    expect(unconfigured.message).toContain('caip2');
    expect(unconfigured.message).toContain('LATCHKEY_EVM_RPC_URLS');
    const notEip155 = await refusal(sdk().getNonces({ address: plain, caip2: 'solana:1' as 'eip155:1', nonce: true }));
    expect([notEip155.code, notEip155.message.includes('caip2')]).toEqual([3, true]);
    const badAddress = await refusal(sdk().getNonces({ address: '0x1234', caip2: LOCAL, nonce: true }));
    expect([badAddress.code, badAddress.message.includes('address')]).toEqual([3, true]);
    const nothingAsked = await refusal(sdk().getNonces({ address: plain, caip2: LOCAL }));
    expect([nothingAsked.code, nothingAsked.message.includes('nonce')]).toEqual([3, true]);
    const raw = await stamped('/public/v1/query/get_nonces', { organizationId: e2e.orgId, address: plain, caip2: LOCAL, nonce: 'yes' });
    expect(raw.status).toBe(400);
    expect(raw.text).toContain('nonce');
  });
});

describe('eth_undelegate_7702', () => {
  let undelegationId: string;
  let undelegationHash: string;

  it("clears the account's delegation: a type-4 transaction the account sends and pays for itself, INCLUDED, the code 0x, the gas-station nonce kept", async () => {
    const gsBefore = (await sdk().getNonces({ address: sender, caip2: LOCAL, gasStationNonce: true })).gasStationNonce;
    expect(await code(sender)).not.toBe('0x');
    const balanceBefore = await anvil.balance(sender);
    const out = await sdk().ethUndelegate7702({ from: sender, caip2: LOCAL });
    expect(out.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    // sdk-server 8.2 sends the type without the second underscore; the activity keeps what was sent.
    expect(out.activity.type).toBe('ACTIVITY_TYPE_ETH_UNDELEGATE7702');
    undelegationId = out.sendTransactionStatusId;
    const status = await sdk().pollTransactionStatus({ sendTransactionStatusId: undelegationId, pollingIntervalMs: 100, timeoutMs: 30_000 });
    expect(status.txStatus).toBe('INCLUDED');
    undelegationHash = status.eth!.txHash!;
    const r = await receipt(undelegationHash);
    expect(r).toMatchObject({ status: '0x1', type: '0x4', from: sender.toLowerCase(), to: sender.toLowerCase() });
    expect(await code(sender)).toBe('0x');
    expect(balanceBefore - (await anvil.balance(sender))).toBe(BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice));
    // The account's storage outlives its delegation: a later delegation resumes the same nonce.
    expect(await sdk().getNonces({ address: sender, caip2: LOCAL, nonce: true, gasStationNonce: true })).toEqual({ nonce: await anvilNonce(sender), gasStationNonce: gsBefore });
  });

  it('each status change is a signed SEND_TRANSACTION_STATUS_UPDATES webhook: BROADCASTING, then INCLUDED with the hash', async () => {
    const events = await statusDeliveries(deliveries, undelegationId);
    expect(events.map((d) => d.body['txStatus']).sort()).toEqual(['BROADCASTING', 'INCLUDED']);
    for (const d of events) {
      expect(d.ok).toBe(true);
      expect(d.type).toBe('SEND_TRANSACTION_STATUS_UPDATES');
      expect(d.body).toMatchObject({ organizationId: e2e.orgId, caip2: LOCAL, from: sender, eth: { txHash: undelegationHash } });
    }
  });

  it("accepts the swagger's type name (ACTIVITY_TYPE_ETH_UNDELEGATE_7702) as a stamped raw request, after a new sponsored send delegated the account again", async () => {
    await sponsoredSend('0x00000000000000000000000000000000000000c4');
    expect(await code(sender)).not.toBe('0x');
    const res = await stamped('/public/v1/submit/eth_undelegate_7702', { type: 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters: { from: sender, caip2: LOCAL } });
    expect(res.status, res.text).toBe(200);
    const activity = (res.json as { activity: { status: string; type: string; result: { ethUndelegate7702Result: { sendTransactionStatusId: string } } } }).activity;
    expect([activity.status, activity.type]).toEqual(['ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702']);
    await sdk().pollTransactionStatus({ sendTransactionStatusId: activity.result.ethUndelegate7702Result.sendTransactionStatusId, pollingIntervalMs: 100, timeoutMs: 30_000 });
    expect(await code(sender)).toBe('0x');
  });

  it('is policy-checked: a member without an allowing policy is refused, nothing sent', async () => {
    await sponsoredSend('0x00000000000000000000000000000000000000c5');
    const before = await anvilNonce(sender);
    const member = await e2e.member('no-undelegation');
    const denied = await refusal(e2e.sdk(member.key).ethUndelegate7702({ from: sender, caip2: LOCAL }));
    expect(denied.code).toBe(7);
    expect(denied.codes).toEqual(['REQUEST_NOT_AUTHORIZED']);
    expect(await anvilNonce(sender)).toBe(before);
    expect(await code(sender)).not.toBe('0x');
  });

  it('refuses bad input and an account with no delegation with a 400 naming the field, nothing recorded or sent', async () => {
    // sdk-types' enum knows only the swagger's name; sdk-server sends the other.
    const count = async () => (await sdk().getActivities({ filterByType: ['ACTIVITY_TYPE_ETH_UNDELEGATE_7702', 'ACTIVITY_TYPE_ETH_UNDELEGATE7702' as 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702'] })).activities.length;
    const before = [await count(), await anvilNonce(plain)];
    const notDelegated = await refusal(sdk().ethUndelegate7702({ from: plain, caip2: LOCAL }));
    expect(notDelegated.code).toBe(3);
    expect(notDelegated.message).toContain(`from: ${plain} has no EIP-7702 delegation on ${LOCAL}`);
    const unconfigured = await refusal(sdk().ethUndelegate7702({ from: sender, caip2: 'eip155:1' }));
    expect([unconfigured.code, unconfigured.message.includes('caip2'), unconfigured.message.includes('LATCHKEY_EVM_RPC_URLS')]).toEqual([3, true, true]);
    const badFrom = await refusal(sdk().ethUndelegate7702({ from: 'not-an-address', caip2: LOCAL }));
    expect([badFrom.code, badFrom.message.includes('from')]).toEqual([3, true]);
    const badGas = await refusal(sdk().ethUndelegate7702({ from: sender, caip2: LOCAL, gasLimit: '1.5' }));
    expect([badGas.code, badGas.message.includes('gasLimit')]).toEqual([3, true]);
    const tipAboveCap = await refusal(sdk().ethUndelegate7702({ from: sender, caip2: LOCAL, maxFeePerGas: '1000', maxPriorityFeePerGas: '2000' }));
    expect([tipAboveCap.code, tipAboveCap.message.includes('maxPriorityFeePerGas')]).toEqual([3, true]);
    expect([await count(), await anvilNonce(plain)]).toEqual(before);
    expect(await code(sender)).not.toBe('0x');
  });

  it('an account delegated by a sponsored send but holding no ETH cannot pay for its undelegation: 400 naming from, nothing sent', async () => {
    const poor = (await sdk().createWallet({ walletName: uniqueName('poor'), accounts: [accountParams(0)] })).addresses[0]!;
    expect((await sponsoredSend('0x00000000000000000000000000000000000000c6', poor)).txStatus).toBe('INCLUDED');
    expect(await code(poor)).not.toBe('0x');
    const nonce = await anvilNonce(poor);
    const broke = await refusal(sdk().ethUndelegate7702({ from: poor, caip2: LOCAL }));
    expect(broke.code).toBe(3);
    expect(broke.message).toMatch(/insufficient funds: .* holds 0 wei/);
    expect(broke.fields['field']).toBe('from');
    expect(await anvilNonce(poor)).toBe(nonce);
    expect(await code(poor)).not.toBe('0x');
  });
});
