/**
 * Field extraction from unsigned transactions, for the policy engine (`eth.tx`, `solana.tx`): the
 * same bytes `sign_transaction` signs, read into plain fields a policy can compare. Pure: no keys,
 * no signing, no network.
 *
 * The readers are as strict as the signers (canonical RLP, 20-byte addresses, shortvec lengths),
 * so a transaction that a policy was evaluated over is one the signer accepts, and a policy never
 * sees fields the signer would read differently.
 */
import { base58 } from '@scure/base';
import { assertString, encodeHex } from '../../encoding.js';
import { decodeHexInput } from '../../signing/hex-input.js';
import { decodeRlp, decodeRlpUint, type TRlpItem } from '../ethereum/rlp.js';
import { SigningError } from '../../signing/signing-error.js';

// ---------------------------------------------------------------------------------------------
// Ethereum
// ---------------------------------------------------------------------------------------------

/** The EVM transaction type as the policy language spells it. */
export type TEthereumTransactionType = 'LEGACY' | 'TYPE_1' | 'TYPE_2' | 'TYPE_3' | 'TYPE_4';

/** The fields of an unsigned Ethereum transaction. Integers are bigints; hex is lowercase `0x…`. */
export interface TEthereumTransactionFields {
  type: TEthereumTransactionType;
  /** Absent for a pre-EIP-155 legacy transaction (no chain id is signed). */
  chainId?: bigint;
  nonce: bigint;
  /** Legacy and type 1; for types 2–4 the policy engine reports `maxFeePerGas` here. */
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  /** Type 3 only. */
  maxFeePerBlobGas?: bigint;
  gasLimit: bigint;
  /** Lowercase `0x` + 40 hex digits; `''` for a contract creation. */
  to: string;
  value: bigint;
  /** Calldata, lowercase `0x…` (`0x` when empty). */
  data: string;
}

type TEthField = 'chainId' | 'nonce' | 'gasPrice' | 'maxPriorityFeePerGas' | 'maxFeePerGas' | 'gasLimit' | 'to' | 'value' | 'data' | 'accessList' | 'maxFeePerBlobGas' | 'blobVersionedHashes' | 'authorizationList';

const FEE_MARKET: readonly TEthField[] = ['chainId', 'nonce', 'maxPriorityFeePerGas', 'maxFeePerGas', 'gasLimit', 'to', 'value', 'data', 'accessList'];

/** Unsigned field order per typed transaction (EIP-2930, EIP-1559, EIP-4844, EIP-7702). */
const TYPED_FIELDS: ReadonlyMap<number, { type: TEthereumTransactionType; fields: readonly TEthField[] }> = new Map<number, { type: TEthereumTransactionType; fields: readonly TEthField[] }>([
  [0x01, { type: 'TYPE_1', fields: ['chainId', 'nonce', 'gasPrice', 'gasLimit', 'to', 'value', 'data', 'accessList'] }],
  [0x02, { type: 'TYPE_2', fields: FEE_MARKET }],
  [0x03, { type: 'TYPE_3', fields: [...FEE_MARKET, 'maxFeePerBlobGas', 'blobVersionedHashes'] }],
  [0x04, { type: 'TYPE_4', fields: [...FEE_MARKET, 'authorizationList'] }],
]);

const LEGACY_FIELDS: readonly TEthField[] = ['nonce', 'gasPrice', 'gasLimit', 'to', 'value', 'data'];

function ethMalformed(message: string): SigningError {
  return new SigningError('MALFORMED_INPUT', `invalid Ethereum transaction: ${message}`);
}

function bytesOf(item: TRlpItem | undefined, field: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw ethMalformed(`${field} must be a byte string`);
  return item;
}

