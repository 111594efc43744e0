/**
 * The policy view of a Solana transaction (`solana.tx`): the accounts, programs, instruction data and
 * transfers of the message `sign_transaction` signs, read by the same reader (`message.ts`). Pure: no
 * keys, no signing, no network.
 */
import { base58 } from '@scure/base';
import { assertString, encodeHex } from '../../encoding.js';
import { parseSolanaTransactionHex, type TSolanaMessage } from './message.js';

/** What a transfer field holds when its account is loaded from an address lookup table (Turnkey's spelling). */
export const SOLANA_ADDRESS_TABLE_LOOKUP = 'ADDRESS_TABLE_LOOKUP';

const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

export interface TSolanaAccountRef {
  /** base58, or `ADDRESS_TABLE_LOOKUP` for an account loaded from a lookup table. */
  accountKey: string;
  signer: boolean;
  writable: boolean;
}

export interface TSolanaLookupReference {
  addressTableKey: string;
  index: number;
  writable: boolean;
}

export interface TSolanaInstruction {
  programKey: string;
  accounts: TSolanaAccountRef[];
  /** Lowercase hex, no prefix. */
  dataHex: string;
  /** The accounts of this instruction that come from lookup tables. */
  addressTableLookups: TSolanaLookupReference[];
}

export interface TSolanaTransfer {
  from: string;
  to: string;
  /** Lamports. */
  amount: bigint;
}

export interface TSolanaSplTransfer {
  from: string;
  to: string;
  amount: bigint;
  owner: string;
  signers: string[];
  /** `''` for a plain `Transfer` (it names no mint). */
  tokenMint: string;
}

