/**
 * Picks the one stamp header of a request. Turnkey clients send exactly one of `X-Stamp`,
 * `X-Stamp-Webauthn` or `X-Stamp-Attested`; a request carrying several is refused rather than
 * guessing which one authenticates it.
 */
import { StampError } from '../errors.js';

/** Header names as Node reports them (lowercase). */
export const STAMP_HEADER_NAMES = ['x-stamp', 'x-stamp-webauthn', 'x-stamp-attested'] as const;

/** The stamp header of a request, by kind, with its raw value. */
export type TStampHeader =
  | { kind: 'api-key'; value: string }
  | { kind: 'webauthn'; value: string }
  | { kind: 'attested'; value: string };

/**
 * Selects the stamp header from Node-style headers (lowercase keys).
 * @throws {StampError} `SIGNATURE_MISSING` if none is present; `MULTIPLE_STAMPS` if more than one is
 *   present or one is repeated.
 */
export function selectStampHeader(
  headers: Record<string, string | string[] | undefined>,
): TStampHeader {
  const present = STAMP_HEADER_NAMES.filter((name) => headers[name] !== undefined);
  if (present.length === 0) {
    throw new StampError(
      'SIGNATURE_MISSING',
      'request is not stamped: expected one of the X-Stamp, X-Stamp-Webauthn or X-Stamp-Attested headers',
    );
  }
  if (present.length > 1) {
    throw new StampError(
      'MULTIPLE_STAMPS',
      `request carries more than one stamp header (${present.join(', ')}); send exactly one`,
    );
  }
  const name = present[0]!;
  const value = headers[name];
  // Node joins a repeated custom header into one string with ", ". A base64url X-Stamp never
  // contains a comma, so a comma there means the header was sent twice.
  if (typeof value !== 'string' || (name === 'x-stamp' && value.includes(','))) {
    throw new StampError('MULTIPLE_STAMPS', `the ${name} header was sent more than once; send exactly one`);
  }
  switch (name) {
    case 'x-stamp':
      return { kind: 'api-key', value };
    case 'x-stamp-webauthn':
      return { kind: 'webauthn', value };
    case 'x-stamp-attested':
      return { kind: 'attested', value };
  }
}
