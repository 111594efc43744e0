/**
 * Error classes of the login primitives (session JWTs, OTP verification tokens, client signatures).
 *
 * Like the other errors of this lib, `reason` is stable for the caller to map onto Turnkey error
 * codes, and messages never echo tokens, signatures, OTP codes or private keys: at most a claim
 * name or a public key.
 */

/** Why a login token (session JWT or OTP verification token) was refused. */
export type TLoginTokenErrorReason =
  /** Not three base64url parts, or a part is not JSON of the right shape. */
  | 'MALFORMED'
  /** The JOSE header is not `alg: ES256, typ: JWT`. */
  | 'UNSUPPORTED_HEADER'
  /** The signature is not 64 bytes or does not verify with the expected key. */
  | 'BAD_SIGNATURE'
  /** A required claim is missing, empty or of the wrong type. */
  | 'MISSING_CLAIM'
  /** The token's `exp` has passed. */
  | 'EXPIRED';

/** A login token could not be decoded or verified. */
export class LoginTokenError extends Error {
  override readonly name = 'LoginTokenError';

  constructor(
    readonly reason: TLoginTokenErrorReason,
    message: string,
  ) {
    super(message);
  }
}

/** Why a `clientSignature` (OTP login / signup proof of key possession) was refused. */
export type TClientSignatureErrorReason =
  /** `scheme` is not `CLIENT_SIGNATURE_SCHEME_API_P256`. */
  | 'SCHEME_UNSUPPORTED'
  /** `publicKey` is not hex of a P-256 point. */
  | 'PUBLIC_KEY_INVALID'
  /** `publicKey` is a valid key, but not the one the verification token is bound to. */
  | 'PUBLIC_KEY_MISMATCH'
  /** `signature` is neither 64-byte raw r‖s hex nor DER hex. */
  | 'SIGNATURE_MALFORMED'
  /** The signature does not verify over sha256(message). */
  | 'SIGNATURE_INVALID'
  /** `message` is not a token-usage JSON object of a known shape. */
  | 'MESSAGE_MALFORMED';

/** A client signature is malformed, bound to another key, or does not verify. */
export class ClientSignatureError extends Error {
  override readonly name = 'ClientSignatureError';

  constructor(
    readonly reason: TClientSignatureErrorReason,
    message: string,
  ) {
    super(message);
  }
}
