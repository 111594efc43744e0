/** Tests for the authenticator-data head reader and the signature-counter rule. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseAuthenticatorDataHead, rpIdHashMatches, signCountAdvances } from './authenticator-data.js';

function authData(rpId: string, flags: number, signCount: number, tail: number[] = []): Uint8Array {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(signCount);
  return new Uint8Array(Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), counter, Buffer.from(tail)]));
}

describe('parseAuthenticatorDataHead', () => {
  it('reads rpIdHash, each flag and the big-endian counter', () => {
    const head = parseAuthenticatorDataHead(authData('wallet.example.com', 0x05, 0x01020304));
    expect(Buffer.from(head.rpIdHash).equals(createHash('sha256').update('wallet.example.com').digest())).toBe(true);
    expect(head).toMatchObject({
      flags: 0x05,
      userPresent: true,
      userVerified: true,
      backupEligible: false,
      backedUp: false,
      attestedCredentialData: false,
      extensionData: false,
      signCount: 16909060,
    });
    expect(parseAuthenticatorDataHead(authData('x', 0xd8, 0))).toMatchObject({
      userPresent: false,
      userVerified: false,
      backupEligible: true,
      backedUp: true,
      attestedCredentialData: true,
      extensionData: true,
    });
  });

  it('property: the counter round-trips for any uint32, with trailing data and from a subarray', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.uint8Array({ maxLength: 8 }), (count, prefix) => {
        const data = authData('example.com', 0x01, count, [1, 2, 3]);
        const embedded = new Uint8Array([...prefix, ...data]).subarray(prefix.length);
        expect(parseAuthenticatorDataHead(embedded).signCount).toBe(count);
      }),
    );
  });

  it('refuses fewer than 37 bytes', () => {
    expect(() => parseAuthenticatorDataHead(new Uint8Array(36))).toThrow(/at least 37 bytes/);
    expect(() => parseAuthenticatorDataHead('abc' as unknown as Uint8Array)).toThrow(TypeError);
  });
});

describe('rpIdHashMatches', () => {
  it('matches SHA-256 of one of the rp ids only', () => {
    const { rpIdHash } = parseAuthenticatorDataHead(authData('wallet.example.com', 1, 0));
    expect(rpIdHashMatches(rpIdHash, ['other.example', 'wallet.example.com'])).toBe(true);
    expect(rpIdHashMatches(rpIdHash, ['example.com'])).toBe(false);
    expect(rpIdHashMatches(rpIdHash, [])).toBe(false);
  });
});

describe('signCountAdvances', () => {
  it.each([
    [0, 0, true],
    [0, 1, true],
    [5, 6, true],
    [5, 5, false],
    [5, 4, false],
    [5, 0, false],
    [0n, 0, true],
    [41n, 42, true],
    [4294967295n, 4294967295, false],
  ])('stored %s, asserted %s → %s', (stored, asserted, expected) => {
    expect(signCountAdvances(stored, asserted)).toBe(expected);
  });

  it('property: for non-zero counts it is exactly "strictly greater"', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff }), (stored, asserted) => {
        fc.pre(stored !== 0 || asserted !== 0);
        expect(signCountAdvances(stored, asserted)).toBe(asserted > stored);
      }),
    );
  });

  it('refuses negative or fractional counts', () => {
    expect(() => signCountAdvances(-1, 0)).toThrow(/storedSignCount/);
    expect(() => signCountAdvances(0, 1.5)).toThrow(/assertedSignCount/);
    expect(() => signCountAdvances(-1n, 0)).toThrow(TypeError);
  });
});
