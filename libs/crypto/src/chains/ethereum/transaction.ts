/**
 * The one reader of unsigned Ethereum transactions, shared by the signer (`sign.ts`) and the policy
 * reader (`fields.ts`): legacy (pre-EIP-155 or EIP-155) and the EIP-2718 types of `layout.ts`.
 *
 * Every field is checked for its kind (canonical integer of at most 32 bytes, 20-byte address,
 * access-list shape, ...), so we sign only what a node would parse the same way, and the policy
 * engine sees exactly the fields that are signed: both callers get them from `parseEthereumTransaction`,
 * and a transaction one of them refuses the other refuses too, with the same reason.
 *
 * Why not a library's transaction reader: `@ethereumjs/tx` will not read a transaction without a
 * `Common` for its chain id (it refuses an unsigned Base EIP-1559 transaction or a Sepolia EIP-155
 * one out of the box) and judges network validity (nonce below 2^64 - 1, fee caps) on top of the
 * wire format; `micro-eth-signer`'s `Transaction` reads these forms but, like the former, is only a
 * devDependency here. What is left to write is the table (`layout.ts`) and the shape checks below,
 * over the strict RLP decoder; ethers is the oracle in `fields.property.spec.ts`.
 */
import { decodeHexInput } from '../../signing/hex-input.js';
import { SigningError } from '../../signing/signing-error.js';
import { EIP155_TAIL, LEGACY_LAYOUT, SUPPORTED_TYPES, TYPED_LAYOUTS, type TEthereumFieldKind, type TEthereumLayout } from './layout.js';
import { decodeRlp, decodeRlpUint, type TRlpItem } from './rlp.js';

/** The scalar fields of an unsigned transaction; those its layout lacks are absent. */
export interface TEthereumTransactionValues {
  /** Absent for a pre-EIP-155 legacy transaction (no chain id is signed). */
  chainId?: bigint;
  nonce: bigint;
  /** Legacy and type 1. */
  gasPrice?: bigint;
  maxPriorityFeePerGas?: bigint;
  maxFeePerGas?: bigint;
  gasLimit: bigint;
  /** 20 bytes, or empty for a contract creation. */
  to: Uint8Array;
  value: bigint;
  data: Uint8Array;
  /** Type 3 only. */
  maxFeePerBlobGas?: bigint;
}

/** An unsigned transaction that passed every check. */
export interface TEthereumTransaction {
  layout: TEthereumLayout;
  /** The bytes received: the type byte (if any) and the canonical RLP of `items`. */
  unsigned: Uint8Array;
  /** The unsigned RLP items in wire order (for legacy EIP-155, with the `chainId, 0, 0` tail). */
  items: TRlpItem[];
  values: TEthereumTransactionValues;
}

function malformed(message: string): SigningError {
  return new SigningError('MALFORMED_INPUT', `invalid Ethereum transaction: ${message}`);
}

function assertList(item: TRlpItem, field: string): asserts item is TRlpItem[] {
  if (!Array.isArray(item)) throw malformed(`${field} must be a list`);
}

function assertByteString(item: TRlpItem, field: string, length?: number): asserts item is Uint8Array {
  if (!(item instanceof Uint8Array)) throw malformed(`${field} must be a byte string, got a list`);
  if (length !== undefined && item.length !== length) throw malformed(`${field} must be ${length} bytes, got ${item.length}`);
}

/** Checks one item against its kind; returns the integer for `uint` fields. */
function checkField(item: TRlpItem, kind: TEthereumFieldKind, field: string): bigint | undefined {
  switch (kind) {
    case 'uint':
      return decodeRlpUint(item, field);
    case 'to':
      assertByteString(item, field);
      if (item.length !== 0 && item.length !== 20) throw malformed(`${field} must be empty (contract creation) or 20 bytes, got ${item.length}`);
      return undefined;
    case 'address':
      assertByteString(item, field, 20);
      return undefined;
    case 'bytes':
      assertByteString(item, field);
      return undefined;
    case 'accessList':
      assertList(item, field);
      for (const [i, entry] of item.entries()) {
        assertList(entry, `${field}[${i}]`);
        if (entry.length !== 2) throw malformed(`${field}[${i}] must be [address, storageKeys]`);
        assertByteString(entry[0]!, `${field}[${i}].address`, 20);
        const keys = entry[1]!;
        assertList(keys, `${field}[${i}].storageKeys`);
        for (const [j, key] of keys.entries()) assertByteString(key, `${field}[${i}].storageKeys[${j}]`, 32);
      }
      return undefined;
    case 'hashes':
      assertList(item, field);
      for (const [i, hash] of item.entries()) assertByteString(hash, `${field}[${i}]`, 32);
      return undefined;
    case 'authorizationList':
      assertList(item, field);
      for (const [i, auth] of item.entries()) {
        const at = `${field}[${i}]`;
        assertList(auth, at);
        if (auth.length !== 6) throw malformed(`${at} must be [chainId, address, nonce, yParity, r, s]`);
        decodeRlpUint(auth[0]!, `${at}.chainId`);
        assertByteString(auth[1]!, `${at}.address`, 20);
        // EIP-7702 bounds the authority's nonce to 2^64 - 1 (EIP-2681).
        decodeRlpUint(auth[2]!, `${at}.nonce`, 8);
        decodeRlpUint(auth[3]!, `${at}.yParity`, 1);
        decodeRlpUint(auth[4]!, `${at}.r`);
        decodeRlpUint(auth[5]!, `${at}.s`);
      }
      return undefined;
    default: {
      const never: never = kind;
      throw new Error(`unknown field kind ${String(never)}`);
    }
  }
}

