/**
 * Aptos addresses: `0x` + hex of SHA3-256(public key ‖ 0x00), 64 lowercase hex digits, always in
 * the long form (no leading-zero trimming: that short form is reserved for special addresses such as
 * `0x1`). The trailing byte is the authentication-key scheme, 0x00 = the original single-signer
 * Ed25519 scheme — not the newer SingleKey scheme (0x02), which hashes a BCS-wrapped key and gives a
 * different address. The result is the account's authentication key, which is its address until
 * the account rotates its key.
 */
import { sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { assertBytes } from '../encoding.js';
import type { TFormatTable } from './format-spec.js';

/** Aptos authentication-key scheme id of a single Ed25519 key. */
const APTOS_ED25519_SCHEME = 0x00;

/**
 * The Aptos address (`0x` + 64 hex digits) of a raw 32-byte ed25519 public key.
 * @throws TypeError if `publicKey` is not 32 bytes.
 */
export function aptosAddress(publicKey: Uint8Array): string {
  assertBytes(publicKey, 'publicKey', 32);
  const input = new Uint8Array(32 + 1);
  input.set(publicKey, 0);
  input[32] = APTOS_ED25519_SCHEME;
  return `0x${bytesToHex(sha3_256(input))}`;
}

export const APTOS_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_APTOS: { curves: ['CURVE_ED25519'], encode: (_curve, publicKey) => aptosAddress(publicKey) },
};
