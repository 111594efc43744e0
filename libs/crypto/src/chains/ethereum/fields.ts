/**
 * The policy view of an unsigned Ethereum transaction (`eth.tx`): the fields `sign_transaction`
 * signs, read by the same reader (`transaction.ts`) into plain values a policy can compare. Pure: no
 * keys, no signing, no network.
 */
import { assertString, encodeHex } from '../../encoding.js';
import type { TEthereumTransactionType } from './layout.js';
import { parseEthereumTransactionHex } from './transaction.js';

export type { TEthereumTransactionType } from './layout.js';

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

/**
 * Reads the fields of an unsigned Ethereum transaction (hex, `0x` optional): legacy (6 fields, or 9
 * with EIP-155) or typed 0x01–0x04, exactly the forms `signEthereumTransaction` accepts.
 * @throws {SigningError} `MALFORMED_INPUT` for bad hex, non-canonical RLP or a field of the wrong
 *   shape; `UNSUPPORTED` for another transaction type: whenever the signer would refuse the bytes.
 */
export function ethereumTransactionFields(unsignedHex: string): TEthereumTransactionFields {
  assertString(unsignedHex, 'unsignedTransaction');
  const { layout, values } = parseEthereumTransactionHex(unsignedHex);
  const fields: TEthereumTransactionFields = {
    type: layout.type,
    nonce: values.nonce,
    gasLimit: values.gasLimit,
    to: values.to.length === 0 ? '' : `0x${encodeHex(values.to)}`,
    value: values.value,
    data: `0x${encodeHex(values.data)}`,
  };
  if (values.chainId !== undefined) fields.chainId = values.chainId;
  if (values.gasPrice !== undefined) fields.gasPrice = values.gasPrice;
  if (values.maxFeePerGas !== undefined) {
    fields.maxFeePerGas = values.maxFeePerGas;
    // Turnkey's docs: on fee-market transactions `gas_price` carries `max_fee_per_gas`.
    fields.gasPrice = values.maxFeePerGas;
  }
  if (values.maxPriorityFeePerGas !== undefined) fields.maxPriorityFeePerGas = values.maxPriorityFeePerGas;
  if (values.maxFeePerBlobGas !== undefined) fields.maxFeePerBlobGas = values.maxFeePerBlobGas;
  return fields;
}
