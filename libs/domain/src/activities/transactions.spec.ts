/**
 * eth_send_transaction's intent schema refuses malformed numbers with an issue naming the field —
 * never by throwing (the chaos fuzz found `"value": "x"` and `"nonce": "aaa…"` answering 500).
 */
import { describe, expect, it } from 'vitest';
import { ZEthSendTransactionIntentSchema, ZEthUndelegate7702IntentSchema, ZGetNoncesRequestSchema } from './transactions.js';

const base = { from: '0x6A7fb50Ccc6BDceCa7AFCADDfA1c6DE5BB35Bd6B', caip2: 'eip155:1', calls: [{ to: '0x6A7fb50Ccc6BDceCa7AFCADDfA1c6DE5BB35Bd6B' }] };

describe('eth_send_transaction numbers', () => {
  it.each([
    ['nonce', { nonce: 'a'.repeat(5000) }],
    ['gasLimit', { gasLimit: 'x' }],
    ['maxFeePerGas', { maxFeePerGas: '-1' }],
    ['calls.0.value', { calls: [{ to: base.calls[0]!.to, value: 'x' }] }],
    ['deadline', { deadline: '1e9' }],
  ])('refuses a non-decimal %s as an issue naming it', (field, change) => {
    const r = ZEthSendTransactionIntentSchema.safeParse({ ...base, ...change });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.'))).toContain(field);
  });

  it('refuses 2^256 and accepts 2^256 - 1', () => {
    expect(ZEthSendTransactionIntentSchema.safeParse({ ...base, gasLimit: String(2n ** 256n) }).success).toBe(false);
    expect(ZEthSendTransactionIntentSchema.safeParse({ ...base, gasLimit: String(2n ** 256n - 1n) }).success).toBe(true);
  });
});

describe('eth_undelegate_7702 and get_nonces requests', () => {
  const from = base.from;
  it.each([
    ['from', { from: 'pk-id-not-an-address' }],
    ['caip2', { caip2: 'solana:mainnet' }],
    ['gasLimit', { gasLimit: '1.5' }],
    ['nonce', { nonce: 'x' }],
    ['maxPriorityFeePerGas', { maxPriorityFeePerGas: '-2' }],
  ])('eth_undelegate_7702 refuses a malformed %s as an issue naming it', (field, change) => {
    const r = ZEthUndelegate7702IntentSchema.safeParse({ from, caip2: 'eip155:1', ...change });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.'))).toContain(field);
  });

  it('eth_undelegate_7702 accepts the bare intent, numbers kept as decimal strings', () => {
    expect(ZEthUndelegate7702IntentSchema.parse({ from, caip2: 'eip155:31337', gasLimit: '60000' })).toEqual({ from, caip2: 'eip155:31337', gasLimit: '60000' });
  });

  it.each([
    ['address', { address: '0x12' }],
    ['caip2', { caip2: 'eip155:0' }],
    ['nonce', { nonce: 'true' }],
    ['gasStationNonce', { gasStationNonce: 1 }],
  ])('get_nonces refuses a malformed %s as an issue naming it', (field, change) => {
    const r = ZGetNoncesRequestSchema.safeParse({ organizationId: 'o', address: from, caip2: 'eip155:1', ...change });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.'))).toContain(field);
  });
});
