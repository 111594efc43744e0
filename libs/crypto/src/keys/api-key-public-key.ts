/**
 * The public half of an API key as clients register it: a compressed SEC1 point for P-256 and
 * secp256k1 (what the stampers put in `X-Stamp.publicKey`), 32 raw bytes for ed25519. Checked on
 * the curve, so a key that could never verify a stamp is refused when it is registered.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from './secp256k1.js';

export type TApiKeyCurveName = 'API_KEY_CURVE_P256' | 'API_KEY_CURVE_SECP256K1' | 'API_KEY_CURVE_ED25519';

/**
 * @returns the key in lowercase hex (the form stamps are matched in)
 * @throws TypeError naming the expected form when the key is not a valid point of `curve`
 */
export function normalizeApiKeyPublicKey(curve: TApiKeyCurveName, publicKeyHex: string): string {
  const hex = typeof publicKeyHex === 'string' ? publicKeyHex.toLowerCase() : '';
  const expect = curve === 'API_KEY_CURVE_ED25519' ? 'a 32-byte ed25519 public key in hex (64 characters)' : `a compressed ${curve === 'API_KEY_CURVE_P256' ? 'P-256' : 'secp256k1'} public key in hex (66 characters, 02/03 prefix)`;
  const length = curve === 'API_KEY_CURVE_ED25519' ? 64 : 66;
  if (!/^[0-9a-f]+$/.test(hex) || hex.length !== length) throw new TypeError(`publicKey must be ${expect}`);
  try {
    if (curve === 'API_KEY_CURVE_P256') p256.Point.fromHex(hex).assertValidity();
    else if (curve === 'API_KEY_CURVE_SECP256K1') secp256k1.Point.fromHex(hex).assertValidity();
    else ed25519.Point.fromHex(hex).assertValidity();
  } catch {
    throw new TypeError(`publicKey is not a point of ${curve.replace('API_KEY_CURVE_', '')}: must be ${expect}`);
  }
  return hex;
}
