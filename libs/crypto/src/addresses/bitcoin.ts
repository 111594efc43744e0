/**
 * Bitcoin addresses of one secp256k1 key, for the 20 `ADDRESS_FORMAT_BITCOIN_<NETWORK>_<TYPE>`
 * formats. A format name says only "network + script type", so the script each type stands for is
 * our convention, chosen to be what a single-key wallet would use:
 *
 * - `P2PKH`: `base58check(version || HASH160(pubkey))`.
 * - `P2SH` means P2SH-P2WPKH (BIP-49): the redeem script is the v0 witness program
 *   `OP_0 <HASH160(pubkey)>`, so a P2SH address still spends with a segwit signature.
 * - `P2WPKH` (BIP-84): bech32 witness v0 of `HASH160(pubkey)`.
 * - `P2WSH`: bech32 witness v0 of `SHA256(<33-byte pubkey> OP_CHECKSIG)`, the smallest single-key
 *   witness script (there is no standard "single-key P2WSH"; multisig would need more keys).
 * - `P2TR` is BIP-86 key-path-only: the output key is `P + taggedHash('TapTweak', x(P))·G` with
 *   no script tree, so nobody can hide a script path in it; bech32m witness v1 of x-only `Q`.
 *
 * Networks: signet shares testnet's base58 versions and `tb` hrp (it is a testnet to wallets);
 * regtest shares testnet's base58 versions but has its own `bcrt` hrp, as Bitcoin Core does.
 *
 * Keys must be 33-byte compressed SEC1: the address depends on the key's serialisation (HASH160 of
 * an uncompressed key is another address), so we refuse the other form rather than guess.
 */
import { schnorr, secp256k1 } from '../keys/secp256k1.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import type { TCurveName } from '../derivation/derive-key.js';
import { assertBytes } from '../encoding.js';
import type { TFormatSpec, TFormatTable } from './format-spec.js';

export type TBitcoinNetwork = 'mainnet' | 'testnet' | 'signet' | 'regtest';
export type TBitcoinAddressType = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr';

export interface TBitcoinNetworkParams {
  /** base58check version byte of P2PKH addresses. */
  pubKeyHash: number;
  /** base58check version byte of P2SH addresses. */
  scriptHash: number;
  /** bech32/bech32m human-readable part of segwit addresses. */
  bech32: string;
}

export const BITCOIN_NETWORKS: Readonly<Record<TBitcoinNetwork, TBitcoinNetworkParams>> = {
  mainnet: { pubKeyHash: 0x00, scriptHash: 0x05, bech32: 'bc' },
  testnet: { pubKeyHash: 0x6f, scriptHash: 0xc4, bech32: 'tb' },
  signet: { pubKeyHash: 0x6f, scriptHash: 0xc4, bech32: 'tb' },
  regtest: { pubKeyHash: 0x6f, scriptHash: 0xc4, bech32: 'bcrt' },
};

const OP_0 = 0x00;
const OP_CHECKSIG = 0xac;
const PUSH_20 = 0x14;
const PUSH_33 = 0x21;

const base58check = createBase58check(sha256);

/** Bitcoin's HASH160: RIPEMD-160 of SHA-256, the 20-byte key and script hash. */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/**
 * Asserts a 33-byte compressed SEC1 key that is a point of secp256k1. Checking the point, not only
 * the length, keeps a P-256 key (same length, same prefixes) from yielding a plausible address.
 * @throws TypeError naming `field`.
 */
export function assertCompressedSecp256k1(publicKey: unknown, field = 'publicKey'): asserts publicKey is Uint8Array {
  assertBytes(publicKey, field, 33);
  if (publicKey[0] !== 0x02 && publicKey[0] !== 0x03) throw new TypeError(`${field} must be a compressed SEC1 key (prefix 02 or 03), got prefix ${publicKey[0]}`);
  try {
    secp256k1.Point.fromBytes(publicKey);
  } catch {
    throw new TypeError(`${field} is not a point of secp256k1`);
  }
}

/**
 * A format spec for encoders that take secp256k1 keys only. It checks the curve itself because
 * table entries can be called without going through `encodeAddress`.
 */
export function secp256k1Format(encode: (publicKey: Uint8Array) => string): TFormatSpec {
  return {
    curves: ['CURVE_SECP256K1'],
    encode(curve: TCurveName, publicKey: Uint8Array): string {
      if (curve !== 'CURVE_SECP256K1') throw new TypeError(`curve must be CURVE_SECP256K1, got ${curve}`);
      return encode(publicKey);
    },
  };
}

/** `base58check(version || hash)`: the legacy P2PKH/P2SH address shape. */
export function base58CheckAddress(version: number, hash: Uint8Array): string {
  if (!Number.isInteger(version) || version < 0 || version > 0xff) throw new TypeError(`version must be one byte, got ${version}`);
  assertBytes(hash, 'hash', 20);
  return base58check.encode(concatBytes(Uint8Array.of(version), hash));
}

