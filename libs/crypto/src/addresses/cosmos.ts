/**
 * Cosmos SDK account addresses (`ADDRESS_FORMAT_COSMOS`, `ADDRESS_FORMAT_SEI`): bech32 of
 * `RIPEMD-160(SHA-256(compressed pubkey))` — the SDK's secp256k1 `Address()` — under the chain's
 * hrp. Only the hrp differs between chains, so one function serves both. Sei's EVM-side `0x…`
 * address of the same key is a different format (ADDRESS_FORMAT_ETHEREUM).
 */
import { bech32 } from '@scure/base';
import { assertCompressedSecp256k1, hash160, secp256k1Format } from './bitcoin.js';
import type { TFormatTable } from './format-spec.js';

/**
 * @throws TypeError for a key that is not a 33-byte compressed secp256k1 point, or an empty hrp.
 */
export function cosmosAddress(publicKey: Uint8Array, hrp: string): string {
  if (typeof hrp !== 'string' || hrp.length === 0) throw new TypeError('hrp must be a non-empty string');
  assertCompressedSecp256k1(publicKey);
  return bech32.encode(hrp, bech32.toWords(hash160(publicKey)));
}

export const COSMOS_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_COSMOS: secp256k1Format((pk) => cosmosAddress(pk, 'cosmos')),
  ADDRESS_FORMAT_SEI: secp256k1Format((pk) => cosmosAddress(pk, 'sei')),
};
