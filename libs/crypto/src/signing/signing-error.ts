/**
 * The one error signing throws for a request it refuses.
 *
 * Like `StampError` and `VaultError` (`../errors.ts`) it carries a stable `reason` the server maps to
 * a response, and a message meant for the API caller: it names the field and what was wrong with it,
 * and never echoes key material. Programmer errors (a private key that is not 32 bytes, a non-string
 * argument) stay `TypeError`s: they are bugs in the caller, not bad requests.
 */

/** Why a signing request was refused. */
export type TSigningErrorReason =
  /** The combination asked for makes no sense (hash function for the curve, encoding for the curve, curve for the transaction type). */
  | 'INVALID_REQUEST'
  /** The payload or unsigned transaction cannot be decoded, or is not canonical. */
  | 'MALFORMED_INPUT'
  /** The transaction does not ask this key for a signature (not a required Solana signer, no PSBT input of ours). */
  | 'NOT_A_SIGNER'
  /** A well-formed request of a kind Latchkey does not sign (TRON, TEMPO, an unknown Ethereum transaction type, ...). */
  | 'UNSUPPORTED';

/** A signing request was refused; `message` says why, for the API caller. */
export class SigningError extends Error {
  override readonly name = 'SigningError';

  constructor(
    readonly reason: TSigningErrorReason,
    message: string,
  ) {
    super(message);
  }
}
