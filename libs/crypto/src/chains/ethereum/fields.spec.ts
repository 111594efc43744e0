/**
 * The Ethereum policy view of unsigned transactions built by ethers: every field is compared with
 * what ethers put in; malformed inputs fail like the signer does.
 */
import { Transaction, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { reasonOf } from '../../test-vectors.js';
import { ethereumTransactionFields } from './fields.js';
import { encodeRlp } from './rlp.js';

const TO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const wallet = new Wallet(`0x${'42'.repeat(32)}`);

describe('ethereumTransactionFields', () => {
  it('reads a pre-EIP-155 legacy transaction: no chain id, lowercase to', () => {
    const unsigned = Transaction.from({ type: 0, nonce: 7, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: TO, value: 10n ** 18n, data: '0x', chainId: 0n }).unsignedSerialized;
    expect(ethereumTransactionFields(unsigned)).toEqual({ type: 'LEGACY', nonce: 7n, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: TO.toLowerCase(), value: 10n ** 18n, data: '0x' });
  });

  it('reads an EIP-155 legacy transaction (chain id from the 9-field form), without the 0x prefix', () => {
    const unsigned = Transaction.from({ type: 0, nonce: 1, gasPrice: 1n, gasLimit: 50_000n, to: TO, value: 0n, data: '0xA9059CBB', chainId: 11_155_111n }).unsignedSerialized;
    const fields = ethereumTransactionFields(unsigned.slice(2));
    expect(fields.chainId).toBe(11_155_111n);
    expect(fields.data).toBe('0xa9059cbb');
  });

  it('reads a contract creation as an empty `to`', () => {
    const unsigned = Transaction.from({ type: 2, chainId: 10n, nonce: 0, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 500_000n, to: null, value: 0n, data: '0x6000', accessList: [] }).unsignedSerialized;
    expect(ethereumTransactionFields(unsigned).to).toBe('');
  });

  it('reads EIP-2930', () => {
    const unsigned = Transaction.from({ type: 1, chainId: 1n, nonce: 3, gasPrice: 30n, gasLimit: 60_000n, to: TO, value: 5n, data: '0x1234', accessList: [{ address: TO, storageKeys: [] }] }).unsignedSerialized;
    expect(ethereumTransactionFields(unsigned)).toEqual({ type: 'TYPE_1', chainId: 1n, nonce: 3n, gasPrice: 30n, gasLimit: 60_000n, to: TO.toLowerCase(), value: 5n, data: '0x1234' });
  });

  it('reads EIP-1559 with gas_price mirroring max_fee_per_gas and a 256-bit value', () => {
    const unsigned = Transaction.from({ type: 2, chainId: 8453n, nonce: 2 ** 32, maxPriorityFeePerGas: 3n, maxFeePerGas: 100n, gasLimit: 21_000n, to: TO, value: 2n ** 255n, data: '0x', accessList: [] }).unsignedSerialized;
    expect(ethereumTransactionFields(unsigned)).toEqual({
      type: 'TYPE_2',
      chainId: 8453n,
      nonce: 2n ** 32n,
      maxPriorityFeePerGas: 3n,
      maxFeePerGas: 100n,
      gasPrice: 100n,
      gasLimit: 21_000n,
      to: TO.toLowerCase(),
      value: 2n ** 255n,
      data: '0x',
    });
  });

  it('reads EIP-4844 (max_fee_per_blob_gas) and EIP-7702', () => {
    const blob = Transaction.from({ type: 3, chainId: 1n, nonce: 5, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 21_000n, to: TO, value: 0n, data: '0x', accessList: [], maxFeePerBlobGas: 3n, blobVersionedHashes: [`0x01${'cd'.repeat(31)}`] }).unsignedSerialized;
    expect(ethereumTransactionFields(blob)).toMatchObject({ type: 'TYPE_3', maxFeePerBlobGas: 3n });
    const authorization = wallet.authorizeSync({ address: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B', nonce: 3n, chainId: 1n });
    const setCode = Transaction.from({ type: 4, chainId: 1n, nonce: 6, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 100_000n, to: TO, value: 0n, data: '0x', accessList: [], authorizationList: [authorization] }).unsignedSerialized;
    expect(ethereumTransactionFields(setCode)).toMatchObject({ type: 'TYPE_4', nonce: 6n });
  });

  it('refuses what the signer refuses', () => {
    expect(reasonOf(() => ethereumTransactionFields('0x'))).toBe('MALFORMED_INPUT');
    expect(reasonOf(() => ethereumTransactionFields('zz'))).toBe('MALFORMED_INPUT');
    expect(reasonOf(() => ethereumTransactionFields('0x05c0'))).toBe('UNSUPPORTED');
    expect(reasonOf(() => ethereumTransactionFields('0x02c0'))).toBe('MALFORMED_INPUT');
    // A 19-byte `to`.
    const bad = Transaction.from({ type: 0, nonce: 0, gasPrice: 1n, gasLimit: 1n, to: TO, value: 0n, data: '0x', chainId: 0n }).unsignedSerialized.replace(TO.slice(2).toLowerCase(), TO.slice(4).toLowerCase());
    expect(reasonOf(() => ethereumTransactionFields(bad))).toBe('MALFORMED_INPUT');
    // An access-list entry without its storage-key list: once only the signer looked inside the list.
    const to = Uint8Array.from(Buffer.from(TO.slice(2), 'hex'));
    const [one, zero] = [Uint8Array.of(1), new Uint8Array(0)];
    const entryWithoutKeys = `01${Buffer.from(encodeRlp([one, zero, one, one, to, zero, zero, [[to]]])).toString('hex')}`;
    expect(() => ethereumTransactionFields(entryWithoutKeys)).toThrow(/accessList\[0\] must be \[address, storageKeys\]/);
  });
});
