/**
 * The one reader of serialized Solana transactions and messages (legacy and v0), shared by the
 * signer (`sign.ts`) and the policy reader (`fields.ts`): what a policy approved is what gets
 * signed, and bytes one of them refuses the other refuses too, with the same reason.
 *
 * Wire form (what `@turnkey/solana` sends: `tx.serialize({requireAllSignatures: false})`):
 * `shortvec(n) ‖ n × 64-byte signature ‖ message`, unsigned slots zero. A bare message (no signature
 * section) is accepted too, but only when the bytes cannot also be read as a transaction: both
 * readings are tried, and if both succeed the bytes are refused as ambiguous.
 *
 * Hand-written rather than `@solana/web3.js`'s `VersionedMessage.deserialize`, because signing needs
 * refusals that reader does not make (each checked in `fields.property.spec.ts`, where web3.js is the
 * differential oracle): it ignores trailing bytes after the message, accepts non-minimal compact-u16
 * lengths (two spellings of one message) and reads one missing at the end of the input as 0,
 * accepts duplicate account keys, a header with no fee payer or with counts beyond the key list, and
 * instruction indexes that point at no account. It is also only a devDependency here, and a large
 * one to put behind a signer.
 */
import { encodeHex } from '../../encoding.js';
import { decodeHexInput } from '../../signing/hex-input.js';
import { SigningError } from '../../signing/signing-error.js';

export const SOLANA_SIGNATURE_BYTES = 64;
const KEY_BYTES = 32;

export interface TSolanaMessageHeader {
  numRequiredSignatures: number;
  numReadonlySignedAccounts: number;
  numReadonlyUnsignedAccounts: number;
}

/** An instruction as compiled into the message: indexes into the message's accounts. */
export interface TSolanaCompiledInstruction {
  /** Always a static account key (checked). */
  programIdIndex: number;
  /** Into the static keys, then the lookup-loaded accounts (checked to be in range). */
  accountKeyIndexes: number[];
  data: Uint8Array;
}

/** A v0 address-table lookup as the message carries it. */
export interface TSolanaMessageLookup {
  accountKey: Uint8Array;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

/** A legacy or v0 message, every part of it. */
export interface TSolanaMessage {
  version: 'legacy' | 'v0';
  header: TSolanaMessageHeader;
  /** Distinct 32-byte keys; the first `numRequiredSignatures` are the signers, in slot order. */
  staticAccountKeys: Uint8Array[];
  recentBlockhash: Uint8Array;
  instructions: TSolanaCompiledInstruction[];
  /** Empty for legacy. */
  addressTableLookups: TSolanaMessageLookup[];
}

/** A transaction (or bare message) that passed every check. */
export interface TSolanaTransaction {
  /** How the bytes were sent: with their signature section, or as a bare message. */
  form: 'transaction' | 'message';
  /** One per required signer; zeros for unsigned slots (all of them for a bare message). */
  signatures: Uint8Array[];
  /** The serialized message: the bytes every signer signs. */
  messageBytes: Uint8Array;
  message: TSolanaMessage;
}

function malformed(message: string): SigningError {
  return new SigningError('MALFORMED_INPUT', `invalid Solana transaction: ${message}`);
}

/** A cursor over the input that refuses to read past its end. */
class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}

  u8(field: string): number {
    const value = this.bytes[this.at];
    if (value === undefined) throw malformed(`${field} is truncated`);
    this.at += 1;
    return value;
  }

  take(length: number, field: string): Uint8Array {
    if (length > this.bytes.length - this.at) throw malformed(`${field} is truncated`);
    const out = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }

  /** Solana's compact-u16 ("shortvec"): 1–3 bytes, 7 bits each, little-endian; canonical only. */
  shortvec(field: string): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(field);
      if (i === 2 && byte > 0x03) throw malformed(`${field} does not fit in 16 bits`);
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        // A zero high byte would let one length be spelled two ways.
        if (i > 0 && byte === 0) throw malformed(`${field} is not minimally encoded`);
        return value;
      }
    }
    throw malformed(`${field} does not fit in 16 bits`);
  }

  /** `shortvec(n) ‖ n bytes`, as a list of numbers (account indexes). */
  indexes(count: string, field: string): number[] {
    return [...this.take(this.shortvec(count), field)];
  }
}

