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

import type { TFormatSpec, TFormatTable } from './format-spec.js';

const sec1 = (curve: TCurveName, pk: Uint8Array, compressed: boolean): string => {
  const point = curve === 'CURVE_P256' ? p256.Point.fromBytes(pk) : secp256k1.Point.fromBytes(pk);
  return bytesToHex(point.toBytes(compressed));
};

/** Every format, from each family's table. */
const FORMATS: TFormatTable = {
  ADDRESS_FORMAT_ETHEREUM: { curves: ['CURVE_SECP256K1'], encode: (_c, pk) => ethereumAddress(pk) },
  ADDRESS_FORMAT_COMPRESSED: { curves: ['CURVE_SECP256K1'], encode: (c, pk) => sec1(c, pk, true) },
  ADDRESS_FORMAT_UNCOMPRESSED: { curves: ['CURVE_SECP256K1'], encode: (c, pk) => sec1(c, pk, false) },
};

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
