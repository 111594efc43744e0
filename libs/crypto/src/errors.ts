/**
 * Error classes thrown by @latchkey/crypto.
 *
 * This lib cannot depend on @latchkey/domain's AppError (it sits below it), so it throws its own
 * typed errors; the server maps `StampError.reason` straight onto Turnkey's `turnkeyErrorCode`
 * (SIGNATURE_MISSING, SIGNATURE_INVALID, ...). Messages never echo signatures, private keys or
 * plaintext: at most the public key, which is not secret and helps operators debug.
 */

/** Why a request stamp was refused. The first three are Turnkey `turnkeyErrorCode` values. */
export type TStampErrorReason =
  | 'SIGNATURE_MISSING'
  | 'SIGNATURE_INVALID'
  | 'STAMP_MALFORMED'
  | 'SCHEME_UNSUPPORTED'
  | 'MULTIPLE_STAMPS';

/** A request stamp is missing, malformed, of an unsupported kind, or does not verify. */
export class StampError extends Error {
  override readonly name = 'StampError';

  constructor(
    readonly reason: TStampErrorReason,
    message: string,
  ) {
    super(message);
  }
}

/** Why the key vault refused an operation. */
export type TVaultErrorReason =
  /** The master key text or bytes are not a 32-byte key. */
  | 'MASTER_KEY_INVALID'
  /** The sealed value was produced under a different master key (key ids differ). */
  | 'KEY_MISMATCH'
  /** The sealed value is not `v1.<keyId>.<iv>.<ciphertext>`. */
  | 'SEALED_MALFORMED'
  /** GCM authentication failed: the aad is wrong or the ciphertext was altered. */
  | 'AUTHENTICATION_FAILED';

/** The key vault (barrier) could not load a master key, or could not open a sealed value. */
export class VaultError extends Error {
  override readonly name = 'VaultError';

  constructor(
    readonly reason: TVaultErrorReason,
    message: string,
  ) {
    super(message);
  }
}
