/**
 * Recursive Length Prefix (Ethereum yellow paper, appendix B): the encoding of Ethereum
 * transactions and of EIP-7702 authorizations.
 *
 * The decoder is strict on purpose: every item must use its one canonical encoding (a single byte
 * below 0x80 is itself, short forms for lengths up to 55, long-form lengths without leading zeros)
 * and the input must be exactly one item. The signed transaction is re-encoded from the decoded
 * items, so a lenient decoder would let two different request strings produce the same signed
 * transaction, and would let the signed bytes differ from what the caller's tools showed.
 *
 * Why not a library: `micro-eth-signer`'s `RLP.decode` and `@ethereumjs/rlp`'s `RLP.decode` are as
 * strict about canonical form and trailing bytes (`fields.property.spec.ts` checks that ours accepts
 * nothing they refuse and decodes what they accept identically), but `@ethereumjs/rlp` recurses
 * without a depth limit (a ~60 kB nested list throws a `RangeError` from the stack, not a refusal),
 * `micro-eth-signer` returns views into the input instead of copies, and both are devDependencies
 * of this repository, not runtime ones: putting either behind the signer is a dependency change
 * first. The decoder here is 60 lines; we keep it, and keep the libraries as oracles. (ethers, the
 * other RLP reader at hand, is no candidate: its `Transaction.from` reads leading zeros in lengths,
 * long forms of short lengths and prefixed single bytes, as the ethers property there records.)
 */
import { SigningError } from '../../signing/signing-error.js';

/** An RLP item: a byte string or a list of items. */
export type TRlpItem = Uint8Array | TRlpItem[];

// Ethereum transactions nest at most four deep (type-4 authorization lists); a generous cap keeps a
// hostile input from exhausting the stack in the recursive decoder.
const MAX_DEPTH = 32;

function lengthBytes(length: number): Uint8Array {
  const out: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) out.unshift(n % 256);
  return Uint8Array.from(out);
}

function header(shortOffset: number, length: number): Uint8Array {
  if (length <= 55) return Uint8Array.of(shortOffset + length);
  const len = lengthBytes(length);
  return Uint8Array.of(shortOffset + 55 + len.length, ...len);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Encodes one item.
 * @throws {TypeError} for anything that is not a Uint8Array or an array of items.
 */
export function encodeRlp(item: TRlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return Uint8Array.of(item[0]!);
    return concat([header(0x80, item.length), item]);
  }
  if (!Array.isArray(item)) throw new TypeError(`RLP item must be a Uint8Array or an array, got ${typeof item}`);
  const payload = concat(item.map(encodeRlp));
  return concat([header(0xc0, payload.length), payload]);
}

function malformed(message: string): SigningError {
  return new SigningError('MALFORMED_INPUT', `invalid RLP: ${message}`);
}

/** Decodes the item at `offset`; returns it and the offset just past it. */
function decodeAt(bytes: Uint8Array, offset: number, end: number, depth: number): [TRlpItem, number] {
  if (depth > MAX_DEPTH) throw malformed(`nested deeper than ${MAX_DEPTH} lists`);
  if (offset >= end) throw malformed(`item at offset ${offset} is truncated`);
  const prefix = bytes[offset]!;
  if (prefix < 0x80) return [bytes.slice(offset, offset + 1), offset + 1];

  const isList = prefix >= 0xc0;
  const base = isList ? 0xc0 : 0x80;
  let length: number;
  let start: number;
  if (prefix - base <= 55) {
    length = prefix - base;
    start = offset + 1;
  } else {
    const lenOfLen = prefix - base - 55;
    if (offset + 1 + lenOfLen > end) throw malformed(`length of the item at offset ${offset} is truncated`);
    if (bytes[offset + 1] === 0) throw malformed(`length of the item at offset ${offset} has a leading zero`);
    length = 0;
    for (let i = 0; i < lenOfLen; i++) length = length * 256 + bytes[offset + 1 + i]!;
    if (length <= 55) throw malformed(`item at offset ${offset} uses the long form for a length of ${length}`);
    start = offset + 1 + lenOfLen;
  }
  // Compared before any slicing: a long-form length can claim far more than the input holds.
  if (length > end - start) throw malformed(`item at offset ${offset} claims ${length} bytes, only ${end - start} remain`);
  const stop = start + length;

  if (!isList) {
    if (length === 1 && bytes[start]! < 0x80) {
      throw malformed(`single byte 0x${bytes[start]!.toString(16).padStart(2, '0')} at offset ${offset} must be encoded as itself`);
    }
    return [bytes.slice(start, stop), stop];
  }
  const items: TRlpItem[] = [];
  let at = start;
  while (at < stop) {
    const [item, next] = decodeAt(bytes, at, stop, depth + 1);
    items.push(item);
    at = next;
  }
  return [items, stop];
}

/**
 * Decodes exactly one canonically encoded item spanning all of `bytes`.
 * @throws {SigningError} `MALFORMED_INPUT` for truncated, non-canonical or trailing bytes.
 */
export function decodeRlp(bytes: Uint8Array): TRlpItem {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array');
  const [item, end] = decodeAt(bytes, 0, bytes.length, 0);
  if (end !== bytes.length) throw malformed(`${bytes.length - end} trailing byte(s) after the item`);
  return item;
}

/**
 * The RLP form of an unsigned integer: big-endian, no leading zeros, zero as the empty string.
 * @throws {RangeError} for a negative value.
 */
export function encodeRlpUint(value: bigint): Uint8Array {
  if (typeof value !== 'bigint' || value < 0n) throw new RangeError('RLP integers must be non-negative bigints');
  if (value === 0n) return new Uint8Array(0);
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/**
 * Reads an RLP integer field of at most `maxBytes` bytes.
 * @throws {SigningError} `MALFORMED_INPUT` if the item is a list, has a leading zero byte or is too long; `field` names it.
 */
export function decodeRlpUint(item: TRlpItem, field: string, maxBytes = 32): bigint {
  if (!(item instanceof Uint8Array)) throw new SigningError('MALFORMED_INPUT', `${field} must be an integer, got a list`);
  if (item.length > maxBytes) throw new SigningError('MALFORMED_INPUT', `${field} must fit in ${maxBytes} bytes, got ${item.length}`);
  if (item.length > 0 && item[0] === 0) throw new SigningError('MALFORMED_INPUT', `${field} has a leading zero byte (non-canonical integer)`);
  return item.length === 0 ? 0n : BigInt(`0x${Buffer.from(item).toString('hex')}`);
}
