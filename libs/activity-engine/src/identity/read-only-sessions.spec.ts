import { isAppError } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_ONLY_SESSION_SECONDS, newReadOnlySessionToken, readOnlySessionSeconds, readOnlySessionTokenHash, sessionTokenOf } from './read-only-sessions.js';

describe('read-only session tokens', () => {
  it('are fresh each time, and only their SHA-256 is the stored form', () => {
    const a = newReadOnlySessionToken();
    const b = newReadOnlySessionToken();
    expect(a.token).not.toBe(b.token);
    expect(a.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.tokenHash).toBe(readOnlySessionTokenHash(a.token));
    expect(a.tokenHash).not.toContain(a.token.slice(5, 20));
    expect(sessionTokenOf(a.token)).toBe(a.token);
  });

  it.each([undefined, '', 'Bearer x', `lkro_${'A'.repeat(42)}`, ['a', 'b']])('refuses the X-Session value %j with a 401', (header) => {
    let err: unknown;
    try {
      sessionTokenOf(header);
    } catch (e) {
      err = e;
    }
    expect(isAppError(err) && err.code === 'UNAUTHENTICATED').toBe(true);
  });

  it("lasts Turnkey's hour unless LATCHKEY_READ_ONLY_SESSION_SECONDS says otherwise", () => {
    expect(readOnlySessionSeconds({})).toBe(DEFAULT_READ_ONLY_SESSION_SECONDS);
    expect(DEFAULT_READ_ONLY_SESSION_SECONDS).toBe(3600);
    expect(readOnlySessionSeconds({ LATCHKEY_READ_ONLY_SESSION_SECONDS: '60' })).toBe(60);
    expect(() => readOnlySessionSeconds({ LATCHKEY_READ_ONLY_SESSION_SECONDS: '0' })).toThrow(/positive integer/);
    expect(() => readOnlySessionSeconds({ LATCHKEY_READ_ONLY_SESSION_SECONDS: '1.5' })).toThrow(/positive integer/);
  });
});
