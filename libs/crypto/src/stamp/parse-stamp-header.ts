/**
 * Decodes the `X-Stamp` header value: base64url (or base64, padding optional) of the JSON
 * `{publicKey, scheme, signature}`. Only the shape is checked here; the signature is checked by the
 * per-scheme verifiers.
 */
import { StampError } from '../errors.js';
import { decodeBase64Any, decodeUtf8, isHex } from '../encoding.js';
import type { TApiKeyStamp } from './api-key-stamp.types.js';

/**
 * Upper bound on the header value. A real stamp is about 400 characters; the bound keeps JSON.parse
 * of hostile input cheap.
 */
export const MAX_STAMP_HEADER_LENGTH = 8192;

function malformed(detail: string): StampError {
  return new StampError('STAMP_MALFORMED', `X-Stamp header is malformed: ${detail}`);
}

function requireHexField(json: Record<string, unknown>, field: 'publicKey' | 'signature'): string {
  const value = json[field];
  if (typeof value !== 'string') {
    throw malformed(`"${field}" must be a string`);
  }
  if (value.length === 0) {
    throw malformed(`"${field}" is empty`);
  }
  if (!isHex(value)) {
    throw malformed(`"${field}" must be an even-length hex string`);
  }
  return value.toLowerCase();
}

/**
 * Decodes an `X-Stamp` header value into its three fields, normalising hex to lowercase. Unknown
 * extra JSON fields are ignored (newer clients may add some).
 * @throws {StampError} `STAMP_MALFORMED` if the value is not base64 of a JSON object with string
 *   `publicKey` (hex), `scheme` and `signature` (hex).
 */
export function parseStampHeader(headerValue: string): TApiKeyStamp {
  if (typeof headerValue !== 'string') {
    throw malformed('expected a string');
  }
  const text = headerValue.trim();
  if (text.length === 0) {
    throw malformed('value is empty');
  }
  if (text.length > MAX_STAMP_HEADER_LENGTH) {
    throw malformed(`value is longer than ${MAX_STAMP_HEADER_LENGTH} characters`);
  }
  const bytes = decodeBase64Any(text);
  if (!bytes) {
    throw malformed('value is not base64url');
  }
  const jsonText = decodeUtf8(bytes);
  if (jsonText === undefined) {
    throw malformed('decoded value is not UTF-8');
  }
  let json: unknown;
  try {
    json = JSON.parse(jsonText);
  } catch {
    throw malformed('decoded value is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw malformed('decoded value is not a JSON object');
  }
  const record = json as Record<string, unknown>;
  const publicKey = requireHexField(record, 'publicKey');
  const scheme = record['scheme'];
  if (typeof scheme !== 'string' || scheme.length === 0) {
    throw malformed('"scheme" must be a non-empty string');
  }
  const signature = requireHexField(record, 'signature');
  return { publicKey, scheme, signature };
}
