/**
 * Strict hex and base64 codecs shared by the parsers in this lib (internal, not exported).
 *
 * Node's `Buffer.from(text, 'hex' | 'base64')` silently skips or truncates invalid input, which is
 * the wrong behaviour at a security boundary: two different header strings would decode to the same
 * bytes. These helpers validate first and return `undefined` on anything malformed, so each caller
 * can throw the error that fits its context.
 */

const HEX_DIGITS_RE = /^[0-9a-fA-F]*$/;
// Standard and URL alphabets are both accepted (clients differ); padding is optional.
const BASE64_ANY_RE = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** True for even-length hex (either case), the empty string included. */
export function isHex(text: string): boolean {
  // The length test and a group-free pattern: several times cheaper than `^(?:[0-9a-f]{2})*$` on
  // the hot path (every stamp's key and signature).
  return text.length % 2 === 0 && HEX_DIGITS_RE.test(text);
}

/** Decodes even-length hex (either case); `undefined` if it is not hex. */
export function decodeHex(text: string): Uint8Array | undefined {
  if (!isHex(text)) return undefined;
  return new Uint8Array(Buffer.from(text, 'hex'));
}

export function encodeHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/**
 * Decodes base64 or base64url, with or without padding; `undefined` if malformed.
 * Mixed alphabets are tolerated (they cannot be ambiguous), but the length must be one a real
 * encoder can produce and padding, if present, must be the right amount.
 */
export function decodeBase64Any(text: string): Uint8Array | undefined {
  if (!BASE64_ANY_RE.test(text)) return undefined;
  const unpadded = text.endsWith('=') ? text.replace(/=+$/, '') : text;
  const remainder = unpadded.length % 4;
  if (remainder === 1) return undefined;
  if (unpadded.length !== text.length && (unpadded.length + (4 - remainder)) !== text.length) {
    return undefined;
  }
  // Node's base64 decoder reads both alphabets; the pattern above has already refused anything else.
  const bytes = Buffer.from(unpadded, 'base64');
  // Reject non-canonical encodings (unused trailing bits set), so one value has one spelling.
  const standard = unpadded.includes('+') || unpadded.includes('/');
  if (bytes.toString('base64url') !== (standard ? unpadded.replace(/\+/g, '-').replace(/\//g, '_') : unpadded)) {
    return undefined;
  }
  return new Uint8Array(bytes);
}

/** base64url without padding, the form Turnkey clients send. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8, `undefined` if the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Asserts a Uint8Array argument, naming the field in the error (a programmer error, not input). */
export function assertBytes(value: unknown, field: string, length?: number): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new TypeError(`${field} must be a Uint8Array, got ${typeof value}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new TypeError(`${field} must be ${length} bytes, got ${value.length}`);
  }
}

/** Asserts a string argument, naming the field in the error. */
export function assertString(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new TypeError(`${field} must be a string, got ${typeof value}`);
  }
}
