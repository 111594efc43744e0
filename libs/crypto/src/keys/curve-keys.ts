/**
 * Standalone key pairs on the three curves (private keys, as opposed to HD wallet accounts), in
 * the forms derivation produces: compressed SEC1 public keys for secp256k1 and P-256, raw 32-byte
 * keys for ed25519. Private keys are secrets: callers seal them in the vault and wipe the bytes.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from './secp256k1.js';
import type { TCurveName } from '../derivation/derive-key.js';
import { assertNever } from '@latchkey/domain';

export interface TCurveKeyPair {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

/** The public key of a private key on `curve`. @throws Error for an invalid private key. */
export function publicKeyForCurve(curve: TCurveName, privateKey: Uint8Array): Uint8Array {
  if (!(privateKey instanceof Uint8Array) || privateKey.length !== 32) throw new Error('privateKey must be 32 bytes');
  switch (curve) {
    case 'CURVE_SECP256K1':
      return secp256k1.getPublicKey(privateKey, true);
    case 'CURVE_P256':
      return p256.getPublicKey(privateKey, true);
    case 'CURVE_ED25519':
      return ed25519.getPublicKey(privateKey);
    default:
      return assertNever(curve);
  }
}

/** A fresh random key pair on `curve` (from the platform's CSPRNG). */
export function generateCurveKeyPair(curve: TCurveName): TCurveKeyPair {
  const privateKey =
    curve === 'CURVE_SECP256K1' ? secp256k1.utils.randomSecretKey() : curve === 'CURVE_P256' ? p256.utils.randomSecretKey() : ed25519.utils.randomSecretKey();
  return { privateKey, publicKey: publicKeyForCurve(curve, privateKey) };
}
