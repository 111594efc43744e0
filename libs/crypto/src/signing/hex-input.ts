/**
 * Hex as callers send it in signing requests (internal). Turnkey's clients are inconsistent about
 * the `0x` prefix (viem strips it, some scripts keep it), so both spellings are accepted; anything
 * else (odd length, non-hex characters) is refused rather than truncated.
 */
import { decodeHex } from '../encoding.js';
import { SigningError } from './signing-error.js';

/**
 * Decodes hex with or without a `0x` prefix.
 * @throws {SigningError} `MALFORMED_INPUT` naming `field` if `text` is not even-length hex.
 */
export function decodeHexInput(text: string, field: string): Uint8Array {
  if (typeof text !== 'string') throw new TypeError(`${field} must be a string, got ${typeof text}`);
  const body = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  const bytes = decodeHex(body);
  if (!bytes) {
    throw new SigningError('MALFORMED_INPUT', `${field} must be hexadecimal with an even number of digits (0x prefix optional)`);
  }
  return bytes;
}
