/**
 * `X-Stamp-Attested` (protocol notes §1b): base64url JSON `{publicKeyAttestation, scheme,
 * publicKey, signature}`. The request is signed like an `X-Stamp` P-256 stamp (DER over the raw
 * body) by a fresh client key, and the key itself is vouched for by an attestation: an OTP
 * verification token bound to it (`STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN`) or an OIDC
 * token whose nonce is sha256 of it (`STAMP_ATTESTED_SCHEME_P256_OIDC`). This module checks the
 * signature and the shape; the caller checks the attestation (it needs server keys and I/O).
 */
import { StampError } from '../errors.js';
import { verifyP256Stamp } from './verify-p256.js';

export const ATTESTED_STAMP_SCHEMES = ['STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', 'STAMP_ATTESTED_SCHEME_P256_OIDC'] as const;
export type TAttestedStampScheme = (typeof ATTESTED_STAMP_SCHEMES)[number];

export interface TAttestedStamp {
  scheme: TAttestedStampScheme;
  /** Compressed P-256 public key, lowercase hex. */
  publicKey: string;
  /** The verification token or OIDC token vouching for the key. */
  publicKeyAttestation: string;
  /** DER hex over the raw body, as verified. */
  signature: string;
}

const MAX_HEADER = 16_384;

/**
 * Decodes the header and verifies its signature over `body`.
 * @throws {StampError} STAMP_MALFORMED, SCHEME_UNSUPPORTED or SIGNATURE_INVALID
 */
export function verifyAttestedStamp(headerValue: string, body: Uint8Array): TAttestedStamp {
  if (typeof headerValue !== 'string' || headerValue.length === 0 || headerValue.length > MAX_HEADER || !/^[A-Za-z0-9_-]+={0,2}$/.test(headerValue)) {
    throw new StampError('STAMP_MALFORMED', 'X-Stamp-Attested must be base64url of a JSON object');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(headerValue, 'base64url').toString('utf8'));
  } catch {
    throw new StampError('STAMP_MALFORMED', 'X-Stamp-Attested is not base64url of JSON');
  }
  const s = parsed as Record<string, unknown> | null;
  if (typeof s !== 'object' || s === null) throw new StampError('STAMP_MALFORMED', 'X-Stamp-Attested must hold a JSON object');
  const { scheme, publicKey, signature, publicKeyAttestation } = s;
  if (typeof publicKey !== 'string' || typeof signature !== 'string' || typeof publicKeyAttestation !== 'string' || publicKeyAttestation.length === 0) {
    throw new StampError('STAMP_MALFORMED', 'X-Stamp-Attested needs string fields publicKey, signature and publicKeyAttestation');
  }
  if (!ATTESTED_STAMP_SCHEMES.includes(scheme as TAttestedStampScheme)) {
    throw new StampError('SCHEME_UNSUPPORTED', `unsupported attested stamp scheme ${JSON.stringify(scheme)}; expected one of ${ATTESTED_STAMP_SCHEMES.join(', ')}`);
  }
  verifyP256Stamp({ publicKey: publicKey.toLowerCase(), scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signature.toLowerCase() }, body);
  return { scheme: scheme as TAttestedStampScheme, publicKey: publicKey.toLowerCase(), publicKeyAttestation, signature: signature.toLowerCase() };
}