/**
 * A BIP-173/BIP-350 segwit address: bech32 for witness v0, bech32m from v1 on (BIP-350 changed
 * the checksum because bech32 lets some edits of v1+ addresses go undetected).
 */
export function segwitAddress(hrp: string, witnessVersion: number, program: Uint8Array): string {
  if (!Number.isInteger(witnessVersion) || witnessVersion < 0 || witnessVersion > 16) throw new TypeError(`witnessVersion must be 0..16, got ${witnessVersion}`);
  assertBytes(program, 'program');
  if (program.length < 2 || program.length > 40) throw new TypeError(`program must be 2..40 bytes, got ${program.length}`);
  const words = [witnessVersion, ...bech32.toWords(program)];
  return witnessVersion === 0 ? bech32.encode(hrp, words) : bech32m.encode(hrp, words);
}

/** P2PKH address of a compressed secp256k1 key under `version` (also used by Dogecoin). */
export function p2pkhAddress(publicKey: Uint8Array, version: number): string {
  assertCompressedSecp256k1(publicKey);
  return base58CheckAddress(version, hash160(publicKey));
}

/**
 * BIP-86 output key: `P + t·G` with `t = taggedHash('TapTweak', x(P))`, `P` being the even-Y key
 * of the same x. Returned x-only (32 bytes), as the witness program holds it.
 * @throws TypeError for an invalid key; Error in the ~2^-128 cases where the tweak is unusable.
 */
export function taprootOutputKey(publicKey: Uint8Array): Uint8Array {
  assertCompressedSecp256k1(publicKey);
  const xOnly = publicKey.subarray(1);
  // BIP-340 keys are x-only: the internal key is the even-Y point, whatever the key's parity.
  const internal = schnorr.utils.lift_x(bytesToNumberBE(xOnly));
  const tweak = bytesToNumberBE(schnorr.utils.taggedHash('TapTweak', xOnly));
  if (tweak >= secp256k1.Point.Fn.ORDER) throw new Error('taproot tweak is not below the curve order');
  const output = internal.add(secp256k1.Point.BASE.multiply(tweak));
  // multiply() refuses 0; add() can still reach infinity if t·G = -P, which would be unspendable.
  if (output.equals(secp256k1.Point.ZERO)) throw new Error('taproot output key is the point at infinity');
  return schnorr.utils.pointToBytes(output);
}

/**
 * Address of one compressed secp256k1 key on a network, under our script convention per type
 * (see the module header).
 * @throws TypeError for a key that is not a 33-byte compressed secp256k1 point.
 */
export function bitcoinAddress(publicKey: Uint8Array, network: TBitcoinNetwork, type: TBitcoinAddressType): string {
  const params = BITCOIN_NETWORKS[network];
  if (!params) throw new TypeError(`network must be one of ${Object.keys(BITCOIN_NETWORKS).join(', ')}, got ${String(network)}`);
  assertCompressedSecp256k1(publicKey);
  switch (type) {
    case 'p2pkh':
      return base58CheckAddress(params.pubKeyHash, hash160(publicKey));
    case 'p2sh': {
      const redeemScript = concatBytes(Uint8Array.of(OP_0, PUSH_20), hash160(publicKey));
      return base58CheckAddress(params.scriptHash, hash160(redeemScript));
    }
    case 'p2wpkh':
      return segwitAddress(params.bech32, 0, hash160(publicKey));
    case 'p2wsh': {
      const witnessScript = concatBytes(Uint8Array.of(PUSH_33), publicKey, Uint8Array.of(OP_CHECKSIG));
      return segwitAddress(params.bech32, 0, sha256(witnessScript));
    }
    case 'p2tr':
      return segwitAddress(params.bech32, 1, taprootOutputKey(publicKey));
    default:
      throw new TypeError(`type must be one of p2pkh, p2sh, p2wpkh, p2wsh, p2tr, got ${String(type satisfies never)}`);
  }
}

const btc = (network: TBitcoinNetwork, type: TBitcoinAddressType): TFormatSpec => secp256k1Format((pk) => bitcoinAddress(pk, network, type));

export const BITCOIN_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH: btc('mainnet', 'p2pkh'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH: btc('mainnet', 'p2sh'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH: btc('mainnet', 'p2wpkh'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH: btc('mainnet', 'p2wsh'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR: btc('mainnet', 'p2tr'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH: btc('testnet', 'p2pkh'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH: btc('testnet', 'p2sh'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH: btc('testnet', 'p2wpkh'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH: btc('testnet', 'p2wsh'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR: btc('testnet', 'p2tr'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH: btc('signet', 'p2pkh'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH: btc('signet', 'p2sh'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH: btc('signet', 'p2wpkh'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH: btc('signet', 'p2wsh'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR: btc('signet', 'p2tr'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH: btc('regtest', 'p2pkh'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH: btc('regtest', 'p2sh'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH: btc('regtest', 'p2wpkh'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH: btc('regtest', 'p2wsh'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR: btc('regtest', 'p2tr'),
};
