/**
 * eth_send_transaction's intent schema refuses malformed numbers with an issue naming the field —
 * never by throwing (the chaos fuzz found `"value": "x"` and `"nonce": "aaa…"` answering 500).
 */
import { describe, expect, it } from 'vitest';
import { ZEthSendTransactionIntentSchema } from './transactions.js';

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
