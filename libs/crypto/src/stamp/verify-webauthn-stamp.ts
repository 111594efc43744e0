/**
 * `X-Stamp-Webauthn` (passkey stamp): decode the header and verify the WebAuthn assertion over the
 * request body.
 *
 * The header is plain JSON (not base64) of `{authenticatorData, clientDataJson, credentialId,
 * signature}`, each base64url. The assertion's challenge is the UTF-8 bytes of the lowercase hex
 * SHA-256 of the body (64 bytes, not the 32-byte digest): see the protocol notes §2. The signature
 * is ES256 (DER) over `authenticatorData || sha256(clientDataJSON)`, checked with node:crypto.
 * The caller looks the credential up by `credentialId`, and checks the returned origin (and, if it
 * wants, the rpIdHash at the start of authenticatorData).
 */
import { createHash, verify } from 'node:crypto';
import { StampError } from '../errors.js';
import { assertBytes, decodeBase64Any, decodeUtf8, encodeBase64Url, encodeHex } from '../encoding.js';
import { p256PublicKeyObject } from '../keys/key-objects.js';

/** A decoded `X-Stamp-Webauthn` header; not yet verified. */
export type TWebauthnStamp = {
  /** Credential id as base64url without padding (the form stored at registration). */
  credentialId: string;
  authenticatorData: Uint8Array;
  /** The exact clientDataJSON bytes the authenticator signed (hashed). */
  clientDataJson: Uint8Array;
  /** DER ECDSA signature. */
  signature: Uint8Array;
};

/** Bound on the header value; real assertions are well under 2 KiB. */
export const MAX_WEBAUTHN_STAMP_HEADER_LENGTH = 16384;

// rpIdHash (32) + flags (1) + signCount (4).
const MIN_AUTHENTICATOR_DATA_BYTES = 37;

function malformed(detail: string): StampError {
  return new StampError('STAMP_MALFORMED', `X-Stamp-Webauthn header is malformed: ${detail}`);
}

function requireBase64Field(record: Record<string, unknown>, field: string): Uint8Array {
  const value = record[field];
  if (typeof value !== 'string' || value.length === 0) {
    throw malformed(`"${field}" must be a non-empty base64url string`);
  }
  const bytes = decodeBase64Any(value);
  if (!bytes || bytes.length === 0) {
    throw malformed(`"${field}" is not base64url`);
  }
  return bytes;
}

/**
 * Decodes an `X-Stamp-Webauthn` header value (plain JSON). Extra fields are ignored.
 * @throws {StampError} `STAMP_MALFORMED` if it is not a JSON object with the four base64url fields,
 *   or authenticatorData is shorter than 37 bytes.
 */
export function parseWebauthnStamp(headerValue: string): TWebauthnStamp {
  if (typeof headerValue !== 'string') {
    throw malformed('expected a string');
  }
  if (headerValue.length > MAX_WEBAUTHN_STAMP_HEADER_LENGTH) {
    throw malformed(`value is longer than ${MAX_WEBAUTHN_STAMP_HEADER_LENGTH} characters`);
  }
  let json: unknown;
  try {
    json = JSON.parse(headerValue);
  } catch {
    throw malformed('value is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw malformed('value is not a JSON object');
  }
  const record = json as Record<string, unknown>;
  const authenticatorData = requireBase64Field(record, 'authenticatorData');
  const clientDataJson = requireBase64Field(record, 'clientDataJson');
  const credentialId = requireBase64Field(record, 'credentialId');
  const signature = requireBase64Field(record, 'signature');
  if (authenticatorData.length < MIN_AUTHENTICATOR_DATA_BYTES) {
    throw malformed(
      `"authenticatorData" is ${authenticatorData.length} bytes, expected at least ${MIN_AUTHENTICATOR_DATA_BYTES}`,
    );
  }
  return {
    credentialId: encodeBase64Url(credentialId),
    authenticatorData,
    clientDataJson,
    signature,
  };
}

/**
 * The WebAuthn challenge a client must have signed for `body`:
 * base64url(utf8(lowercase hex(sha256(body)))), as it appears in clientDataJSON.
 * @throws {TypeError} if `body` is not a Uint8Array.
 */
export function expectedWebauthnChallenge(body: Uint8Array): string {
  assertBytes(body, 'body');
  const hex = createHash('sha256').update(body).digest('hex');
  return Buffer.from(hex, 'utf8').toString('base64url');
}

function invalid(detail: string): StampError {
  return new StampError('SIGNATURE_INVALID', `WebAuthn stamp does not verify: ${detail}`);
}

/**
 * Verifies a passkey assertion over the raw request body with the credential's stored public key
 * (SEC1 P-256, compressed or uncompressed). Returns the clientData `origin`, for the caller to check
 * against the organization's allowed origins.
 * @throws {StampError} `STAMP_MALFORMED` if clientDataJSON is not a JSON object; `SIGNATURE_INVALID`
 *   if its type is not `webauthn.get`, the challenge does not match the body, the public key is not
 *   a P-256 point, or the signature does not verify.
 */
export function verifyWebauthnStamp(
  stamp: TWebauthnStamp,
  body: Uint8Array,
  publicKey: Uint8Array,
): string {
  assertBytes(body, 'body');
  assertBytes(publicKey, 'publicKey');
  assertBytes(stamp.authenticatorData, 'stamp.authenticatorData');
  assertBytes(stamp.clientDataJson, 'stamp.clientDataJson');
  assertBytes(stamp.signature, 'stamp.signature');

  const clientDataText = decodeUtf8(stamp.clientDataJson);
  let clientData: unknown;
  try {
    clientData = clientDataText === undefined ? undefined : JSON.parse(clientDataText);
  } catch {
    clientData = undefined;
  }
  if (typeof clientData !== 'object' || clientData === null || Array.isArray(clientData)) {
    throw malformed('clientDataJson is not a JSON object');
  }
  const { type, challenge, origin } = clientData as Record<string, unknown>;
  if (type !== 'webauthn.get') {
    throw invalid(`clientData type is ${JSON.stringify(type)}, expected "webauthn.get"`);
  }
  // Compare decoded bytes rather than strings, so a padded or standard-alphabet challenge from an
  // unusual client still matches.
  const challengeBytes = typeof challenge === 'string' ? decodeBase64Any(challenge) : undefined;
  const expected = Buffer.from(expectedWebauthnChallenge(body), 'base64url');
  if (!challengeBytes || !expected.equals(challengeBytes)) {
    throw invalid('clientData challenge does not match the request body');
  }
  if (typeof origin !== 'string') {
    throw invalid('clientData origin is missing');
  }

  const keyObject = p256PublicKeyObject(publicKey);
  if (!keyObject) {
    throw invalid(`stored public key ${encodeHex(publicKey)} is not a P-256 point`);
  }
  const clientDataHash = createHash('sha256').update(stamp.clientDataJson).digest();
  const signedData = Buffer.concat([stamp.authenticatorData, clientDataHash]);
  let ok = false;
  try {
    ok = verify('sha256', signedData, keyObject, stamp.signature);
  } catch {
    ok = false;
  }
  if (!ok) {
    throw invalid(`signature does not verify for credential ${stamp.credentialId}`);
  }
  return origin;
}
