/**
 * The one table of Ethereum transaction layouts: for legacy and each EIP-2718 type we sign
 * (0x01 EIP-2930, 0x02 EIP-1559, 0x03 EIP-4844, 0x04 EIP-7702), the unsigned fields in wire order
 * and the kind each must hold.
 *
 * The reader (`transaction.ts`), and through it both the signer and the policy reader, take field
 * order and shape from here and nowhere else: two copies of this table were a parser differential
 * waiting for one of them to be fixed alone.
 */

/** The EVM transaction type as the policy language spells it. */
export type TEthereumTransactionType = 'LEGACY' | 'TYPE_1' | 'TYPE_2' | 'TYPE_3' | 'TYPE_4';

/** What an RLP item of an unsigned transaction must hold. */
export type TEthereumFieldKind =
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

/** The names of the unsigned fields, as ethers and viem spell them. */
export type TEthereumFieldName =
  | 'chainId'
  | 'nonce'
  | 'gasPrice'
  | 'maxPriorityFeePerGas'
  | 'maxFeePerGas'
  | 'gasLimit'
  | 'to'
  | 'value'
  | 'data'
  | 'accessList'
  | 'maxFeePerBlobGas'
  | 'blobVersionedHashes'
  | 'authorizationList';

export interface TEthereumLayout {
  /** The EIP-2718 type byte; `undefined` for legacy (an RLP list with no type prefix). */
  typeByte: number | undefined;
  type: TEthereumTransactionType;
  /** The name used in refusals: `legacy`, `EIP-1559`, ... */
  name: string;
  /** The unsigned fields in wire order. Legacy's optional EIP-155 tail is not listed: see `EIP155_TAIL`. */
  fields: readonly (readonly [TEthereumFieldName, TEthereumFieldKind])[];
}

const FEE_MARKET_HEAD = [
  ['chainId', 'uint'],
  ['nonce', 'uint'],
  ['maxPriorityFeePerGas', 'uint'],
  ['maxFeePerGas', 'uint'],
  ['gasLimit', 'uint'],
] as const;

/** `rlp([nonce, gasPrice, gas, to, value, data])`, optionally followed by the EIP-155 tail. */
export const LEGACY_LAYOUT: TEthereumLayout = {
  typeByte: undefined,
  type: 'LEGACY',
  name: 'legacy',
  fields: [['nonce', 'uint'], ['gasPrice', 'uint'], ['gasLimit', 'uint'], ['to', 'to'], ['value', 'uint'], ['data', 'bytes']],
};

/**
 * EIP-155's unsigned legacy form appends `chainId, 0, 0` (the placeholders become `r, s` once
 * signed); the pre-EIP-155 form has no chain id at all.
 */
export const EIP155_TAIL = 3;

/** Typed transactions, keyed by type byte. */
export const TYPED_LAYOUTS: ReadonlyMap<number, TEthereumLayout> = new Map<number, TEthereumLayout>([
  [0x01, { typeByte: 0x01, type: 'TYPE_1', name: 'EIP-2930', fields: [['chainId', 'uint'], ['nonce', 'uint'], ['gasPrice', 'uint'], ['gasLimit', 'uint'], ['to', 'to'], ['value', 'uint'], ['data', 'bytes'], ['accessList', 'accessList']] }],
  [0x02, { typeByte: 0x02, type: 'TYPE_2', name: 'EIP-1559', fields: [...FEE_MARKET_HEAD, ['to', 'to'], ['value', 'uint'], ['data', 'bytes'], ['accessList', 'accessList']] }],
  // The network form without blobs, as `@turnkey/viem` sends it; blob transactions cannot create contracts.
  [0x03, { typeByte: 0x03, type: 'TYPE_3', name: 'EIP-4844', fields: [...FEE_MARKET_HEAD, ['to', 'address'], ['value', 'uint'], ['data', 'bytes'], ['accessList', 'accessList'], ['maxFeePerBlobGas', 'uint'], ['blobVersionedHashes', 'hashes']] }],
  // Set-code transactions cannot create contracts either.
  [0x04, { typeByte: 0x04, type: 'TYPE_4', name: 'EIP-7702', fields: [...FEE_MARKET_HEAD, ['to', 'address'], ['value', 'uint'], ['data', 'bytes'], ['accessList', 'accessList'], ['authorizationList', 'authorizationList']] }],
]);

/** The forms we sign, for refusals that name them: `legacy, 0x01, ...`. */
export const SUPPORTED_TYPES = ['legacy', ...[...TYPED_LAYOUTS.keys()].map((t) => `0x${t.toString(16).padStart(2, '0')}`)].join(', ');
