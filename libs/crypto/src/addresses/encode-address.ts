/**
 * One entry point from (curve, address format, public key) to an address. Each format family has
 * its own encoder module; a pair that makes no sense is refused with the curves that would do.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
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
 * @throws AddressFormatError for an unsupported pair.
 */
export function encodeAddress(curve: TCurveName, format: string, publicKey: Uint8Array): string {
  assertAddressFormat(curve, format);
  return FORMATS[format]!.encode(curve, publicKey);
}
