/**
 * EIP-7702 authorizations as `sign_raw_payload` receives them (`PAYLOAD_ENCODING_EIP7702_AUTHORIZATION`):
 * the JSON `{chainId, address, nonce}` that `@turnkey/viem`'s `signAuthorization` sends, and the
 * digest an authority signs, `keccak256(0x05 ‖ rlp([chainId, address, nonce]))`.
 *
 * Its own strict reader, not a general JSON-to-RLP mapping: unknown keys are refused (they would not
 * be signed), integers are bounded as the EIP bounds them, and a mixed-case address must carry its
 * EIP-55 checksum.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { toChecksumAddress } from '../../addresses/ethereum.js';
import { decodeHexInput } from '../../signing/hex-input.js';
import { SigningError } from '../../signing/signing-error.js';
import { encodeRlp, encodeRlpUint } from './rlp.js';

/** An unsigned integer from JSON: a safe-integer number, or a decimal or 0x string. */
function jsonUint(value: unknown, field: string, maxBits: bigint): bigint {
  let n: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) n = BigInt(value);
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) n = BigInt(value);
  if (n === undefined) throw new SigningError('MALFORMED_INPUT', `${field} must be a non-negative integer (number, decimal or 0x string)`);
  if (n >= 1n << maxBits) throw new SigningError('MALFORMED_INPUT', `${field} must be below 2^${maxBits}`);
  return n;
}

/**
 * EIP-7702 authorization digest: `keccak256(0x05 ‖ rlp([chainId, address, nonce]))`, from the JSON
 * `{chainId, address, nonce}` that `@turnkey/viem`'s `signAuthorization` sends.
 * @throws {SigningError} `MALFORMED_INPUT` for invalid JSON, unknown or missing fields, integers out
 *   of range, or an address that is not 20 bytes of hex with a valid checksum.
 */
export function eip7702AuthorizationDigest(payload: string): Uint8Array {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw new SigningError('MALFORMED_INPUT', 'EIP-7702 authorization payload is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SigningError('MALFORMED_INPUT', 'EIP-7702 authorization payload must be a JSON object {chainId, address, nonce}');
  }
  const record = parsed as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => k !== 'chainId' && k !== 'address' && k !== 'nonce');
  if (extra.length > 0) throw new SigningError('MALFORMED_INPUT', `EIP-7702 authorization has unknown field(s): ${extra.join(', ')}`);
  const chainId = jsonUint(record['chainId'], 'chainId', 256n);
  // EIP-7702 bounds the authority's nonce to 2^64 - 1 (EIP-2681).
  const nonce = jsonUint(record['nonce'], 'nonce', 64n);
  const address = record['address'];
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new SigningError('MALFORMED_INPUT', 'address must be a 0x-prefixed 20-byte hex address');
  }
  const digits = address.slice(2);
  if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase() && toChecksumAddress(digits) !== address) {
    throw new SigningError('MALFORMED_INPUT', 'address has an invalid EIP-55 checksum');
  }
  const rlp = encodeRlp([encodeRlpUint(chainId), decodeHexInput(digits, 'address'), encodeRlpUint(nonce)]);
  const preimage = new Uint8Array(rlp.length + 1);
  preimage[0] = 0x05;
  preimage.set(rlp, 1);
  return keccak_256(preimage);
}