/** Checks every field of `layout` and collects the scalar ones. */
function readValues(items: readonly TRlpItem[], layout: TEthereumLayout): TEthereumTransactionValues {
  const ints: Partial<Record<string, bigint>> = {};
  let to: Uint8Array = new Uint8Array(0);
  let data: Uint8Array = new Uint8Array(0);
  for (const [i, [name, kind]] of layout.fields.entries()) {
    const item = items[i]!;
    const int = checkField(item, kind, name);
    if (int !== undefined) ints[name] = int;
    else if (name === 'to') to = item as Uint8Array;
    else if (name === 'data') data = item as Uint8Array;
  }
  const values: TEthereumTransactionValues = { nonce: ints['nonce']!, gasLimit: ints['gasLimit']!, to, value: ints['value']!, data };
  for (const name of ['chainId', 'gasPrice', 'maxPriorityFeePerGas', 'maxFeePerGas', 'maxFeePerBlobGas'] as const) {
    const int = ints[name];
    if (int !== undefined) values[name] = int;
  }
  return values;
}

function parseLegacy(unsigned: Uint8Array): TEthereumTransaction {
  const items = decodeRlp(unsigned);
  assertList(items, 'legacy transaction');
  const head = LEGACY_LAYOUT.fields.length;
  if (items.length !== head && items.length !== head + EIP155_TAIL) {
    throw malformed(`a legacy transaction has ${head} fields, or ${head + EIP155_TAIL} with EIP-155 [..., chainId, 0, 0]; got ${items.length}`);
  }
  const values = readValues(items, LEGACY_LAYOUT);
  if (items.length === head + EIP155_TAIL) {
    const chainId = decodeRlpUint(items[head]!, 'chainId');
    // A signed transaction has non-zero r and s here: refuse rather than sign over a signature.
    if (decodeRlpUint(items[head + 1]!, 'EIP-155 r placeholder') !== 0n || decodeRlpUint(items[head + 2]!, 'EIP-155 s placeholder') !== 0n) {
      throw malformed('the last two fields of an EIP-155 unsigned transaction must be 0 (is it already signed?)');
    }
    if (chainId === 0n) throw malformed('EIP-155 chainId must not be 0 (send the 6-field form for a chain-less signature)');
    values.chainId = chainId;
  }
  return { layout: LEGACY_LAYOUT, unsigned, items, values };
}

function parseTyped(type: number, unsigned: Uint8Array): TEthereumTransaction {
  const layout = TYPED_LAYOUTS.get(type);
  if (!layout) {
    throw new SigningError('UNSUPPORTED', `Ethereum transaction type 0x${type.toString(16).padStart(2, '0')} is not supported (supported: ${SUPPORTED_TYPES})`);
  }
  const items = decodeRlp(unsigned.subarray(1));
  if (!Array.isArray(items)) throw malformed(`${layout.name} payload must be an RLP list`);
  if (items.length !== layout.fields.length) {
    throw malformed(`an unsigned ${layout.name} transaction has ${layout.fields.length} fields, got ${items.length}${items.length === layout.fields.length + 3 ? ' (is it already signed?)' : ''}`);
  }
  return { layout, unsigned, items, values: readValues(items, layout) };
}

/**
 * Reads an unsigned Ethereum transaction: an RLP list (legacy) or `type ‖ rlp(fields)` (EIP-2718).
 * @throws {SigningError} `MALFORMED_INPUT` for empty input, non-canonical RLP, a wrong field count or
 *   a field of the wrong shape; `UNSUPPORTED` for a type byte other than 0x01–0x04.
 */
export function parseEthereumTransaction(unsigned: Uint8Array): TEthereumTransaction {
  if (!(unsigned instanceof Uint8Array)) throw new TypeError('unsigned must be a Uint8Array');
  const first = unsigned[0];
  if (first === undefined) throw malformed('unsignedTransaction is empty');
  if (first >= 0xc0) return parseLegacy(unsigned);
  // EIP-2718: a first byte in [0x00, 0x7f] is the type; [0x80, 0xbf] would be an RLP string.
  if (first <= 0x7f) return parseTyped(first, unsigned);
  throw malformed('unsignedTransaction is neither an RLP list (legacy) nor an EIP-2718 typed transaction');
}

/**
 * `parseEthereumTransaction` over the hex a request carries (`0x` optional).
 * @throws {SigningError} `MALFORMED_INPUT` for bad hex, and as `parseEthereumTransaction`.
 */
export function parseEthereumTransactionHex(unsignedHex: string): TEthereumTransaction {
  return parseEthereumTransaction(decodeHexInput(unsignedHex, 'unsignedTransaction'));
}

