/**
 * Types of the `X-Stamp` (API-key stamp) header, as decoded by `parseStampHeader`.
 */

/** Every API-key stamp scheme this server verifies, byte-exact with the wire strings. */
export const API_KEY_STAMP_SCHEMES = [
  'SIGNATURE_SCHEME_TK_API_P256',
  'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191',
  'SIGNATURE_SCHEME_TK_API_ED25519',
] as const;

export type TApiKeyStampScheme = (typeof API_KEY_STAMP_SCHEMES)[number];

/** A decoded `X-Stamp` header; not yet verified. */
export type TApiKeyStamp = {
  /** Public key as lowercase hex; its form depends on the scheme. */
  publicKey: string;
  /** Scheme string as sent; may be one this server does not support. */
  scheme: string;
  /** Signature as lowercase hex; its encoding depends on the scheme. */
  signature: string;
};
