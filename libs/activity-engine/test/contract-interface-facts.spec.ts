/**
 * sign_transaction's policy facts and smart contract interfaces, on a real database: the called
 * contract's interface is looked up only when a condition reads a decoded call (`needs`), and
 * then found by its address in any letter case. The log line is a measurement for the report
 * (p50 of the facts with and without the lookup), not an assertion.
 */
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { Interface, Transaction } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signTransaction } from '../src/activities/signing/sign-transaction.js';
import { createFixture, type TFixture } from '../src/testing/fixture.js';
import { completed } from './helpers.js';

let f: TFixture;
beforeAll(async () => {
  f = await createFixture();
});
afterAll(async () => {
  await f?.close();
  await stopTestPostgres();
});

const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const ABI = [{ type: 'function', name: 'transfer', inputs: [{ name: 'dst', type: 'address' }, { name: 'wad', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }], stateMutability: 'nonpayable' }];

describe('contract interface facts', () => {
  it('are looked up only when a condition needs them, by the lowercase address of the call', async () => {
    completed(
      await f.submit('create_smart_contract_interface', 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE', { smartContractAddress: TOKEN, smartContractInterface: JSON.stringify(ABI), type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM', label: 'usdc' }),
      'createSmartContractInterfaceResult',
    );
    const data = new Interface(ABI).encodeFunctionData('transfer', ['0x1111111111111111111111111111111111111111', 5n]);
    const unsignedTransaction = Transaction.from({ type: 2, chainId: 1, nonce: 0, to: TOKEN, data, gasLimit: 60_000, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }).unsignedSerialized.slice(2);
    const params = { signWith: '0x0000000000000000000000000000000000000001', type: 'TRANSACTION_TYPE_ETHEREUM' as const, unsignedTransaction };
    const facts = (contractCalls: boolean) => signTransaction.policyFacts!(f.store, f.root.organizationId, params, { contractCalls });

    expect(await facts(false)).not.toHaveProperty('contractInterfaces');
    const needed = await facts(true);
    expect([...needed.contractInterfaces!.keys()]).toEqual([TOKEN.toLowerCase()]);
    expect(needed.contractInterfaces!.get(TOKEN.toLowerCase())!.kind).toBe('ethereum-abi');
    const toPlainTransfer = Transaction.from({ type: 2, chainId: 1, nonce: 0, to: TOKEN, data: '0x', gasLimit: 21_000, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }).unsignedSerialized.slice(2);
    expect(await signTransaction.policyFacts!(f.store, f.root.organizationId, { ...params, unsignedTransaction: toPlainTransfer }, { contractCalls: true })).not.toHaveProperty('contractInterfaces');

    // Interleaved, so the machine's load weighs on both sides alike.
    const times: Record<'without' | 'with', number[]> = { without: [], with: [] };
    for (let i = 0; i < 100; i++) {
      for (const side of ['without', 'with'] as const) {
        const t = performance.now();
        await facts(side === 'with');
        times[side].push(performance.now() - t);
      }
    }
    const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[50]!.toFixed(2);
    console.log(`sign_transaction policy facts p50: ${p50(times.without)} ms without the interface lookup, ${p50(times.with)} ms with it (parsed ABI cached)`);
  });
});