export interface TSolanaAddressTableLookup {
  addressTableKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

/** The fields of a legacy or v0 Solana transaction (or bare message). Keys are base58. */
export interface TSolanaTransactionFields {
  version: 'legacy' | 'v0';
  staticAccountKeys: string[];
  /** Distinct programs of the top-level instructions, in first-use order. */
  programKeys: string[];
  instructions: TSolanaInstruction[];
  /** Native SOL transfers of top-level System Program `Transfer` / `TransferWithSeed` instructions. */
  transfers: TSolanaTransfer[];
  /** Top-level Token / Token-2022 `Transfer`, `TransferChecked` and `TransferCheckedWithFee`. */
  splTransfers: TSolanaSplTransfer[];
  recentBlockhash: string;
  addressTableLookups: TSolanaAddressTableLookup[];
  /** Every lookup-table account reference, in runtime order (all writable, then all read-only). */
  addressTableLookupReferences: TSolanaLookupReference[];
}

function u64le(data: Uint8Array, offset: number): bigint | undefined {
  if (data.length < offset + 8) return undefined;
  let value = 0n;
  for (let i = 7; i >= 0; i--) value = (value << 8n) | BigInt(data[offset + i]!);
  return value;
}

function u32le(data: Uint8Array, offset: number): number | undefined {
  if (data.length < offset + 4) return undefined;
  return (data[offset]! | (data[offset + 1]! << 8) | (data[offset + 2]! << 16)) + data[offset + 3]! * 0x1000000;
}

/** A System Program transfer, or undefined when the instruction is another one (or too short to be one). */
function systemTransfer(ix: TSolanaInstruction, data: Uint8Array): TSolanaTransfer | undefined {
  const discriminant = u32le(data, 0);
  const amount = u64le(data, 4);
  if (amount === undefined) return undefined;
  // Transfer: [from, to]; TransferWithSeed: [from, base, to].
  if (discriminant === 2 && data.length === 12 && ix.accounts.length >= 2) return { from: ix.accounts[0]!.accountKey, to: ix.accounts[1]!.accountKey, amount };
  if (discriminant === 11 && ix.accounts.length >= 3) return { from: ix.accounts[0]!.accountKey, to: ix.accounts[2]!.accountKey, amount };
  return undefined;
}

/** A Token / Token-2022 transfer, or undefined for another instruction. */
function splTransfer(ix: TSolanaInstruction, data: Uint8Array): TSolanaSplTransfer | undefined {
  const keys = ix.accounts.map((a) => a.accountKey);
  // Transfer: [source, destination, owner, ...multisig signers], data [3, amount u64].
  if (data[0] === 3 && data.length === 9 && keys.length >= 3) {
    return { from: keys[0]!, to: keys[1]!, amount: u64le(data, 1)!, owner: keys[2]!, signers: keys.slice(3), tokenMint: '' };
  }
  // TransferChecked: [source, mint, destination, owner, ...signers], data [12, amount u64, decimals u8].
  if (data[0] === 12 && data.length === 10 && keys.length >= 4) {
    return { from: keys[0]!, to: keys[2]!, amount: u64le(data, 1)!, owner: keys[3]!, signers: keys.slice(4), tokenMint: keys[1]! };
  }
  // Token-2022 TransferFeeExtension (26) / TransferCheckedWithFee (1): same accounts, data [26, 1, amount, decimals, fee].
  if (ix.programKey === TOKEN_2022_PROGRAM && data[0] === 26 && data[1] === 1 && data.length === 19 && keys.length >= 4) {
    return { from: keys[0]!, to: keys[2]!, amount: u64le(data, 2)!, owner: keys[3]!, signers: keys.slice(4), tokenMint: keys[1]! };
  }
  return undefined;
}

/** The policy view of a message `message.ts` has checked (every index is in range). */
function fieldsOf(message: TSolanaMessage): TSolanaTransactionFields {
  const { header } = message;
  const staticKeys = message.staticAccountKeys.map((k) => base58.encode(k));
  const n = staticKeys.length;
  const writableSigned = header.numRequiredSignatures - header.numReadonlySignedAccounts;
  const staticWritable = (i: number) => (i < header.numRequiredSignatures ? i < writableSigned : i < n - header.numReadonlyUnsignedAccounts);

  // Loaded accounts follow the static keys: every table's writable indexes, then every table's read-only ones.
  const references: TSolanaLookupReference[] = [];
  for (const l of message.addressTableLookups) for (const index of l.writableIndexes) references.push({ addressTableKey: base58.encode(l.accountKey), index, writable: true });
  for (const l of message.addressTableLookups) for (const index of l.readonlyIndexes) references.push({ addressTableKey: base58.encode(l.accountKey), index, writable: false });

  const instructions: TSolanaInstruction[] = message.instructions.map((compiled) => {
    const accounts: TSolanaAccountRef[] = [];
    const lookups: TSolanaLookupReference[] = [];
    for (const index of compiled.accountKeyIndexes) {
      if (index < n) {
        accounts.push({ accountKey: staticKeys[index]!, signer: index < header.numRequiredSignatures, writable: staticWritable(index) });
        continue;
      }
      const ref = references[index - n]!;
      accounts.push({ accountKey: SOLANA_ADDRESS_TABLE_LOOKUP, signer: false, writable: ref.writable });
      lookups.push(ref);
    }
    return { programKey: staticKeys[compiled.programIdIndex]!, accounts, dataHex: encodeHex(compiled.data), addressTableLookups: lookups };
  });

  const transfers: TSolanaTransfer[] = [];
  const splTransfers: TSolanaSplTransfer[] = [];
  for (const [i, ix] of instructions.entries()) {
    const data = message.instructions[i]!.data;
    if (ix.programKey === SYSTEM_PROGRAM) {
      const t = systemTransfer(ix, data);
      if (t) transfers.push(t);
    } else if (ix.programKey === TOKEN_PROGRAM || ix.programKey === TOKEN_2022_PROGRAM) {
      const t = splTransfer(ix, data);
      if (t) splTransfers.push(t);
    }
  }

  return {
    version: message.version,
    staticAccountKeys: staticKeys,
    programKeys: [...new Set(instructions.map((ix) => ix.programKey))],
    instructions,
    transfers,
    splTransfers,
    recentBlockhash: base58.encode(message.recentBlockhash),
    addressTableLookups: message.addressTableLookups.map((l) => ({ addressTableKey: base58.encode(l.accountKey), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes })),
    addressTableLookupReferences: references,
  };
}

/**
 * Reads a serialized Solana transaction (hex, `0x` optional; legacy or v0, signature slots
 * included) or a bare message: exactly the bytes `signSolanaTransaction` accepts, read by the same
 * reader, so bytes that read both ways are refused here too.
 * @throws {SigningError} `MALFORMED_INPUT` for bytes that are not a transaction or message, read
 *   both ways, or reference accounts out of range; `UNSUPPORTED` for another message version:
 *   whenever the signer would refuse the bytes as malformed.
 */
export function solanaTransactionFields(unsignedHex: string): TSolanaTransactionFields {
  assertString(unsignedHex, 'unsignedTransaction');
  return fieldsOf(parseSolanaTransactionHex(unsignedHex).message);
}