/** Reads a legacy or v0 message starting at `reader.at`, leaving the reader just past it. */
function readMessage(reader: Reader): TSolanaMessage {
  const first = reader.bytes[reader.at];
  if (first === undefined) throw malformed('message is empty');
  // A legacy message starts with numRequiredSignatures, below 128; a versioned one with 0x80 | version.
  const versioned = (first & 0x80) !== 0;
  if (versioned) {
    const version = first & 0x7f;
    if (version !== 0) throw new SigningError('UNSUPPORTED', `Solana message version ${version} is not supported (legacy and v0 are)`);
    reader.at += 1;
  }
  const header: TSolanaMessageHeader = {
    numRequiredSignatures: reader.u8('header.numRequiredSignatures'),
    numReadonlySignedAccounts: reader.u8('header.numReadonlySignedAccounts'),
    numReadonlyUnsignedAccounts: reader.u8('header.numReadonlyUnsignedAccounts'),
  };
  const keyCount = reader.shortvec('account key count');
  const staticAccountKeys: Uint8Array[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < keyCount; i++) {
    const key = reader.take(KEY_BYTES, `account key ${i}`);
    const hex = encodeHex(key);
    // A key listed twice has two slots and two sets of flags: which one a reader uses is a differential.
    if (seen.has(hex)) throw malformed(`account key ${i} is listed twice`);
    seen.add(hex);
    staticAccountKeys.push(key);
  }
  // The runtime's sanitize rules: a fee payer that signs and is writable, and counts that fit.
  if (header.numRequiredSignatures === 0) throw malformed('header.numRequiredSignatures must be at least 1 (the fee payer)');
  if (header.numReadonlySignedAccounts >= header.numRequiredSignatures) throw malformed('header.numReadonlySignedAccounts must leave the fee payer writable');
  if (header.numRequiredSignatures + header.numReadonlyUnsignedAccounts > keyCount) throw malformed('header counts exceed the number of account keys');
  const recentBlockhash = reader.take(32, 'recent blockhash');
  const instructionCount = reader.shortvec('instruction count');
  const instructions: TSolanaCompiledInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIdIndex = reader.u8(`instruction ${i} program id index`);
    const accountKeyIndexes = reader.indexes(`instruction ${i} account count`, `instruction ${i} accounts`);
    const data = reader.take(reader.shortvec(`instruction ${i} data length`), `instruction ${i} data`);
    instructions.push({ programIdIndex, accountKeyIndexes, data });
  }
  const addressTableLookups: TSolanaMessageLookup[] = [];
  if (versioned) {
    const lookupCount = reader.shortvec('address table lookup count');
    for (let i = 0; i < lookupCount; i++) {
      const accountKey = reader.take(KEY_BYTES, `address table lookup ${i} account`);
      const writableIndexes = reader.indexes(`address table lookup ${i} writable count`, `address table lookup ${i} writable indexes`);
      const readonlyIndexes = reader.indexes(`address table lookup ${i} readonly count`, `address table lookup ${i} readonly indexes`);
      addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes });
    }
  }
  // Every index must name an account: the policy reader reports each account an instruction
  // touches, and an index past the end would be one it cannot name but the signer would sign.
  let loaded = 0;
  for (const l of addressTableLookups) loaded += l.writableIndexes.length + l.readonlyIndexes.length;
  for (const [i, ix] of instructions.entries()) {
    // Turnkey refuses a top-level program loaded from a lookup table (it must be readable offline);
    // the runtime refuses it too.
    if (ix.programIdIndex >= keyCount) throw malformed(`instruction ${i} program id index ${ix.programIdIndex} is not a static account key`);
    for (const index of ix.accountKeyIndexes) {
      if (index >= keyCount + loaded) throw malformed(`instruction ${i} account index ${index} is out of range`);
    }
  }
  return { version: versioned ? 'v0' : 'legacy', header, staticAccountKeys, recentBlockhash, instructions, addressTableLookups };
}

