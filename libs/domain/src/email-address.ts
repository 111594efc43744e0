/**
 * E-mail addresses as RFC 5321 §4.1.2 mailboxes: `Local-part "@" Domain`. The local part is a
 * dot-string of atoms (letters, digits and ``!#$%&'*+-/=?^_`{|}~``) or a quoted string; the domain a
 * dot-separated host name of at least two labels, or an address literal (`[192.0.2.1]`,
 * `[IPv6:…]`). zod's own e-mail check refused legal local parts (`a~b`, `x?y`, `p&q`), so every
 * e-mail field of the wire uses this one instead.
 */
import { z } from 'zod';

/** atext of RFC 5322 §3.2.3, as RFC 5321's Atom uses it. */
const ATOM = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~]+";
const DOT_STRING = `${ATOM}(?:\\.${ATOM})*`;
/** qtextSMTP (%d32-33 / %d35-91 / %d93-126) or quoted-pairSMTP (backslash then %d32-126). */
const QUOTED_STRING = '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*"';
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DOMAIN = `${LABEL}(?:\\.${LABEL})+`;
const ADDRESS_LITERAL = '\\[(?:[0-9]{1,3}(?:\\.[0-9]{1,3}){3}|IPv6:[0-9A-Fa-f:.]+)\\]';
const MAILBOX = new RegExp(`^(?:${DOT_STRING}|${QUOTED_STRING})@(?:${DOMAIN}|${ADDRESS_LITERAL})$`);

/** RFC 5321 §4.5.3.1: local part ≤ 64 octets, a forward path ≤ 256 octets (so an address ≤ 254). */
export const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_PART_LENGTH = 64;

/** True when `s` is an RFC 5321 mailbox within the length limits. */
export function isEmailAddress(s: string): boolean {
  if (s.length > MAX_EMAIL_LENGTH || !MAILBOX.test(s)) return false;
  const at = s.lastIndexOf('@');
  return at <= MAX_LOCAL_PART_LENGTH;
}

/** An e-mail address field: `message` is the refusal the client sees. */
export function emailAddress(message = 'must be an e-mail address, such as alice@example.com'): z.ZodString {
  return z.string().max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`).refine(isEmailAddress, { message });
}
