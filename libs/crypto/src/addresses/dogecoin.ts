/**
 * Dogecoin addresses (`ADDRESS_FORMAT_DOGE_MAINNET` / `_TESTNET`): P2PKH only, since that is what
 * Dogecoin wallets hand out (it never activated segwit). Same construction as Bitcoin's P2PKH —
 * `base58check(version || HASH160(compressed pubkey))` — with Dogecoin's version bytes: 0x1e
 * ("D…") on mainnet, 0x71 ("n…") on testnet.
 */
import { p2pkhAddress, secp256k1Format } from './bitcoin.js';
import type { TFormatTable } from './format-spec.js';

export type TDogecoinNetwork = 'mainnet' | 'testnet';

export const DOGECOIN_PUBKEY_HASH: Readonly<Record<TDogecoinNetwork, number>> = { mainnet: 0x1e, testnet: 0x71 };

/**
 * @throws TypeError for a key that is not a 33-byte compressed secp256k1 point.
 */
export function dogecoinAddress(publicKey: Uint8Array, network: TDogecoinNetwork): string {
  const version = DOGECOIN_PUBKEY_HASH[network];
  if (version === undefined) throw new TypeError(`network must be mainnet or testnet, got ${String(network)}`);
  return p2pkhAddress(publicKey, version);
}

export const DOGECOIN_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_DOGE_MAINNET: secp256k1Format((pk) => dogecoinAddress(pk, 'mainnet')),
  ADDRESS_FORMAT_DOGE_TESTNET: secp256k1Format((pk) => dogecoinAddress(pk, 'testnet')),
};
