/**
 * `sign_transaction` for `TRANSACTION_TYPE_SOLANA`: fills our signature slot of a serialized legacy
 * or v0 transaction.
 *
 * The wire form (what `@turnkey/solana` sends: `tx.serialize({requireAllSignatures: false})`) is
 * `shortvec(n) ‖ n × 64-byte signature ‖ message`; unsigned slots are zeros. The message is parsed
 * in full (header, account keys, blockhash, instructions and, for v0, address-table lookups) so
 * that we know which bytes are signed and which account keys must sign: the first
 * `numRequiredSignatures` keys, in slot order. Other signers' slots are left as they are.
 *
 * A bare message (no signature section) is accepted too, but only when the bytes cannot also be
 * read as a transaction: both readings are tried, and if both parse the request is refused as
 * ambiguous. The result is then the full transaction, with zeros in the other signers' slots.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { assertBytes, assertString, encodeHex } from '../../encoding.js';
import { decodeHexInput } from '../../signing/hex-input.js';
import { SigningError } from '../../signing/signing-error.js';

const SIGNATURE_BYTES = 64;
const KEY_BYTES = 32;

interface TParsedMessage {
  numRequiredSignatures: number;
  /** The message's static account keys; signers come first. */
  accountKeys: Uint8Array[];
}

function malformed(message: string): SigningError {
  return new SigningError('MALFORMED_INPUT', `invalid Solana transaction: ${message}`);
}

/** A cursor over the input that refuses to read past its end. */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
  ) {}

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
        if (i > 0 && byte === 0) throw malformed(`${field} is not minimally encoded`);
        return value;
      }
    }
    throw malformed(`${field} does not fit in 16 bits`);
  }
}

/** Parses a legacy or v0 message starting at `reader.at`, leaving the reader just past it. */
function parseMessage(reader: Reader): TParsedMessage {
  const first = reader.bytes[reader.at];
  if (first === undefined) throw malformed('message is empty');
  const versioned = (first & 0x80) !== 0;
  if (versioned) {
    const version = first & 0x7f;
    if (version !== 0) throw new SigningError('UNSUPPORTED', `Solana message version ${version} is not supported (legacy and v0 are)`);
    reader.at += 1;
  }
  const numRequiredSignatures = reader.u8('header.numRequiredSignatures');
  const numReadonlySigned = reader.u8('header.numReadonlySignedAccounts');
  const numReadonlyUnsigned = reader.u8('header.numReadonlyUnsignedAccounts');
  const keyCount = reader.shortvec('account key count');
  const accountKeys: Uint8Array[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < keyCount; i++) {
    const key = reader.take(KEY_BYTES, `account key ${i}`);
    const hex = encodeHex(key);
    if (seen.has(hex)) throw malformed(`account key ${i} is listed twice`);
    seen.add(hex);
    accountKeys.push(key);
  }
  // The runtime's sanitize rules: a fee payer that signs and is writable, and counts that fit.
  if (numRequiredSignatures === 0) throw malformed('header.numRequiredSignatures must be at least 1 (the fee payer)');
  if (numReadonlySigned >= numRequiredSignatures) throw malformed('header.numReadonlySignedAccounts must leave the fee payer writable');
  if (numRequiredSignatures + numReadonlyUnsigned > keyCount) throw malformed('header counts exceed the number of account keys');
  reader.take(32, 'recent blockhash');
  const instructionCount = reader.shortvec('instruction count');
  for (let i = 0; i < instructionCount; i++) {
    reader.u8(`instruction ${i} program id index`);
    reader.take(reader.shortvec(`instruction ${i} account count`), `instruction ${i} accounts`);
    reader.take(reader.shortvec(`instruction ${i} data length`), `instruction ${i} data`);
  }
  if (versioned) {
    const lookupCount = reader.shortvec('address table lookup count');
    for (let i = 0; i < lookupCount; i++) {
      reader.take(KEY_BYTES, `address table lookup ${i} account`);
      reader.take(reader.shortvec(`address table lookup ${i} writable count`), `address table lookup ${i} writable indexes`);
      reader.take(reader.shortvec(`address table lookup ${i} readonly count`), `address table lookup ${i} readonly indexes`);
    }
  }
  return { numRequiredSignatures, accountKeys };
}

