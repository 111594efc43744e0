/** RFC 5321 mailboxes: the legal local parts zod's check refused, and what stays refused. */
import { describe, expect, it } from 'vitest';
import { isEmailAddress } from './email-address.js';
import { originProblem } from './activities/auth-proxy.js';

describe('isEmailAddress', () => {
  it('accepts every atext character, dot-strings, quoted local parts and address literals', () => {
    for (const a of [
      'alice@example.com',
      'a~b@example.com',
      'x?y@example.com',
      'p&q@example.com',
      "!#$%&'*+-/=?^_`{|}~@example.com",
      'first.last@sub.example.co.uk',
      '"quoted string"@example.com',
      '"a\\"b"@example.com',
      'user@[192.0.2.1]',
      'user@[IPv6:2001:db8::1]',
      `${'a'.repeat(64)}@example.com`,
    ]) {
      expect(isEmailAddress(a), a).toBe(true);
    }
  });
  it('refuses what is not a mailbox', () => {
    for (const a of ['', 'alice', 'alice@', '@example.com', 'a..b@example.com', '.a@example.com', 'a.@example.com', 'a b@example.com', 'a@b', 'a@-example.com', 'a@example..com', `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(250)}.com`, 'a@example.com\n', 'ä@example.com']) {
      expect(isEmailAddress(a), a).toBe(false);
    }
  });
});

describe('originProblem', () => {
  it('accepts * and exact origins', () => {
    for (const o of ['*', 'https://app.example.com', 'http://localhost:5173', 'https://example.com:8443']) expect(originProblem(o), o).toBeUndefined();
  });
  it('refuses paths, trailing slashes, partial wildcards, other schemes and userinfo', () => {
    for (const o of ['https://app.example.com/', 'https://app.example.com/x', 'https://*.example.com', '*.example.com', 'ftp://example.com', 'https://u:p@example.com', 'example.com', 'https://Example.com']) {
      expect(originProblem(o), o).toBeDefined();
    }
  });
});