function assertConsumed(reader: Reader): void {
  const rest = reader.bytes.length - reader.at;
  if (rest !== 0) throw malformed(`${rest} trailing byte(s) after the message`);
}

function readTransaction(bytes: Uint8Array): TSolanaTransaction {
  const reader = new Reader(bytes);
  const count = reader.shortvec('signature count');
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < count; i++) signatures.push(reader.take(SOLANA_SIGNATURE_BYTES, `signature ${i}`));
  const messageStart = reader.at;
  const message = readMessage(reader);
  assertConsumed(reader);
  if (count !== message.header.numRequiredSignatures) {
    throw malformed(`${count} signature slot(s) for ${message.header.numRequiredSignatures} required signature(s)`);
  }
  return { form: 'transaction', signatures, messageBytes: bytes.subarray(messageStart), message };
}

function readBareMessage(bytes: Uint8Array): TSolanaTransaction {
  const reader = new Reader(bytes);
  const message = readMessage(reader);
  assertConsumed(reader);
  const signatures = Array.from({ length: message.header.numRequiredSignatures }, () => new Uint8Array(SOLANA_SIGNATURE_BYTES));
  return { form: 'message', signatures, messageBytes: bytes, message };
}

function attempt(read: (bytes: Uint8Array) => TSolanaTransaction, bytes: Uint8Array): TSolanaTransaction | SigningError {
  try {
    return read(bytes);
  } catch (error) {
    if (error instanceof SigningError) return error;
    throw error;
  }
}

/**
 * Reads a serialized legacy or v0 transaction (signature slots included) or a bare message.
 * @throws {SigningError} `MALFORMED_INPUT` for bytes that are neither, that read as both, that are not
 *   canonical, or that reference accounts out of range; `UNSUPPORTED` for a message version other
 *   than legacy and v0.
 */
export function parseSolanaTransaction(bytes: Uint8Array): TSolanaTransaction {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array');
  const asTransaction = attempt(readTransaction, bytes);
  const asMessage = attempt(readBareMessage, bytes);
  if (!(asTransaction instanceof SigningError)) {
    if (!(asMessage instanceof SigningError)) {
      throw malformed('the bytes read both as a transaction and as a bare message; send the serialized transaction with its signature slots');
    }
    return asTransaction;
  }
  if (!(asMessage instanceof SigningError)) return asMessage;
  // Both failed: report the transaction reading (the documented form), unless the bytes begin with
  // a message version we do not sign: that is the accurate answer for a V1 transaction, whose
  // signatures trail its message.
  throw asMessage.reason === 'UNSUPPORTED' ? asMessage : asTransaction;
}

/**
 * One reading of the bytes, without the ambiguity rule. For comparing each reading with another
 * parser (`fields.property.spec.ts`); signing and policy go through `parseSolanaTransaction`.
 * @throws {SigningError} as `parseSolanaTransaction`, but never for ambiguity.
 */
export function parseSolanaTransactionAs(bytes: Uint8Array, form: TSolanaTransaction['form']): TSolanaTransaction {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array');
  return form === 'transaction' ? readTransaction(bytes) : readBareMessage(bytes);
}

/**
 * `parseSolanaTransaction` over the hex a request carries (`0x` optional).
 * @throws {SigningError} `MALFORMED_INPUT` for bad hex, and as `parseSolanaTransaction`.
 */
export function parseSolanaTransactionHex(unsignedHex: string): TSolanaTransaction {
  return parseSolanaTransaction(decodeHexInput(unsignedHex, 'unsignedTransaction'));
}

/**
 * Solana's compact-u16 encoding of `value`, for re-serializing a transaction's signature count.
 * @throws {RangeError} for a value that is not an integer in [0, 2^16).
 */
export function encodeShortvec(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) throw new RangeError(`compact-u16 value out of range: ${value}`);
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>= 7;
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return Uint8Array.from(out);
}
