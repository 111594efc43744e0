/**
 * The error of passkey registration (attestation) verification.
 *
 * `reason` tells the caller what to report (all map to Turnkey's `REQUEST_INVALID`-style 400s, but
 * tests and logs need to tell a wrong challenge from a forged signature). Messages may name the
 * origin, rp id, format or algorithm; never key material.
 */

export type TWebauthnRegistrationErrorReason =
  /** A field is not base64url, clientDataJSON is not a JSON object, the CBOR does not decode, … */
  | 'MALFORMED'
  /** clientData `type` is not `webauthn.create` (e.g. an assertion was replayed as a registration). */
  | 'TYPE_MISMATCH'
  /** clientData `challenge` is not the intent's `challenge`. */
  | 'CHALLENGE_MISMATCH'
  /** clientData `origin` is not one of the allowed origins. */
  | 'ORIGIN_MISMATCH'
  /** The rpIdHash is not SHA-256 of one of the allowed rp ids. */
  | 'RP_ID_MISMATCH'
  /** The UP flag is clear. */
  | 'USER_NOT_PRESENT'
  /** UV was required and the flag is clear. */
  | 'USER_NOT_VERIFIED'
  /** The attested credential id is not the `credentialId` the client sent. */
  | 'CREDENTIAL_ID_MISMATCH'
  /** The credential key is not ES256 (P-256), the only kind passkey stamps can be verified with. */
  | 'UNSUPPORTED_ALGORITHM'
  /** The attestation format is not one the verifier knows. */
  | 'UNSUPPORTED_FORMAT'
  /** The attestation statement does not verify (forged or altered). */
  | 'ATTESTATION_INVALID';

/** A passkey registration was refused. */
export class WebauthnRegistrationError extends Error {
  override readonly name = 'WebauthnRegistrationError';

  constructor(
    readonly reason: TWebauthnRegistrationErrorReason,
    message: string,
  ) {
    super(message);
  }
}