function readEthFields(items: readonly TRlpItem[], layout: readonly TEthField[], type: TEthereumTransactionType): TEthereumTransactionFields {
  const out: Partial<Record<TEthField, bigint>> = {};
  let to = '';
  let data = '0x';
  for (const [i, name] of layout.entries()) {
    const item = items[i];
    if (item === undefined) throw ethMalformed(`${name} is missing`);
    switch (name) {
      case 'to': {
        const bytes = bytesOf(item, name);
        // Blob and set-code transactions cannot create contracts.
        const creationAllowed = type === 'LEGACY' || type === 'TYPE_1' || type === 'TYPE_2';
        if (bytes.length === 0 && creationAllowed) break;
        if (bytes.length !== 20) throw ethMalformed(`to must be ${creationAllowed ? 'empty (contract creation) or ' : ''}20 bytes, got ${bytes.length}`);
        to = `0x${encodeHex(bytes)}`;
        break;
      }
      case 'data':
        data = `0x${encodeHex(bytesOf(item, name))}`;
        break;
      case 'accessList':
      case 'blobVersionedHashes':
      case 'authorizationList':
        // Shape-checked by the signer; the policy language exposes none of them.
        if (!Array.isArray(item)) throw ethMalformed(`${name} must be a list`);
        break;
      default:
        out[name] = decodeRlpUint(item, name);
    }
  }
  const fields: TEthereumTransactionFields = { type, nonce: out.nonce ?? 0n, gasLimit: out.gasLimit ?? 0n, to, value: out.value ?? 0n, data };
  if (out.chainId !== undefined) fields.chainId = out.chainId;
  if (out.gasPrice !== undefined) fields.gasPrice = out.gasPrice;
  if (out.maxFeePerGas !== undefined) {
    fields.maxFeePerGas = out.maxFeePerGas;
    // Turnkey's docs: on fee-market transactions `gas_price` carries `max_fee_per_gas`.
    fields.gasPrice = out.maxFeePerGas;
  }
  if (out.maxPriorityFeePerGas !== undefined) fields.maxPriorityFeePerGas = out.maxPriorityFeePerGas;
  if (out.maxFeePerBlobGas !== undefined) fields.maxFeePerBlobGas = out.maxFeePerBlobGas;
  return fields;
}

/**
 * Reads the fields of an unsigned Ethereum transaction (hex, `0x` optional): legacy (6 fields, or 9
 * with EIP-155) or typed 0x01–0x04, the forms `signEthereumTransaction` accepts.
 * @throws {SigningError} `MALFORMED_INPUT` for bad hex, non-canonical RLP or a field of the wrong
 *   shape; `UNSUPPORTED` for another transaction type.
 */
export function ethereumTransactionFields(unsignedHex: string): TEthereumTransactionFields {
  assertString(unsignedHex, 'unsignedTransaction');
  const bytes = decodeHexInput(unsignedHex, 'unsignedTransaction');
  const first = bytes[0];
  if (first === undefined) throw ethMalformed('unsignedTransaction is empty');
  if (first >= 0xc0) {
    const items = decodeRlp(bytes);
    if (!Array.isArray(items)) throw ethMalformed('legacy transaction must be a list');
    if (items.length !== 6 && items.length !== 9) throw ethMalformed(`a legacy transaction has 6 fields, or 9 with EIP-155; got ${items.length}`);
    const fields = readEthFields(items, LEGACY_FIELDS, 'LEGACY');
    if (items.length === 9) {
      const chainId = decodeRlpUint(items[6]!, 'chainId');
      if (decodeRlpUint(items[7]!, 'EIP-155 r placeholder') !== 0n || decodeRlpUint(items[8]!, 'EIP-155 s placeholder') !== 0n) {
        throw ethMalformed('the last two fields of an EIP-155 unsigned transaction must be 0 (is it already signed?)');
      }
      if (chainId === 0n) throw ethMalformed('EIP-155 chainId must not be 0');
      fields.chainId = chainId;
    }
    return fields;
  }
  if (first > 0x7f) throw ethMalformed('unsignedTransaction is neither an RLP list (legacy) nor an EIP-2718 typed transaction');
  const layout = TYPED_FIELDS.get(first);
  if (!layout) throw new SigningError('UNSUPPORTED', `Ethereum transaction type 0x${first.toString(16).padStart(2, '0')} is not supported (supported: legacy, 0x01, 0x02, 0x03, 0x04)`);
  const items = decodeRlp(bytes.subarray(1));
  if (!Array.isArray(items)) throw ethMalformed('typed transaction payload must be an RLP list');
  if (items.length !== layout.fields.length) throw ethMalformed(`an unsigned ${layout.type} transaction has ${layout.fields.length} fields, got ${items.length}`);
  return readEthFields(items, layout.fields, layout.type);
}

