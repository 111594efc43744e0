/**
 * `sign_transaction` for `TRANSACTION_TYPE_ETHEREUM`: signs an unsigned serialized transaction, as
 * ethers' `Transaction.unsignedSerialized` and viem's `serializeTransaction` produce it, and returns
 * the signed serialization.
 *
 * Accepted forms:
 * - legacy: `rlp([nonce, gasPrice, gas, to, value, data])` (pre-EIP-155, v = 27/28) or the EIP-155
 *   form `rlp([..., chainId, 0, 0])` (v = chainId·2 + 35/36);
 * - typed (EIP-2718) `type ‖ rlp(fields)`: 0x01 (EIP-2930), 0x02 (EIP-1559), 0x03 (EIP-4844, the
 *   network form without blobs, as `@turnkey/viem` sends it) and 0x04 (EIP-7702); the signed form
 *   appends `yParity, r, s`.
 * Every field is checked for its kind (canonical integer of at most 32 bytes, 20-byte address,
 * access-list shape, ...): we sign only what a node would parse the same way.
 */
import { signSecp256k1Digest } from '../../keys/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { assertBytes, assertString, encodeHex } from '../../encoding.js';
import { decodeHexInput } from '../../signing/hex-input.js';
import { decodeRlp, decodeRlpUint, encodeRlp, encodeRlpUint, type TRlpItem } from './rlp.js';
import { SigningError } from '../../signing/signing-error.js';

/** What a field of an unsigned transaction must hold. */
type TFieldKind =
  /** An integer: canonical, at most 32 bytes. */
  | 'uint'
  /** The recipient: empty (contract creation) or a 20-byte address. */
  | 'to'
  /** A 20-byte address, creation not allowed (blob and set-code transactions). */
  | 'address'
  /** Arbitrary bytes (calldata). */
  | 'bytes'
  /** `[[address, [storageKey32, ...]], ...]` (EIP-2930). */
  | 'accessList'
  /** `[hash32, ...]` (EIP-4844 blob versioned hashes). */
  | 'hashes'
  /** `[[chainId, address, nonce, yParity, r, s], ...]` (EIP-7702). */
  | 'authorizationList';

interface TTypedLayout {
  name: string;
  fields: readonly (readonly [string, TFieldKind])[];
}

const FEE_MARKET_HEAD = [
  ['chainId', 'uint'],
  ['nonce', 'uint'],
  ['maxPriorityFeePerGas', 'uint'],
  ['maxFeePerGas', 'uint'],
  ['gasLimit', 'uint'],
] as const;

/** Unsigned field layouts of the typed transactions we sign, keyed by type byte. */
const TYPED_LAYOUTS: ReadonlyMap<number, TTypedLayout> = new Map<number, TTypedLayout>([
  [0x01, { name: 'EIP-2930', fields: [['chainId', 'uint'], ['nonce', 'uint'], ['gasPrice', 'uint'], ['gasLimit', 'uint'], ['to', 'to'], ['value', 'uint'], ['data', 'bytes'], ['accessList', 'accessList']] }],
  [0x02, { name: 'EIP-1559', fields: [...FEE_MARKET_HEAD, ['to', 'to'], ['value', 'uint'], ['data', 'bytes'], ['accessList', 'accessList']] }],
  [0x03, { name: 'EIP-4844', fields: [...FEE_MARKET_HEAD, ['to', 'address'], ['value', 'uint'], ['data', 'bytes'], ['accessList', 'accessList'], ['maxFeePerBlobGas', 'uint'], ['blobVersionedHashes', 'hashes']] }],
  [0x04, { name: 'EIP-7702', fields: [...FEE_MARKET_HEAD, ['to', 'address'], ['value', 'uint'], ['data', 'bytes'], ['accessList', 'accessList'], ['authorizationList', 'authorizationList']] }],
]);

const LEGACY_FIELDS = [['nonce', 'uint'], ['gasPrice', 'uint'], ['gasLimit', 'uint'], ['to', 'to'], ['value', 'uint'], ['data', 'bytes']] as const;

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

function checkField(item: TRlpItem, kind: TFieldKind, field: string): void {
  switch (kind) {
    case 'uint':
      decodeRlpUint(item, field);
      return;
    case 'to':
      assertByteString(item, field);
      if (item.length !== 0 && item.length !== 20) throw malformed(`${field} must be empty (contract creation) or 20 bytes, got ${item.length}`);
      return;
    case 'address':
      assertByteString(item, field, 20);
      return;
    case 'bytes':
      assertByteString(item, field);
      return;
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
      return;
    case 'hashes':
      assertList(item, field);
      for (const [i, hash] of item.entries()) assertByteString(hash, `${field}[${i}]`, 32);
      return;
    case 'authorizationList':
      assertList(item, field);
      for (const [i, auth] of item.entries()) {
        const at = `${field}[${i}]`;
        assertList(auth, at);
        if (auth.length !== 6) throw malformed(`${at} must be [chainId, address, nonce, yParity, r, s]`);
        decodeRlpUint(auth[0]!, `${at}.chainId`);
        assertByteString(auth[1]!, `${at}.address`, 20);
        decodeRlpUint(auth[2]!, `${at}.nonce`, 8);
        decodeRlpUint(auth[3]!, `${at}.yParity`, 1);
        decodeRlpUint(auth[4]!, `${at}.r`);
        decodeRlpUint(auth[5]!, `${at}.s`);
      }
      return;
    default: {
      const never: never = kind;
      throw new Error(`unknown field kind ${String(never)}`);
    }
  }
}

