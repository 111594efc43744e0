/**
 * Spark addresses (`ADDRESS_FORMAT_SPARK_MAINNET` / `_SPARK_REGTEST`). Our convention: bech32m of
 * `0x0a 0x21 || compressed pubkey` — the protobuf encoding of a Spark address message holding only
 * its identity key (field 1, length-delimited, 33 bytes) — under hrp `spark` or `sparkrt`.
 *
 * bech32m rather than bech32 because Spark uses it (and BIP-350 fixed bech32's weakness to
 * insertions before a trailing `p`). The 35-byte payload gives 68/70-character addresses: within
 * BIP-173's 90-character limit, so we keep the default limit and a default decoder accepts them;
 * payloads with more fields would need `bech32m.encode(prefix, words, limit)` with a raised limit.
 */
import { concatBytes } from '@noble/hashes/utils.js';
import { bech32m } from '@scure/base';
import { assertCompressedSecp256k1, secp256k1Format } from './bitcoin.js';
import type { TFormatTable } from './format-spec.js';

export type TSparkNetwork = 'mainnet' | 'regtest';

export const SPARK_HRP: Readonly<Record<TSparkNetwork, string>> = { mainnet: 'spark', regtest: 'sparkrt' };

/** Protobuf tag of field 1 (wire type 2, length-delimited) and the key's length, 33. */
export const SPARK_PAYLOAD_PREFIX: Readonly<Uint8Array> = Uint8Array.of(0x0a, 0x21);

/**
 * @throws TypeError for a key that is not a 33-byte compressed secp256k1 point.
 */
export function sparkAddress(publicKey: Uint8Array, network: TSparkNetwork): string {
  const hrp = SPARK_HRP[network];
  if (hrp === undefined) throw new TypeError(`network must be mainnet or regtest, got ${String(network)}`);
  assertCompressedSecp256k1(publicKey);
  return bech32m.encode(hrp, bech32m.toWords(concatBytes(SPARK_PAYLOAD_PREFIX, publicKey)));
}

export const SPARK_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_SPARK_MAINNET: secp256k1Format((pk) => sparkAddress(pk, 'mainnet')),
  ADDRESS_FORMAT_SPARK_REGTEST: secp256k1Format((pk) => sparkAddress(pk, 'regtest')),
};
