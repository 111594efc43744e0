/**
 * Stellar account ids (`G…`): the StrKey encoding of an ed25519 public key — RFC 4648 base32
 * without padding of `version byte ‖ key ‖ CRC16-XMODEM(version byte ‖ key)`, the checksum
 * little-endian. The version byte for an account id is 6 << 3, which makes the first character `G`.
 *
 * Also home of CRC16-XMODEM, which TON's user-friendly addresses reuse (there big-endian).
 */
import { base32nopad } from '@scure/base';
import { assertBytes } from '../encoding.js';
import type { TFormatTable } from './format-spec.js';

/** StrKey version byte of an ed25519 public key (account id): 6 << 3, the `G` prefix. */
const STRKEY_ACCOUNT_ID_VERSION = 6 << 3;

/**
 * CRC-16/XMODEM: polynomial 0x1021, initial value 0, no reflection, no final xor (check value of
 * "123456789" is 0x31C3). Bitwise rather than table-driven: inputs are ~35 bytes, so a 512-byte
 * table would buy nothing measurable.
 */
export function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/**
 * The Stellar account id (`G…`, 56 characters) of a raw 32-byte ed25519 public key.
 * @throws TypeError if `publicKey` is not 32 bytes.
 */
export function stellarAddress(publicKey: Uint8Array): string {
  assertBytes(publicKey, 'publicKey', 32);
  const payload = new Uint8Array(1 + 32 + 2);
  payload[0] = STRKEY_ACCOUNT_ID_VERSION;
  payload.set(publicKey, 1);
  const crc = crc16Xmodem(payload.subarray(0, 33));
  // StrKey stores the checksum little-endian (unlike TON, which uses the same CRC big-endian).
  payload[33] = crc & 0xff;
  payload[34] = crc >> 8;
  return base32nopad.encode(payload);
}

export const STELLAR_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_XLM: { curves: ['CURVE_ED25519'], encode: (_curve, publicKey) => stellarAddress(publicKey) },
};