// ---------------------------------------------------------------------------------------------
// Solana
// ---------------------------------------------------------------------------------------------

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

function solMalformed(message: string): SigningError {
  return new SigningError('MALFORMED_INPUT', `invalid Solana transaction: ${message}`);
}

class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}

  u8(field: string): number {
    const value = this.bytes[this.at];
    if (value === undefined) throw solMalformed(`${field} is truncated`);
    this.at += 1;
    return value;
  }

  take(length: number, field: string): Uint8Array {
    if (length > this.bytes.length - this.at) throw solMalformed(`${field} is truncated`);
    const out = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }

  /** compact-u16, canonical only (as the signer reads it). */
  shortvec(field: string): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(field);
      if (i === 2 && byte > 0x03) throw solMalformed(`${field} does not fit in 16 bits`);
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) throw solMalformed(`${field} is not minimally encoded`);
        return value;
      }
    }
    throw solMalformed(`${field} does not fit in 16 bits`);
  }
}

interface TRawInstruction {
  programIndex: number;
  accountIndexes: number[];
  data: Uint8Array;
}

interface TRawMessage {
  version: 'legacy' | 'v0';
  numRequiredSignatures: number;
  numReadonlySigned: number;
  numReadonlyUnsigned: number;
  keys: Uint8Array[];
  recentBlockhash: Uint8Array;
  instructions: TRawInstruction[];
  lookups: { key: Uint8Array; writable: number[]; readonly: number[] }[];
}

function readMessage(reader: Reader): TRawMessage {
  const first = reader.bytes[reader.at];
  if (first === undefined) throw solMalformed('message is empty');
  const versioned = (first & 0x80) !== 0;
  if (versioned) {
    if ((first & 0x7f) !== 0) throw new SigningError('UNSUPPORTED', `Solana message version ${first & 0x7f} is not supported (legacy and v0 are)`);
    reader.at += 1;
  }
  const numRequiredSignatures = reader.u8('header.numRequiredSignatures');
  const numReadonlySigned = reader.u8('header.numReadonlySignedAccounts');
  const numReadonlyUnsigned = reader.u8('header.numReadonlyUnsignedAccounts');
  const keyCount = reader.shortvec('account key count');
  const keys: Uint8Array[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < keyCount; i++) {
    const key = reader.take(32, `account key ${i}`);
    const hex = encodeHex(key);
    if (seen.has(hex)) throw solMalformed(`account key ${i} is listed twice`);
    seen.add(hex);
    keys.push(key);
  }
  if (numRequiredSignatures === 0) throw solMalformed('header.numRequiredSignatures must be at least 1 (the fee payer)');
  if (numReadonlySigned >= numRequiredSignatures) throw solMalformed('header.numReadonlySignedAccounts must leave the fee payer writable');
  if (numRequiredSignatures + numReadonlyUnsigned > keyCount) throw solMalformed('header counts exceed the number of account keys');
  const recentBlockhash = reader.take(32, 'recent blockhash');
  const instructionCount = reader.shortvec('instruction count');
  const instructions: TRawInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIndex = reader.u8(`instruction ${i} program id index`);
    const accountIndexes = [...reader.take(reader.shortvec(`instruction ${i} account count`), `instruction ${i} accounts`)];
    const data = reader.take(reader.shortvec(`instruction ${i} data length`), `instruction ${i} data`);
    instructions.push({ programIndex, accountIndexes, data });
  }
  const lookups: TRawMessage['lookups'] = [];
  if (versioned) {
    const lookupCount = reader.shortvec('address table lookup count');
    for (let i = 0; i < lookupCount; i++) {
      const key = reader.take(32, `address table lookup ${i} account`);
      const writable = [...reader.take(reader.shortvec(`address table lookup ${i} writable count`), `address table lookup ${i} writable indexes`)];
      const readonly = [...reader.take(reader.shortvec(`address table lookup ${i} readonly count`), `address table lookup ${i} readonly indexes`)];
      lookups.push({ key, writable, readonly });
    }
  }
  return { version: versioned ? 'v0' : 'legacy', numRequiredSignatures, numReadonlySigned, numReadonlyUnsigned, keys, recentBlockhash, instructions, lookups };
}

