/**
 * The one error type of the encrypted-bundle module (HPKE, signed envelopes, export / import /
 * credential bundles).
 *
 * Bundles carry key material, so messages name the field that was wrong and never echo plaintext,
 * private keys, ciphertext or the bundle itself; `reason` is stable for callers to map onto
 * Turnkey error codes / HTTP statuses.
 */

/** Why a bundle operation was refused. */
export type TBundleErrorReason =
  /** A caller-supplied argument has the wrong type or shape (a programmer error, or unvalidated input). */
  | 'INVALID_ARGUMENT'
  /** A public key is not hex of a valid SEC1 P-256 point. */
  | 'INVALID_PUBLIC_KEY'
  /** A private key is not 32 bytes of a valid scalar for its curve. */
  | 'INVALID_PRIVATE_KEY'
  /** The signer's private and public keys do not belong together. */
  | 'SIGNER_MISMATCH'
  /** An encrypted bundle is not the JSON / hex / length its format requires. */
  | 'BUNDLE_MALFORMED'
  /** HPKE open failed: wrong recipient key, or the ciphertext, enc or AAD were altered. */
  | 'DECRYPTION_FAILED'
  /** Decryption succeeded but the plaintext is not what the bundle kind must contain. */
  | 'PLAINTEXT_INVALID';

/** An encrypted bundle could not be built or opened. */
export class BundleError extends Error {
  override readonly name = 'BundleError';

  constructor(
    readonly reason: TBundleErrorReason,
    message: string,
  ) {
    // No `cause`: underlying crypto errors are deliberately not chained, so nothing they might
    // carry can reach logs or responses.
    super(message);
  }
}
