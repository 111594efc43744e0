/**
 * One entry point from (curve, address format, public key) to an address. Each format family has
 * its own encoder module; a pair that makes no sense is refused with the curves that would do.
 */
import { secp256k1 } from '../keys/secp256k1.js';
import { p256 } from '@noble/curves/nist.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { TCurveName } from '../derivation/derive-key.js';
import { ethereumAddress } from './ethereum.js';

export class AddressFormatError extends Error {
  constructor(
    message: string,
    readonly allowedCurves: readonly TCurveName[],
  ) {
    super(message);
    this.name = 'AddressFormatError';
  }
}

import { APTOS_ADDRESS_FORMATS } from './aptos.js';
import { BITCOIN_ADDRESS_FORMATS } from './bitcoin.js';
import { COSMOS_ADDRESS_FORMATS } from './cosmos.js';
import { DOGECOIN_ADDRESS_FORMATS } from './dogecoin.js';
import type { TFormatTable } from './format-spec.js';
import { SOLANA_ADDRESS_FORMATS } from './solana.js';
import { SPARK_ADDRESS_FORMATS } from './spark.js';
import { STELLAR_ADDRESS_FORMATS } from './stellar.js';
import { SUI_ADDRESS_FORMATS } from './sui.js';
import { TON_ADDRESS_FORMATS } from './ton.js';
import { TRON_ADDRESS_FORMATS } from './tron.js';
import { XRP_ADDRESS_FORMATS } from './xrp.js';

/** Hex of the SEC1 point (ECDSA curves); ed25519's compressed form is its raw 32-byte key. */
function publicKeyHex(curve: TCurveName, pk: Uint8Array, compressed: boolean): string {
  if (curve === 'CURVE_ED25519') {
    if (pk.length !== 32) throw new TypeError('an ed25519 public key is 32 bytes');
    return bytesToHex(pk);
  }
  const point = curve === 'CURVE_P256' ? p256.Point.fromBytes(pk) : secp256k1.Point.fromBytes(pk);
  return bytesToHex(point.toBytes(compressed));
}

const KEY_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_ETHEREUM: { curves: ['CURVE_SECP256K1'], encode: (_c, pk) => ethereumAddress(pk) },
  ADDRESS_FORMAT_COMPRESSED: { curves: ['CURVE_SECP256K1', 'CURVE_P256', 'CURVE_ED25519'], encode: (c, pk) => publicKeyHex(c, pk, true) },
  ADDRESS_FORMAT_UNCOMPRESSED: { curves: ['CURVE_SECP256K1', 'CURVE_P256'], encode: (c, pk) => publicKeyHex(c, pk, false) },
};

/**
 * Formats whose encoder hashes or prints the uncompressed point and accepts it as input (each
 * also accepts the compressed form): given the uncompressed key, they skip a decompression.
 */
const TAKES_UNCOMPRESSED: ReadonlySet<string> = new Set(['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_TRON', 'ADDRESS_FORMAT_UNCOMPRESSED']);

/**
 * Asserts that `uncompressed` (0x04 ‖ x ‖ y) is the same point as `compressed` (0x02/0x03 ‖ x):
 * same x, and y's parity as the prefix says. With the encoder's on-curve check of `uncompressed`,
 * that pins the point, so an address can never be computed from a key the caller did not name.
 */
function aSamePoint(compressed: Uint8Array, uncompressed: Uint8Array): void {
  if (!(uncompressed instanceof Uint8Array) || uncompressed.length !== 65 || uncompressed[0] !== 0x04) {
    throw new TypeError('uncompressedPublicKey must be 65 bytes of uncompressed SEC1 (0x04 ‖ x ‖ y)');
  }
  if (compressed.length !== 33) throw new TypeError('uncompressedPublicKey is only given with a 33-byte compressed publicKey');
  const sameX = Buffer.from(compressed.subarray(1)).equals(Buffer.from(uncompressed.subarray(1, 33)));
  if (!sameX || compressed[0] !== 0x02 + (uncompressed[64]! & 1)) throw new TypeError('uncompressedPublicKey is not the same point as publicKey');
}

/** All 38 formats of the specification, from each family's table. */
const FORMATS: TFormatTable = {
  ...KEY_FORMATS,
  ...BITCOIN_ADDRESS_FORMATS,
  ...DOGECOIN_ADDRESS_FORMATS,
  ...SPARK_ADDRESS_FORMATS,
  ...COSMOS_ADDRESS_FORMATS,
  ...TRON_ADDRESS_FORMATS,
  ...XRP_ADDRESS_FORMATS,
  ...SOLANA_ADDRESS_FORMATS,
  ...SUI_ADDRESS_FORMATS,
  ...APTOS_ADDRESS_FORMATS,
  ...STELLAR_ADDRESS_FORMATS,
  ...TON_ADDRESS_FORMATS,
};

/** Every supported format name. */
export const SUPPORTED_ADDRESS_FORMATS: readonly string[] = Object.keys(FORMATS);

/** Curves an address format accepts (empty when the format is not supported yet). */
export function curvesForAddressFormat(format: string): readonly TCurveName[] {
  return FORMATS[format]?.curves ?? [];
}

/**
 * Throws unless the (curve, format) pair is supported.
 * @throws AddressFormatError naming the curves the format allows.
 */
export function assertAddressFormat(curve: TCurveName, format: string): void {
  const spec = FORMATS[format];
  if (!spec) throw new AddressFormatError(`address format ${format} is not supported yet (supported: ${Object.keys(FORMATS).join(', ')})`, []);
  if (!spec.curves.includes(curve)) throw new AddressFormatError(`address format ${format} needs curve ${spec.curves.join(' or ')}, not ${curve}`, spec.curves);
}

/**
 * The address of `publicKey` (compressed SEC1 for secp256k1 and P-256, raw 32 bytes for ed25519).
 * `uncompressedPublicKey`, when the caller has it anyway (`TDerivedKey.uncompressedPublicKey`),
 * is the same point uncompressed: formats built on that form use it instead of decompressing.
 * @throws AddressFormatError for an unsupported pair.
 * @throws TypeError when `uncompressedPublicKey` is malformed or not the point of `publicKey`.
 */
export function encodeAddress(curve: TCurveName, format: string, publicKey: Uint8Array, uncompressedPublicKey?: Uint8Array): string {
  assertAddressFormat(curve, format);
  if (uncompressedPublicKey === undefined) return FORMATS[format]!.encode(curve, publicKey);
  if (curve === 'CURVE_ED25519') throw new TypeError('an ed25519 key has no uncompressed form');
  aSamePoint(publicKey, uncompressedPublicKey);
  return FORMATS[format]!.encode(curve, TAKES_UNCOMPRESSED.has(format) ? uncompressedPublicKey : publicKey);
}