interface TParsedTransaction {
  signatures: Uint8Array[];
  message: Uint8Array;
  parsed: TParsedMessage;
}

function parseTransaction(bytes: Uint8Array): TParsedTransaction {
  const reader = new Reader(bytes, 0);
  const count = reader.shortvec('signature count');
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < count; i++) signatures.push(reader.take(SIGNATURE_BYTES, `signature ${i}`));
  const messageStart = reader.at;
  const parsed = parseMessage(reader);
  if (reader.at !== bytes.length) throw malformed(`${bytes.length - reader.at} trailing byte(s) after the message`);
  if (count !== parsed.numRequiredSignatures) {
    throw malformed(`${count} signature slot(s) for ${parsed.numRequiredSignatures} required signature(s)`);
  }
  return { signatures, message: bytes.subarray(messageStart), parsed };
}

function parseBareMessage(bytes: Uint8Array): TParsedTransaction {
  const reader = new Reader(bytes, 0);
  const parsed = parseMessage(reader);
  if (reader.at !== bytes.length) throw malformed(`${bytes.length - reader.at} trailing byte(s) after the message`);
  const signatures = Array.from({ length: parsed.numRequiredSignatures }, () => new Uint8Array(SIGNATURE_BYTES));
  return { signatures, message: bytes, parsed };
}

function attempt(parse: (bytes: Uint8Array) => TParsedTransaction, bytes: Uint8Array): TParsedTransaction | SigningError {
  try {
    return parse(bytes);
  } catch (error) {
    if (error instanceof SigningError) return error;
    throw error;
  }
}

function shortvec(value: number): Uint8Array {
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

/**
 * Signs a serialized Solana transaction (hex, `0x` optional) with an ed25519 key and returns the
 * transaction with our slot filled, as lowercase hex without `0x`.
 * @throws {SigningError} `NOT_A_SIGNER` if `publicKey` is not one of the transaction's required
 *   signers; `MALFORMED_INPUT` for bytes that are not a legacy/v0 transaction or message, or that
 *   read as both; `UNSUPPORTED` for another message version.
 * @throws {TypeError} if the keys are not 32 bytes or `publicKey` is not `privateKey`'s.
 */
export function signSolanaTransaction(privateKey: Uint8Array, publicKey: Uint8Array, unsignedHex: string): string {
  assertBytes(privateKey, 'privateKey', 32);
  assertBytes(publicKey, 'publicKey', 32);
  assertString(unsignedHex, 'unsignedTransaction');
  // A mismatched pair would put a signature by one key into another key's slot.
  if (encodeHex(ed25519.getPublicKey(privateKey)) !== encodeHex(publicKey)) throw new TypeError('publicKey is not the public key of privateKey');
  const bytes = decodeHexInput(unsignedHex, 'unsignedTransaction');

  const asTransaction = attempt(parseTransaction, bytes);
  const asMessage = attempt(parseBareMessage, bytes);
  let tx: TParsedTransaction;
  if (!(asTransaction instanceof SigningError)) {
    if (!(asMessage instanceof SigningError)) {
      throw malformed('the bytes read both as a transaction and as a bare message; send the serialized transaction with its signature slots');
    }
    tx = asTransaction;
  } else if (!(asMessage instanceof SigningError)) {
    tx = asMessage;
  } else {
    // Both failed: report the transaction reading (the documented form), unless the bytes begin with
    // a message version we do not sign: that is the accurate answer for a V1 transaction, whose
    // signatures trail its message.
    throw asMessage.reason === 'UNSUPPORTED' ? asMessage : asTransaction;
  }

  const { numRequiredSignatures, accountKeys } = tx.parsed;
  const ours = encodeHex(publicKey);
  const slot = accountKeys.slice(0, numRequiredSignatures).findIndex((key) => encodeHex(key) === ours);
  if (slot === -1) {
    throw new SigningError('NOT_A_SIGNER', `this key is not one of the transaction's ${numRequiredSignatures} required signer(s)`);
  }
  const signature = ed25519.sign(tx.message, privateKey);
  const signatures = tx.signatures.map((s, i) => (i === slot ? signature : s));
  return encodeHex(Buffer.concat([shortvec(signatures.length), ...signatures, tx.message]));
}
