/**
 * The context builders: `eth.tx` / `solana.tx` from unsigned transactions, `activity` from the
 * docs' table, `activity.params` per type, and absence of everything a request does not have.
 */
import { Keypair, SystemProgram, Transaction as SolanaTransaction } from '@solana/web3.js';
import { Transaction } from 'ethers';
import { describe, expect, it } from 'vitest';
import { activityContext, createConditionContext, exposeParams, ethTxContext, solanaTxContext } from './context.js';

const TO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const NOW = new Date('2024-01-01T00:00:00Z');

describe('ethTxContext', () => {
  it('maps the transaction to eth.tx: lowercase to, bigint amounts, gas_price mirroring max_fee_per_gas, no from', () => {
    const unsigned = Transaction.from({ type: 2, chainId: 1n, nonce: 4, maxPriorityFeePerGas: 2n, maxFeePerGas: 100n, gasLimit: 21_000n, to: TO, value: 123n, data: '0xABCD', accessList: [] }).unsignedSerialized;
    expect(ethTxContext(unsigned)).toEqual({
      to: TO.toLowerCase(),
      data: '0xabcd',
      value: 123n,
      gas: 21_000n,
      gas_price: 100n,
      chain_id: 1n,
      nonce: 4n,
      max_fee_per_gas: 100n,
      max_priority_fee_per_gas: 2n,
      type: 'TYPE_2',
    });
    expect(ethTxContext(unsigned, { from: TO }).from).toBe(TO.toLowerCase());
  });

  it('leaves fields a legacy transaction does not have absent', () => {
    const unsigned = Transaction.from({ type: 0, nonce: 0, gasPrice: 5n, gasLimit: 21_000n, to: TO, value: 0n, data: '0x', chainId: 0n }).unsignedSerialized;
    const tx = ethTxContext(unsigned);
    expect(tx.type).toBe('LEGACY');
    expect(tx.gas_price).toBe(5n);
    expect('chain_id' in tx || 'max_fee_per_gas' in tx || 'from' in tx).toBe(false);
  });
});

describe('solanaTxContext', () => {
  it('maps the transaction to solana.tx with snake_case fields and aliases', () => {
    const payer = Keypair.fromSeed(new Uint8Array(32).fill(5)).publicKey;
    const to = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey;
    const tx = new SolanaTransaction({ feePayer: payer, recentBlockhash: Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey.toBase58() });
    tx.add(SystemProgram.transfer({ fromPubkey: payer, toPubkey: to, lamports: 7 }));
    const ctx = solanaTxContext(Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false })).toString('hex'));
    expect(ctx.transfers).toEqual([{ from: payer.toBase58(), to: to.toBase58(), amount: 7n }]);
    expect(ctx.account_keys).toEqual(ctx.static_account_keys);
    expect(ctx.program_keys).toEqual(['11111111111111111111111111111111']);
    expect(ctx.instructions[0]).toEqual({
      program_key: '11111111111111111111111111111111',
      accounts: [
        { account_key: payer.toBase58(), signer: true, writable: true },
        { account_key: to.toBase58(), signer: false, writable: true },
      ],
      instruction_data_hex: '020000000700000000000000',
      address_table_lookups: [],
    });
    expect(ctx.address_table_lookups).toEqual([]);
  });
});

describe('activityContext and exposeParams', () => {
  it('takes resource, action and kind from the docs table', () => {
    expect(activityContext('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_ETHEREUM' })).toEqual({
      type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
      kind: 'SIGN_TRANSACTION',
      resource: 'PRIVATE_KEY',
      action: 'SIGN',
      params: { type: 'TRANSACTION_TYPE_ETHEREUM' },
    });
  });

  it('leaves resource and action absent for a root-quorum activity', () => {
    const a = activityContext('ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', {});
    expect(a).toEqual({ type: 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', kind: 'UPDATE_ROOT_QUORUM', params: {} });
  });

  it('exposes only the named request fields, snake_case, numbers as ints, with defaults', () => {
    expect(exposeParams({ userId: 'user_id', apiKeyIds: 'api_key_ids' })({ userId: 'u', apiKeyIds: ['k'], organizationId: 'o' })).toEqual({ user_id: 'u', api_key_ids: ['k'] });
    expect(exposeParams({ otpLength: 'otp_length' })({ otpLength: 6, contact: 'a@b.c' })).toEqual({ otp_length: 6n });
    expect(exposeParams({ sessionProfileId: 'session_profile_id' }, { session_profile_id: '' })({ publicKey: '02' })).toEqual({ session_profile_id: '' });
    expect(exposeParams({ userIds: 'user_ids' })({ userIds: null })).toEqual({});
  });
});

describe('createConditionContext', () => {
  it('parses a sign_transaction into eth.tx and leaves every other part absent', () => {
    const unsigned = Transaction.from({ type: 2, chainId: 1n, nonce: 0, maxPriorityFeePerGas: 1n, maxFeePerGas: 1n, gasLimit: 21_000n, to: TO, value: 1n, data: '0x', accessList: [] }).unsignedSerialized;
    const ctx = createConditionContext({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', params: { type: 'TRANSACTION_TYPE_ETHEREUM' }, transaction: { type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: unsigned }, now: NOW, signerAddress: TO });
    expect(ctx.eth?.tx.from).toBe(TO.toLowerCase());
    expect(Object.keys(ctx).sort()).toEqual(['activity', 'eth', 'time']);
  });

  it('leaves eth.tx absent for an unparsable transaction and when no transaction is given', () => {
    const bad = createConditionContext({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', params: {}, transaction: { type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: 'zz' }, now: NOW });
    expect(bad.eth).toBeUndefined();
    const raw = createConditionContext({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', params: {}, now: NOW });
    expect(Object.keys(raw).sort()).toEqual(['activity', 'time']);
  });
});
