/**
 * Entry point for `X-Stamp`: decode the header, then dispatch to the verifier of its scheme.
 * Supported schemes are listed once, in `API_KEY_STAMP_SCHEMES`, and the switch below is exhaustive
 * over them.
 */
import { StampError } from '../errors.js';
import { API_KEY_STAMP_SCHEMES, type TApiKeyStamp, type TApiKeyStampScheme } from './api-key-stamp.types.js';
import { parseStampHeader } from './parse-stamp-header.js';
import { verifyEd25519Stamp } from './verify-ed25519.js';
import { verifyP256Stamp } from './verify-p256.js';
import { verifySecp256k1Eip191Stamp } from './verify-secp256k1-eip191.js';
import { assertNever } from '@latchkey/domain';

function isSupportedScheme(scheme: string): scheme is TApiKeyStampScheme {
  return (API_KEY_STAMP_SCHEMES as readonly string[]).includes(scheme);
}

/**
 * Decodes an `X-Stamp` header value and verifies its signature over the raw request body.
 * Returns the decoded stamp; the caller still has to look `publicKey` up in the organization.
 * @throws {StampError} `STAMP_MALFORMED` if the header cannot be decoded, `SCHEME_UNSUPPORTED` for
 *   a scheme outside `API_KEY_STAMP_SCHEMES`, `SIGNATURE_INVALID` if the signature does not verify.
 */
export function verifyApiKeyStamp(headerValue: string, body: Uint8Array): TApiKeyStamp {
  return verifyParsedApiKeyStamp(parseStampHeader(headerValue), body);
}

/**
 * `verifyApiKeyStamp` for a header already decoded by `parseStampHeader` (the server reads the
 * public key first to find the credential): the same checks, without decoding the header again.
 * @throws StampError SCHEME_UNSUPPORTED or SIGNATURE_INVALID
 */
export function verifyParsedApiKeyStamp(stamp: TApiKeyStamp, body: Uint8Array): TApiKeyStamp {
  const scheme = stamp.scheme;
  if (!isSupportedScheme(scheme)) {
    throw new StampError(
      'SCHEME_UNSUPPORTED',
      `stamp scheme ${JSON.stringify(scheme.slice(0, 64))} is not supported; expected one of ${API_KEY_STAMP_SCHEMES.join(', ')}`,
    );
  }
  switch (scheme) {
    case 'SIGNATURE_SCHEME_TK_API_P256':
      verifyP256Stamp(stamp, body);
      break;
    case 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191':
      verifySecp256k1Eip191Stamp(stamp, body);
      break;
    case 'SIGNATURE_SCHEME_TK_API_ED25519':
      verifyEd25519Stamp(stamp, body);
      break;
    default:
      assertNever(scheme);
  }
  return stamp;
}
