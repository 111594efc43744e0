/**
 * Read-only sessions (create_read_only_session, issue 16 §4): an opaque bearer token presented as
 * the `X-Session` header instead of a stamp, good for queries of its user's organization only.
 * The token is 32 bytes from the CSPRNG; only its SHA-256 is stored, so neither the database nor
 * a log of it can be presented. There is no signature over the body: whoever holds the token may
 * read, which is why it cannot submit anything and expires (1 hour by default, Turnkey's).
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';

/** Turnkey's lifetime of a read-only session: one hour. */
export const DEFAULT_READ_ONLY_SESSION_SECONDS = 3600;

/** The header a read-only session is presented in (Node lowercases header names). */
export const SESSION_HEADER = 'x-session';

const PREFIX = 'lkro_';
const TOKEN_SHAPE = /^lkro_[A-Za-z0-9_-]{43}$/;

/** A fresh token and the hash to store. */
export function newReadOnlySessionToken(): { token: string; tokenHash: string } {
  const token = PREFIX + randomBytes(32).toString('base64url');
  return { token, tokenHash: readOnlySessionTokenHash(token) };
}

/** The stored form of a token: hex SHA-256 of its UTF-8 bytes. */
export function readOnlySessionTokenHash(token: string): string {
  return sha256Hex(Buffer.from(token, 'utf8'));
}

/**
 * The X-Session header's token, checked for shape only (a malformed one costs no query).
 * @throws AppError UNAUTHENTICATED (401) when it is not a read-only session token
 */
export function sessionTokenOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header.join(', ') : (header ?? '');
  if (!TOKEN_SHAPE.test(value.trim())) {
    throw new AppError('UNAUTHENTICATED', 'X-Session: not a read-only session token (create_read_only_session returns one as `session`)');
  }
  return value.trim();
}

/**
 * The lifetime of new read-only sessions: LATCHKEY_READ_ONLY_SESSION_SECONDS when set (a
 * positive integer), else one hour.
 */
export function readOnlySessionSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = env['LATCHKEY_READ_ONLY_SESSION_SECONDS'];
  if (raw === undefined || raw === '') return DEFAULT_READ_ONLY_SESSION_SECONDS;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`LATCHKEY_READ_ONLY_SESSION_SECONDS must be a positive integer of seconds, got ${JSON.stringify(raw)}`);
  return n;
}
