/**
 * The Solana policy view of transactions built by @solana/web3.js: every field is compared with what
 * the building library put in; malformed inputs fail like the signer does.
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
import { describe, expect, it } from 'vitest';
import { reasonOf } from '../../test-vectors.js';
import { SOLANA_ADDRESS_TABLE_LOOKUP, solanaTransactionFields } from './fields.js';

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
