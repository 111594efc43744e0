/** What an address-format family module declares for each format it encodes. */
import type { TCurveName } from '../derivation/derive-key.js';

export interface TFormatSpec {
  /** Curves whose keys this format can encode. */
  curves: readonly TCurveName[];
  /**
   * Encodes a public key: compressed SEC1 (33 bytes) for secp256k1 and P-256, raw 32 bytes for
   * ed25519 — the forms derivation produces.
   */
  encode(curve: TCurveName, publicKey: Uint8Array): string;
}

export type TFormatTable = Readonly<Record<string, TFormatSpec>>;
