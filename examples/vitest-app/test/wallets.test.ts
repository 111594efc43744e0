import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { parseEther, recoverTransactionAddress, serializeTransaction, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWallet, signTransaction } from '../src/wallets.js';

let latchkey: TLatchkey;
beforeAll(async () => {
  latchkey = await startLatchkey();
});
afterAll(async () => {
  await latchkey?.stop();
});

describe('wallet service against Latchkey', () => {
  it('creates a sub-organization with a wallet and signs a transaction viem verifies', async () => {
    const user = await createUserWallet(latchkey, 'alice');
    expect(user.address).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const unsigned = serializeTransaction({ chainId: 1, type: 'eip1559', nonce: 0, to: '0x000000000000000000000000000000000000dEaD', value: parseEther('0.01'), gas: 21000n, maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n });
    const signed = await signTransaction(user, unsigned);

    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(user.address);
    expect(parseTransaction(signed)).toMatchObject({ to: '0x000000000000000000000000000000000000dead', value: parseEther('0.01'), chainId: 1 });
  });

  it('keeps users apart: one user cannot sign with another user\'s wallet', async () => {
    const [alice, bob] = [await createUserWallet(latchkey, 'alice2'), await createUserWallet(latchkey, 'bob')];
    const unsigned = serializeTransaction({ chainId: 1, type: 'eip1559', nonce: 0, to: bob.address, value: 1n, gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
    await expect(signTransaction({ ...bob, address: alice.address }, unsigned)).rejects.toThrow();
  });
});
