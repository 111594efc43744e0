/**
 * Sending transactions end to end (issue 15 §2): eth_send_transaction (V2 through the unmodified
 * `@turnkey/sdk-server`, V1 as a stamped raw request) on a real chain — anvil, started by the test
 * kit on a free port (Prague) — followed by get_send_transaction_status (sdk-server's
 * pollTransactionStatus) as the webhook worker's receipt watcher advances it, each change a signed
 * SEND_TRANSACTION_STATUS_UPDATES webhook. Balances, senders and gas are read from the chain.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { verifyTurnkeyWebhookSignature } from '@turnkey/crypto';
import { startAnvil, startLatchkey, type TAnvil, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, rawRequest, uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal } from './policy-e2e-helpers.js';
import { LOCAL, receiptOf, statusDeliveries } from './evm-e2e.js';

let anvil: TAnvil;
let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let receiver: Server;
let sender: string;
let reverter: string;
const deliveries: { raw: Buffer; ok: boolean; type: string; body: Record<string, unknown> }[] = [];
let verificationKeys: { keyId: string; publicKey: string; algorithm: 'ed25519' }[] = [];

const sdk = () => e2e.sdk(e2e.rootKey);

/** Contract that reverts every call with Error("nope"): init code copying an 87-byte runtime. */
const REVERTER_INIT =
  '0x605780600b6000396000f3' +
  '7f08c379a000000000000000000000000000000000000000000000000000000000' +
  '600052' +
  '6020600452' +
  '6004602452' +
  '7f6e6f706500000000000000000000000000000000000000000000000000000000' +
  '604452' +
  '60646000fd';
/** anvil's first default account (unlocked: anvil signs for it). */
const ANVIL_DEV = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

