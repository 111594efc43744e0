/**
 * Solana addresses: the raw 32-byte ed25519 public key itself in base58 (Bitcoin alphabet), with no
 * version byte and no checksum, so the address decodes straight back to the key that signs for it.
 */
import { base58 } from '@scure/base';
import { assertBytes } from '../encoding.js';
import type { TFormatTable } from './format-spec.js';

/**
 * The Solana address (base58, 32 to 44 characters) of a raw 32-byte ed25519 public key.
 * @throws TypeError if `publicKey` is not 32 bytes.
 */
export function solanaAddress(publicKey: Uint8Array): string {
  assertBytes(publicKey, 'publicKey', 32);
  return base58.encode(publicKey);
}

export const SOLANA_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_SOLANA: { curves: ['CURVE_ED25519'], encode: (_curve, publicKey) => solanaAddress(publicKey) },
};
