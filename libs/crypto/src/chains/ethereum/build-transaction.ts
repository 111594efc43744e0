/**
 * What eth_send_transaction builds and reads besides signing: the unsigned EIP-1559 (type 2)
 * serialization of the fields Latchkey filled, the hash of a signed transaction, and the reason a
 * reverted call gives. The unsigned bytes go through the same signer as sign_transaction's
 * (`signEthereumTransaction`), which re-reads them with the one transaction parser.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeHex, encodeHex } from '../../encoding.js';
import { SigningError } from '../../signing/signing-error.js';
import { encodeRlp, encodeRlpUint } from './rlp.js';

export interface TEip1559Fields {
  chainId: bigint;
  nonce: bigint;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gasLimit: bigint;
  /** 20-byte address, `0x` hex. */
  to: string;
  value: bigint;
  /** Call data, `0x` hex (may be `0x`). */
  data: string;
}

function hexBytes(value: string, field: string, length?: number): Uint8Array {
  const bytes = decodeHex(value.replace(/^0x/i, ''));
  if (!bytes || (length !== undefined && bytes.length !== length)) {
    throw new SigningError('MALFORMED_INPUT', `${field} must be ${length === undefined ? '' : `${length} bytes of `}0x-prefixed hex`);
  }
  return bytes;
}

/**
 * The unsigned serialization `0x02 ‖ rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas,
 * gasLimit, to, value, data, accessList=[]])`, as lowercase hex without `0x`.
 * @throws {SigningError} MALFORMED_INPUT for a bad address or data, or a negative number
 */
export function encodeEip1559Unsigned(f: TEip1559Fields): string {
  for (const [k, v] of Object.entries(f)) if (typeof v === 'bigint' && v < 0n) throw new SigningError('MALFORMED_INPUT', `${k} must not be negative`);
  const body = encodeRlp([
    encodeRlpUint(f.chainId),
    encodeRlpUint(f.nonce),
    encodeRlpUint(f.maxPriorityFeePerGas),
    encodeRlpUint(f.maxFeePerGas),
    encodeRlpUint(f.gasLimit),
    hexBytes(f.to, 'to', 20),
    encodeRlpUint(f.value),
    hexBytes(f.data === '' ? '0x' : f.data, 'data'),
    [],
  ]);
  const out = new Uint8Array(body.length + 1);
  out[0] = 0x02;
  out.set(body, 1);
  return encodeHex(out);
}

/** The transaction hash (keccak-256 of the signed serialization), `0x` lowercase hex. */
export function ethereumTransactionHash(signedHex: string): string {
  return `0x${encodeHex(keccak_256(hexBytes(signedHex, 'signedTransaction')))}`;
}

const ERROR_SELECTOR = '08c379a0'; // Error(string)
const PANIC_SELECTOR = '4e487b71'; // Panic(uint256)

/**
 * What a revert's return data says: `Error(string)`'s message, `Panic(uint256)`'s code, or, for a
 * custom error, its selector. Undefined for no data. Never throws (the data comes from a node).
 */
export function decodeRevertReason(data: unknown): { message: string; selector?: string; kind: 'native' | 'custom' } | undefined {
  if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(data) || data.length <= 2) return undefined;
  const hex = data.slice(2).toLowerCase();
  const selector = hex.slice(0, 8);
  if (selector === ERROR_SELECTOR && hex.length >= 8 + 128) {
    const length = Number(BigInt(`0x${hex.slice(8 + 64, 8 + 128)}`));
    const text = hex.slice(8 + 128, 8 + 128 + length * 2);
    if (text.length === length * 2) {
      const bytes = decodeHex(text);
      if (bytes) return { message: new TextDecoder('utf-8', { fatal: false }).decode(bytes), selector: `0x${selector}`, kind: 'native' };
    }
  }
  if (selector === PANIC_SELECTOR && hex.length >= 8 + 64) return { message: `panic 0x${BigInt(`0x${hex.slice(8, 8 + 64)}`).toString(16)}`, selector: `0x${selector}`, kind: 'native' };
  return { message: `custom error 0x${selector}`, selector: `0x${selector}`, kind: 'custom' };
}
