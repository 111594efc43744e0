/**
 * XRP Ledger classic addresses (`ADDRESS_FORMAT_XRP`): the AccountID `RIPEMD-160(SHA-256(compressed
 * pubkey))` behind type prefix 0x00, with Bitcoin's double-SHA-256 checksum but XRP's own base58
 * alphabet (`rpshnaf39w…`), which is why every address starts with "r". X-addresses (which also
 * carry a destination tag) are a different, derived format and not produced here.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { base58xrp } from '@scure/base';
import { assertCompressedSecp256k1, hash160, secp256k1Format } from './bitcoin.js';
import type { TFormatTable } from './format-spec.js';

export const XRP_ACCOUNT_ID_PREFIX = 0x00;

/**
 * base58check over XRP's alphabet. @scure/base's `createBase58check` is fixed to Bitcoin's
 * alphabet, so the 4-byte `SHA-256(SHA-256(payload))` checksum is appended here.
 */
export function xrpBase58Check(payload: Uint8Array): string {
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58xrp.encode(concatBytes(payload, checksum));
}

/**
 * @throws TypeError for a key that is not a 33-byte compressed secp256k1 point.
 */
export function xrpAddress(publicKey: Uint8Array): string {
  assertCompressedSecp256k1(publicKey);
  return xrpBase58Check(concatBytes(Uint8Array.of(XRP_ACCOUNT_ID_PREFIX), hash160(publicKey)));
}

export const XRP_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_XRP: secp256k1Format(xrpAddress),
};
