/**
 * Field extraction from unsigned transactions built by ethers and @solana/web3.js: every field is
 * compared with what the building library put in; malformed inputs fail like the signers do.
 */
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction as SolanaTransaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { Transaction, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { reasonOf } from '../../test-vectors.js';
import { SOLANA_ADDRESS_TABLE_LOOKUP, ethereumTransactionFields, solanaTransactionFields } from './fields.js';

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
  });
});

describe('solanaTransactionFields', () => {
  const payer = Keypair.fromSeed(new Uint8Array(32).fill(5)).publicKey;
  const recipient = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey;
  const blockhash = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey.toBase58();
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

  it('reads a legacy SOL transfer: keys, program keys, instruction accounts and the transfer', () => {
    const tx = new SolanaTransaction({ feePayer: payer, recentBlockhash: blockhash });
    tx.add(SystemProgram.transfer({ fromPubkey: payer, toPubkey: recipient, lamports: 1_000_000 }));
    const fields = solanaTransactionFields(hex(tx.serialize({ requireAllSignatures: false, verifySignatures: false })));
    expect(fields.version).toBe('legacy');
    expect(fields.staticAccountKeys).toEqual([payer.toBase58(), recipient.toBase58(), SystemProgram.programId.toBase58()]);
    expect(fields.programKeys).toEqual(['11111111111111111111111111111111']);
    expect(fields.recentBlockhash).toBe(blockhash);
    expect(fields.transfers).toEqual([{ from: payer.toBase58(), to: recipient.toBase58(), amount: 1_000_000n }]);
    expect(fields.instructions[0]!.accounts).toEqual([
      { accountKey: payer.toBase58(), signer: true, writable: true },
      { accountKey: recipient.toBase58(), signer: false, writable: true },
    ]);
    expect(fields.instructions[0]!.dataHex).toBe('0200000040420f0000000000');
    expect(fields.splTransfers).toEqual([]);
    expect(fields.addressTableLookups).toEqual([]);
  });

  it('reads a bare v0 message with a lookup-table recipient as ADDRESS_TABLE_LOOKUP', () => {
    const tableKey = Keypair.fromSeed(new Uint8Array(32).fill(10)).publicKey;
    const table = new AddressLookupTableAccount({ key: tableKey, state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [recipient] } });
    const message = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer, toPubkey: recipient, lamports: 42 })] }).compileToV0Message([table]);
    const fields = solanaTransactionFields(hex(message.serialize()));
    expect(fields.version).toBe('v0');
    expect(fields.transfers).toEqual([{ from: payer.toBase58(), to: SOLANA_ADDRESS_TABLE_LOOKUP, amount: 42n }]);
    expect(fields.addressTableLookups).toEqual([{ addressTableKey: tableKey.toBase58(), writableIndexes: [0], readonlyIndexes: [] }]);
    expect(fields.addressTableLookupReferences).toEqual([{ addressTableKey: tableKey.toBase58(), index: 0, writable: true }]);
    expect(fields.instructions[0]!.addressTableLookups).toEqual([{ addressTableKey: tableKey.toBase58(), index: 0, writable: true }]);
    // And the same as a full v0 transaction with its signature slot.
    expect(solanaTransactionFields(hex(new VersionedTransaction(message).serialize()))).toEqual(fields);
  });

  it('reads SPL Transfer and TransferChecked', () => {
    const token = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    const [source, dest, mint] = [11, 12, 13].map((n) => Keypair.fromSeed(new Uint8Array(32).fill(n)).publicKey) as [PublicKey, PublicKey, PublicKey];
    const amount = Buffer.alloc(8);
    amount.writeBigUInt64LE(5_000n);
    const keys = (list: PublicKey[]) => list.map((pubkey, i) => ({ pubkey, isSigner: pubkey.equals(payer), isWritable: i !== 1 || list.length === 3 }));
    const tx = new SolanaTransaction({ feePayer: payer, recentBlockhash: blockhash });
    tx.add(new TransactionInstruction({ programId: token, keys: keys([source, dest, payer]), data: Buffer.concat([Buffer.of(3), amount]) }));
    tx.add(new TransactionInstruction({ programId: token, keys: keys([source, mint, dest, payer]), data: Buffer.concat([Buffer.of(12), amount, Buffer.of(6)]) }));
    const fields = solanaTransactionFields(hex(tx.serialize({ requireAllSignatures: false, verifySignatures: false })));
    expect(fields.splTransfers).toEqual([
      { from: source.toBase58(), to: dest.toBase58(), amount: 5_000n, owner: payer.toBase58(), signers: [], tokenMint: '' },
      { from: source.toBase58(), to: dest.toBase58(), amount: 5_000n, owner: payer.toBase58(), signers: [], tokenMint: mint.toBase58() },
    ]);
    expect(fields.programKeys).toEqual([token.toBase58()]);
    expect(fields.transfers).toEqual([]);
  });

  it('refuses what the signer refuses', () => {
    expect(reasonOf(() => solanaTransactionFields('00'))).toBe('MALFORMED_INPUT');
    expect(reasonOf(() => solanaTransactionFields('xyz'))).toBe('MALFORMED_INPUT');
    expect(reasonOf(() => solanaTransactionFields('81'))).toBe('UNSUPPORTED');
  });
});