function checkFields(items: readonly TRlpItem[], layout: readonly (readonly [string, TFieldKind])[]): void {
  for (const [i, [name, kind]] of layout.entries()) checkField(items[i]!, kind, name);
}

/** Signs `digest`; the recovery id of a secp256k1 signature is 0 or 1 but for a ~2^-128 chance. */
function sign(digest: Uint8Array, privateKey: Uint8Array): { recovery: 0 | 1; r: Uint8Array; s: Uint8Array } {
  const signature = signSecp256k1Digest(digest, privateKey);
  const recovery = signature.recovery;
  if (recovery !== 0 && recovery !== 1) throw new SigningError('UNSUPPORTED', 'signature has a recovery id Ethereum cannot encode; change the transaction (e.g. its nonce) and retry');
  // r and s are RLP integers: strip their leading zeros.
  const r = encodeRlpUint(BigInt(`0x${encodeHex(signature.r)}`));
  const s = encodeRlpUint(BigInt(`0x${encodeHex(signature.s)}`));
  return { recovery, r, s };
}

function signLegacy(items: TRlpItem[], privateKey: Uint8Array): Uint8Array {
  if (items.length !== 6 && items.length !== 9) {
    throw malformed(`a legacy transaction has 6 fields, or 9 with EIP-155 [..., chainId, 0, 0]; got ${items.length}`);
  }
  checkFields(items, LEGACY_FIELDS);
  const digest = keccak_256(encodeRlp(items));
  const head = items.slice(0, 6);
  if (items.length === 9) {
    const chainId = decodeRlpUint(items[6]!, 'chainId');
    // A signed transaction has non-zero r and s here: refuse rather than sign over a signature.
    if (decodeRlpUint(items[7]!, 'EIP-155 r placeholder') !== 0n || decodeRlpUint(items[8]!, 'EIP-155 s placeholder') !== 0n) {
      throw malformed('the last two fields of an EIP-155 unsigned transaction must be 0 (is it already signed?)');
    }
    if (chainId === 0n) throw malformed('EIP-155 chainId must not be 0 (send the 6-field form for a chain-less signature)');
    const { recovery, r, s } = sign(digest, privateKey);
    return encodeRlp([...head, encodeRlpUint(chainId * 2n + 35n + BigInt(recovery)), r, s]);
  }
  const { recovery, r, s } = sign(digest, privateKey);
  return encodeRlp([...head, encodeRlpUint(27n + BigInt(recovery)), r, s]);
}

function signTyped(type: number, body: Uint8Array, unsigned: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const layout = TYPED_LAYOUTS.get(type);
  if (!layout) {
    throw new SigningError('UNSUPPORTED', `Ethereum transaction type 0x${type.toString(16).padStart(2, '0')} is not supported (supported: legacy, 0x01, 0x02, 0x03, 0x04)`);
  }
  const items = decodeRlp(body);
  if (!Array.isArray(items)) throw malformed(`${layout.name} payload must be an RLP list`);
  if (items.length !== layout.fields.length) {
    throw malformed(`an unsigned ${layout.name} transaction has ${layout.fields.length} fields, got ${items.length}${items.length === layout.fields.length + 3 ? ' (is it already signed?)' : ''}`);
  }
  checkFields(items, layout.fields);
  const { recovery, r, s } = sign(keccak_256(unsigned), privateKey);
  const signed = encodeRlp([...items, encodeRlpUint(BigInt(recovery)), r, s]);
  const out = new Uint8Array(signed.length + 1);
  out[0] = type;
  out.set(signed, 1);
  return out;
}

/**
 * Signs an unsigned Ethereum transaction (hex, `0x` optional) with a secp256k1 private key and
 * returns the signed serialization as lowercase hex without `0x` (Turnkey's clients prepend it).
 * @throws {SigningError} `MALFORMED_INPUT` for bad hex, non-canonical RLP or a field of the wrong
 *   shape; `UNSUPPORTED` for a transaction type other than legacy and 0x01–0x04.
 * @throws {TypeError} if `privateKey` is not 32 bytes.
 */
export function signEthereumTransaction(privateKey: Uint8Array, unsignedHex: string): string {
  assertBytes(privateKey, 'privateKey', 32);
  assertString(unsignedHex, 'unsignedTransaction');
  const unsigned = decodeHexInput(unsignedHex, 'unsignedTransaction');
  const first = unsigned[0];
  if (first === undefined) throw malformed('unsignedTransaction is empty');
  if (first >= 0xc0) {
    const items = decodeRlp(unsigned);
    assertList(items, 'legacy transaction');
    return encodeHex(signLegacy(items, privateKey));
  }
  // EIP-2718: a first byte in [0x00, 0x7f] is the type; [0x80, 0xbf] would be an RLP string.
  if (first <= 0x7f) return encodeHex(signTyped(first, unsigned.subarray(1), unsigned, privateKey));
  throw malformed('unsignedTransaction is neither an RLP list (legacy) nor an EIP-2718 typed transaction');
}