const receipt = (hash: string) => receiptOf(anvil, hash);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const verified = verifyTurnkeyWebhookSignature({ headers: req.headers as Record<string, string>, body: raw, verificationKeys, maxTimestampAgeMs: 300_000 });
      deliveries.push({ raw, ok: verified.ok, type: String(req.headers['x-turnkey-event-type']), body: JSON.parse(raw.toString('utf8')) as Record<string, unknown> });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  anvil = await startAnvil();
  latchkey = await startLatchkey({
    // A wait for readiness on a loaded machine, not a speed assertion.
    timeoutMs: 240_000,
    env: { LATCHKEY_EVM_RPC_URLS: anvil.rpcUrlsEnv, LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true', LATCHKEY_WEBHOOK_RETRY_BASE_MS: '20', LATCHKEY_WEBHOOK_POLL_MS: '200' },
  });
  e2e = policyE2e(latchkey);
  const { keys } = (await (await fetch(`${latchkey.baseUrl}/public/v1/discovery/webhooks/jwks`)).json()) as { keys: { kid: string; x: string }[] };
  verificationKeys = keys.map((k) => ({ keyId: k.kid, publicKey: Buffer.from(k.x, 'base64url').toString('hex'), algorithm: 'ed25519' }));
  await sdk().createWebhookEndpoint({
    name: 'sends',
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sends`,
    subscriptions: [{ eventType: 'SEND_TRANSACTION_STATUS_UPDATES' }],
  });
  const wallet = await sdk().createWallet({ walletName: uniqueName('sender'), accounts: [accountParams(0)] });
  sender = wallet.addresses[0]!;
  await anvil.setBalance(sender, 10n ** 18n);
  const deploy = await anvil.rpc<string>('eth_sendTransaction', [{ from: ANVIL_DEV, data: REVERTER_INIT }]);
  // anvil mines at once, but a loaded machine may answer the receipt a moment later.
  for (let r = await receipt(deploy); ; r = await receipt(deploy)) {
    if (r) {
      reverter = r.contractAddress!;
      break;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
}, 300_000);

afterAll(async () => {
  await latchkey?.stop();
  await anvil?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('eth_send_transaction, unsponsored', () => {
  let includedId: string;
  let includedHash: string;

  it('fills nonce, fees and gas, signs with the wallet account and broadcasts: mined with the right sender, value and gas paid by the sender', async () => {
    const to = '0x000000000000000000000000000000000000bEEF';
    const before = await anvil.balance(sender);
    const { sendTransactionStatusId } = await sdk().ethSendTransaction({ from: sender, caip2: LOCAL, calls: [{ to, value: '12345' }] });
    includedId = sendTransactionStatusId;
    const status = await sdk().pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 100, timeoutMs: 30_000 });
    expect(status.txStatus).toBe('INCLUDED');
    includedHash = status.eth!.txHash!;
    expect(includedHash).toMatch(/^0x[0-9a-f]{64}$/);
    const r = await receipt(includedHash);
    expect(r.status).toBe('0x1');
    expect(r.from).toBe(sender.toLowerCase());
    expect(r.to).toBe(to.toLowerCase());
    expect(await anvil.balance(to)).toBe(12345n);
    expect(before - (await anvil.balance(sender))).toBe(12345n + BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice));
    const tx = await anvil.rpc<{ type: string; nonce: string; chainId: string }>('eth_getTransactionByHash', [includedHash]);
    expect(tx).toMatchObject({ type: '0x2', nonce: '0x0', chainId: '0x7a69' });
  });

  it('two sends at once from one address get consecutive nonces and are both mined', async () => {
    const sends = await Promise.all(
      ['0x00000000000000000000000000000000000000A1', '0x00000000000000000000000000000000000000A2'].map((to) => sdk().ethSendTransaction({ from: sender, caip2: LOCAL, calls: [{ to, value: '1' }] })),
    );
    const hashes: string[] = [];
    for (const s of sends) {
      const status = await sdk().pollTransactionStatus({ sendTransactionStatusId: s.sendTransactionStatusId, pollingIntervalMs: 100, timeoutMs: 30_000 });
      hashes.push(status.eth!.txHash!);
    }
    const nonces = await Promise.all(hashes.map(async (h) => Number(BigInt((await anvil.rpc<{ nonce: string }>('eth_getTransactionByHash', [h])).nonce))));
    expect(nonces.sort()).toEqual([1, 2]);
  });

  it('a call that reverts on chain (gas given, so it is not simulated) is FAILED with its revert reason; the sender paid its gas', async () => {
    const { sendTransactionStatusId } = await sdk().ethSendTransaction({ from: sender, caip2: LOCAL, gasLimit: '100000', calls: [{ to: reverter, data: '0x12345678' }] });
    const err = (await sdk()
      .pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 100, timeoutMs: 30_000 })
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as { message: string } | undefined;
    expect(err?.message).toBe('execution reverted: nope');
    const status = await sdk().getSendTransactionStatus({ sendTransactionStatusId });
    expect(status).toMatchObject({ txStatus: 'FAILED', txError: 'execution reverted: nope', error: { message: 'execution reverted: nope', revertChain: [{ address: reverter.toLowerCase(), errorType: 'native', displayMessage: 'nope' }] } });
    const mined = await receipt(status.eth!.txHash!);
    expect(mined.status).toBe('0x0');
    expect(mined.from).toBe(sender.toLowerCase());
    expect(BigInt(mined.gasUsed)).toBeGreaterThan(21_000n);
  });

  it('a call that reverts when its gas is estimated is FAILED with the reason and never broadcast', async () => {
    const before = await anvil.rpc<string>('eth_getTransactionCount', [sender, 'latest']);
    const { sendTransactionStatusId } = await sdk().ethSendTransaction({ from: sender, caip2: LOCAL, calls: [{ to: reverter }] });
    const status = await sdk().getSendTransactionStatus({ sendTransactionStatusId });
    expect(status).toMatchObject({ txStatus: 'FAILED', txError: 'execution reverted: nope' });
    expect(status.eth).toBeUndefined();
    expect(await anvil.rpc<string>('eth_getTransactionCount', [sender, 'latest'])).toBe(before);
  });

  it('accepts the V1 form (ACTIVITY_TYPE_ETH_SEND_TRANSACTION, to/value at the top) as a stamped raw request', async () => {
    const body = JSON.stringify({
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION',
      timestampMs: String(Date.now()),
      organizationId: e2e.orgId,
      parameters: { from: sender, caip2: LOCAL, to: '0x00000000000000000000000000000000000000B1', value: '7' },
    });
    const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: e2e.rootKey.publicKey, apiPrivateKey: e2e.rootKey.privateKey }).stamp(body);
    const res = await rawRequest(`${latchkey.baseUrl}/public/v1/submit/eth_send_transaction`, { body, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
    expect(res.status).toBe(200);
    const activity = (res.json as { activity: { status: string; result: { ethSendTransactionResult: { sendTransactionStatusId: string } } } }).activity;
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const id = activity.result.ethSendTransactionResult.sendTransactionStatusId;
    await sdk().pollTransactionStatus({ sendTransactionStatusId: id, pollingIntervalMs: 100, timeoutMs: 30_000 });
    expect(await anvil.balance('0x00000000000000000000000000000000000000B1')).toBe(7n);
  });

  it('each status change is a signed SEND_TRANSACTION_STATUS_UPDATES webhook: BROADCASTING, then INCLUDED with the hash', async () => {
    const events = await statusDeliveries(deliveries, includedId);
    expect(events.map((d) => d.body['txStatus']).sort()).toEqual(['BROADCASTING', 'INCLUDED']);
    for (const d of events) {
      expect(d.ok).toBe(true);
      expect(d.type).toBe('SEND_TRANSACTION_STATUS_UPDATES');
      expect(d.body).toMatchObject({ organizationId: e2e.orgId, caip2: LOCAL, from: sender, eth: { txHash: includedHash } });
    }
  });
});

describe('refusals: 4xx naming the field, nothing written', () => {
  const activityCount = async () => (await sdk().getActivities({ filterByType: ['ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2'] })).activities.length;

  it('a chain LATCHKEY_EVM_RPC_URLS does not configure, a malformed address, sponsor without a LATCHKEY_GAS_PRICE_USD price and batches are 400s', async () => {
    const before = await activityCount();
    const chain = await refusal(sdk().ethSendTransaction({ from: sender, caip2: 'eip155:1', calls: [{ to: sender }] }));
    expect(chain.code).toBe(3);
    expect(chain.message).toContain('LATCHKEY_EVM_RPC_URLS');
    expect(chain.message).toContain('eip155:31337');
    expect((await refusal(sdk().ethSendTransaction({ from: sender, caip2: 'solana:1' as 'eip155:1', calls: [{ to: sender }] }))).message).toContain('caip2');
    expect((await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, calls: [{ to: '0x1234' }] }))).message).toContain('calls.0.to');
    expect((await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, calls: [{ to: sender, value: '-1' }] }))).message).toContain('calls.0.value');
    expect((await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, calls: [] }))).message).toContain('calls');
    expect((await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, sponsor: true, calls: [{ to: sender }] }))).message).toContain('LATCHKEY_GAS_PRICE_USD');
    expect((await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, calls: [{ to: sender }, { to: sender }] }))).message).toContain('calls');
    expect(await activityCount()).toBe(before);
  });

  it('an unknown send status id is a 404; a send the sender cannot pay for, or the node refuses (nonce used), is a 400 and records nothing', async () => {
    const res = await rawRequest(`${latchkey.baseUrl}/public/v1/query/get_send_transaction_status`, { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const missing = await refusal(sdk().getSendTransactionStatus({ sendTransactionStatusId: 'nope' }));
    expect(missing.code).toBe(5);
    const poor = await sdk().createWallet({ walletName: uniqueName('poor'), accounts: [accountParams(0)] });
    // Refusals are 4xx with nothing written (no activity, no send): nothing to follow.
    const before = await activityCount();
    const failed = await refusal(sdk().ethSendTransaction({ from: poor.addresses[0]!, caip2: LOCAL, calls: [{ to: sender, value: '1000' }] }));
    expect(failed.code).toBe(3);
    expect(failed.message).toMatch(/insufficient funds: .* holds 0 wei/);
    const reused = await refusal(sdk().ethSendTransaction({ from: sender, caip2: LOCAL, nonce: '0', calls: [{ to: sender, value: '1' }] }));
    expect(reused.code).toBe(3);
    expect(reused.message).toMatch(/nonce/i);
    expect(await activityCount()).toBe(before);
  });
});

