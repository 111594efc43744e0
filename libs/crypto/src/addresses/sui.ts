/**
 * Sui addresses: `0x` + hex of BLAKE2b-256(flag ‖ public key), 64 lowercase hex digits. The flag
 * byte names the signature scheme (0x00 = ed25519), so one key yields distinct addresses under
 * different schemes and an address commits to how its owner signs.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { assertBytes } from '../encoding.js';
import type { TFormatTable } from './format-spec.js';

/** Sui's signature-scheme flag for ed25519. */
const SUI_ED25519_FLAG = 0x00;

/**
 * The Sui address (`0x` + 64 hex digits) of a raw 32-byte ed25519 public key.
 * @throws TypeError if `publicKey` is not 32 bytes.
 */
export function suiAddress(publicKey: Uint8Array): string {
  assertBytes(publicKey, 'publicKey', 32);
  const input = new Uint8Array(1 + 32);
  input[0] = SUI_ED25519_FLAG;
  input.set(publicKey, 1);
  return `0x${bytesToHex(blake2b(input, { dkLen: 32 }))}`;
}

export const SUI_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_SUI: { curves: ['CURVE_ED25519'], encode: (_curve, publicKey) => suiAddress(publicKey) },
};