function readTransaction(bytes: Uint8Array): TRawMessage {
  const reader = new Reader(bytes);
  const count = reader.shortvec('signature count');
  reader.take(64 * count, 'signatures');
  const message = readMessage(reader);
  if (reader.at !== bytes.length) throw solMalformed(`${bytes.length - reader.at} trailing byte(s) after the message`);
  if (count !== message.numRequiredSignatures) throw solMalformed(`${count} signature slot(s) for ${message.numRequiredSignatures} required signature(s)`);
  return message;
}

function readBareMessage(bytes: Uint8Array): TRawMessage {
  const reader = new Reader(bytes);
  const message = readMessage(reader);
  if (reader.at !== bytes.length) throw solMalformed(`${bytes.length - reader.at} trailing byte(s) after the message`);
  return message;
}

function attempt(read: (bytes: Uint8Array) => TRawMessage, bytes: Uint8Array): TRawMessage | SigningError {
  try {
    return read(bytes);
  } catch (error) {
    if (error instanceof SigningError) return error;
    throw error;
  }
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

function fieldsOf(message: TRawMessage): TSolanaTransactionFields {
  const staticKeys = message.keys.map((k) => base58.encode(k));
  const n = staticKeys.length;
  const writableSigned = message.numRequiredSignatures - message.numReadonlySigned;
  const staticWritable = (i: number) => (i < message.numRequiredSignatures ? i < writableSigned : i < n - message.numReadonlyUnsigned);

  // Loaded accounts follow the static keys: every table's writable indexes, then every table's read-only ones.
  const references: TSolanaLookupReference[] = [];
  for (const l of message.lookups) for (const index of l.writable) references.push({ addressTableKey: base58.encode(l.key), index, writable: true });
  for (const l of message.lookups) for (const index of l.readonly) references.push({ addressTableKey: base58.encode(l.key), index, writable: false });

  const instructions: TSolanaInstruction[] = message.instructions.map((raw, i) => {
    const programKey = staticKeys[raw.programIndex];
    // Turnkey refuses a top-level program loaded from a lookup table: it must be parseable offline.
    if (programKey === undefined) throw solMalformed(`instruction ${i} program id index ${raw.programIndex} is not a static account key`);
    const accounts: TSolanaAccountRef[] = [];
    const lookups: TSolanaLookupReference[] = [];
    for (const index of raw.accountIndexes) {
      if (index < n) {
        accounts.push({ accountKey: staticKeys[index]!, signer: index < message.numRequiredSignatures, writable: staticWritable(index) });
        continue;
      }
      const ref = references[index - n];
      if (!ref) throw solMalformed(`instruction ${i} account index ${index} is out of range`);
      accounts.push({ accountKey: SOLANA_ADDRESS_TABLE_LOOKUP, signer: false, writable: ref.writable });
      lookups.push(ref);
    }
    return { programKey, accounts, dataHex: encodeHex(raw.data), addressTableLookups: lookups };
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
    addressTableLookups: message.lookups.map((l) => ({ addressTableKey: base58.encode(l.key), writableIndexes: l.writable, readonlyIndexes: l.readonly })),
    addressTableLookupReferences: references,
  };
}

/**
 * Reads a serialized Solana transaction (hex, `0x` optional; legacy or v0, signature slots
 * included) or a bare message, with the same ambiguity rule as `signSolanaTransaction`: bytes that
 * read both ways are refused.
 * @throws {SigningError} `MALFORMED_INPUT` for bytes that are not a transaction or message, read
 *   both ways, or reference accounts out of range; `UNSUPPORTED` for another message version.
 */
export function solanaTransactionFields(unsignedHex: string): TSolanaTransactionFields {
  assertString(unsignedHex, 'unsignedTransaction');
  const bytes = decodeHexInput(unsignedHex, 'unsignedTransaction');
  const asTransaction = attempt(readTransaction, bytes);
  const asMessage = attempt(readBareMessage, bytes);
  if (!(asTransaction instanceof SigningError)) {
    if (!(asMessage instanceof SigningError)) throw solMalformed('the bytes read both as a transaction and as a bare message');
    return fieldsOf(asTransaction);
  }
  if (!(asMessage instanceof SigningError)) return fieldsOf(asMessage);
  throw asMessage.reason === 'UNSUPPORTED' ? asMessage : asTransaction;
}
