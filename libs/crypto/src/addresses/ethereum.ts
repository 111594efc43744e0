/** Ethereum addresses: the last 20 bytes of keccak256 of the uncompressed key, EIP-55 checksummed. */
import { secp256k1 } from '../keys/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** EIP-55 mixed-case checksum of a 40-hex-digit address. */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase().replace(/^0x/, '');
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

/**
 * Address of a secp256k1 public key (compressed or uncompressed SEC1). The hash is over the
 * uncompressed point, so an uncompressed key is hashed as given once it is checked to be on the
 * curve (cheap), while a compressed one must first be decompressed (a modular square root).
 * @throws Error (noble's) when the bytes are not a secp256k1 point in SEC1 form.
 */
export function ethereumAddress(publicKey: Uint8Array): string {
  const point = secp256k1.Point.fromBytes(publicKey);
  const uncompressed = publicKey.length === 65 && publicKey[0] === 0x04 ? publicKey : point.toBytes(false);
  return toChecksumAddress(bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12)));
}
