/**
 * Tron addresses (`ADDRESS_FORMAT_TRON`): Ethereum's 20-byte account id — the last 20 bytes of
 * keccak256 of the uncompressed key without its 0x04 prefix — behind Tron's version byte 0x41,
 * base58check-encoded ("T…"). Since the hash is over the uncompressed point, the result does not
 * depend on how the key was serialised, so either SEC1 form is accepted, as `ethereumAddress` does.
 */
import { secp256k1 } from '../keys/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { assertBytes } from '../encoding.js';
import { secp256k1Format } from './bitcoin.js';
import type { TFormatTable } from './format-spec.js';

export const TRON_ADDRESS_PREFIX = 0x41;

const base58check = createBase58check(sha256);

/**
 * Address of a secp256k1 key, compressed (33 bytes) or uncompressed (65 bytes) SEC1.
 * @throws TypeError for anything that is not a secp256k1 point in SEC1 form.
 */
export function tronAddress(publicKey: Uint8Array): string {
  assertBytes(publicKey, 'publicKey');
  if (publicKey.length !== 33 && publicKey.length !== 65) throw new TypeError(`publicKey must be 33 or 65 bytes, got ${publicKey.length}`);
  let uncompressed: Uint8Array;
  try {
    uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  } catch {
    throw new TypeError('publicKey is not a point of secp256k1');
  }
  const accountId = keccak_256(uncompressed.subarray(1)).subarray(12);
  return base58check.encode(concatBytes(Uint8Array.of(TRON_ADDRESS_PREFIX), accountId));
}

export const TRON_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_TRON: secp256k1Format(tronAddress),
};
