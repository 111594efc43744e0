/**
 * Tests for the session JWT, judged by the real client: `@turnkey/crypto` 2.13.2
 * `verifySessionJwtSignature` must accept our tokens with the notarizer override and refuse
 * altered ones; the payload must decode the way `@turnkey/core` `parseSession` does (bare `atob`).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY, generateP256KeyPair, verifySessionJwtSignature } from '@turnkey/crypto';
import { LoginTokenError } from './login-errors.js';
import { decodeSessionJwt, signSessionJwt, verifySessionJwt, type TSessionJwtClaims } from './session-jwt.js';

const notarizer = generateP256KeyPair();
const session = generateP256KeyPair();

const CLAIMS: TSessionJwtClaims = {
  exp: 1748876837,
  public_key: session.publicKey,
  session_type: 'SESSION_TYPE_READ_WRITE',
  user_id: '6912a2b1-52f5-4bd6-9d4b-2a7d4e8c0c11',
  organization_id: 'c75e4a1b-0d2f-4b8e-9a3c-6f1e2d3c4b5a',
};

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const partsOf = (jwt: string) => jwt.split('.') as [string, string, string];
const reencode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function loginErrorOf(fn: () => unknown): LoginTokenError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LoginTokenError) return error;
    throw error;
  }
  throw new Error('expected a LoginTokenError, but nothing was thrown');
}

/** What @turnkey/core parseSession does with the payload. */
const parseLikeCore = (jwt: string): unknown => JSON.parse(atob(partsOf(jwt)[1]));

describe('signSessionJwt, checked by @turnkey/crypto verifySessionJwtSignature', () => {
  it('verifies with the notarizer override (uncompressed key)', async () => {
    const jwt = signSessionJwt(CLAIMS, notarizer.privateKey);
    await expect(verifySessionJwtSignature(jwt, notarizer.publicKeyUncompressed)).resolves.toBe(true);
  });

  it('does not verify against Turnkey’s production notarizer or another key', async () => {
    const jwt = signSessionJwt(CLAIMS, notarizer.privateKey);
    await expect(verifySessionJwtSignature(jwt)).resolves.toBe(false);
    await expect(verifySessionJwtSignature(jwt, PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY)).resolves.toBe(false);
    await expect(verifySessionJwtSignature(jwt, generateP256KeyPair().publicKeyUncompressed)).resolves.toBe(false);
  });

  it('does not verify once the payload is edited', async () => {
    const [header, , signature] = partsOf(signSessionJwt(CLAIMS, notarizer.privateKey));
    const forged = `${header}.${reencode({ ...CLAIMS, user_id: 'someone-else' })}.${signature}`;
    await expect(verifySessionJwtSignature(forged, notarizer.publicKeyUncompressed)).resolves.toBe(false);
  });

  it('does not verify once the header is edited', async () => {
    const [, payload, signature] = partsOf(signSessionJwt(CLAIMS, notarizer.privateKey));
    const forged = `${reencode({ alg: 'ES256', typ: 'JWT', kid: 'x' })}.${payload}.${signature}`;
    await expect(verifySessionJwtSignature(forged, notarizer.publicKeyUncompressed)).resolves.toBe(false);
  });

  it('signs sha256(sha256(header.payload)), not the standard ES256 digest', () => {
    const jwt = signSessionJwt(CLAIMS, notarizer.privateKey);
    const [header, payload, signature] = partsOf(jwt);
    const input = utf8(`${header}.${payload}`);
    const sig = new Uint8Array(Buffer.from(signature, 'base64url'));
    const pub = Buffer.from(notarizer.publicKeyUncompressed, 'hex');
    expect(sig).toHaveLength(64);
    expect(p256.verify(sig, sha256(sha256(input)), pub, { prehash: false })).toBe(true);
    expect(p256.verify(sig, sha256(input), pub, { prehash: false })).toBe(false);
  });

  it('writes a low-S signature (accepted by strict and lenient verifiers alike)', () => {
    for (let i = 0; i < 8; i++) {
      const sig = Buffer.from(partsOf(signSessionJwt({ ...CLAIMS, exp: CLAIMS.exp + i }, notarizer.privateKey))[2], 'base64url');
      expect(p256.Signature.fromBytes(new Uint8Array(sig), 'compact').hasHighS()).toBe(false);
    }
  });
});

describe('session JWT layout', () => {
  it('has the header {"alg":"ES256","typ":"JWT"} byte for byte', () => {
    const [header] = partsOf(signSessionJwt(CLAIMS, notarizer.privateKey));
    expect(Buffer.from(header, 'base64url').toString('utf8')).toBe('{"alg":"ES256","typ":"JWT"}');
  });

  it('writes the claims in Turnkey’s order, exp as a number of seconds, optional claims only when set', () => {
    const plain = parseLikeCore(signSessionJwt(CLAIMS, notarizer.privateKey)) as Record<string, unknown>;
    expect(Object.keys(plain)).toEqual(['exp', 'public_key', 'session_type', 'user_id', 'organization_id']);
    expect(plain['exp']).toBe(CLAIMS.exp);
    const scoped = parseLikeCore(
      signSessionJwt({ ...CLAIMS, session_profile_id: 'profile-1', scope: "activity.action == 'SIGN'" }, notarizer.privateKey),
    ) as Record<string, unknown>;
    expect(Object.keys(scoped)).toEqual(['exp', 'public_key', 'session_type', 'user_id', 'organization_id', 'session_profile_id', 'scope']);
    expect(scoped['scope']).toBe("activity.action == 'SIGN'");
  });

  it('is deterministic for the same claims and key (RFC 6979)', () => {
    expect(signSessionJwt(CLAIMS, notarizer.privateKey)).toBe(signSessionJwt(CLAIMS, notarizer.privateKey));
  });

  it('keeps the payload decodable by a bare atob even for claims that would encode to - or _', () => {
    // Naively, ">" at an offset ≡ 2 (mod 3) gives a "-" or "_" in base64url, which atob refuses.
    const scope = 'activity.params.amount >= 1 && x ~ y ??';
    const claims = { ...CLAIMS, scope, user_id: 'usér-ünïcode-ü' };
    const naive = Buffer.from(JSON.stringify(claims)).toString('base64url');
    expect(naive).toMatch(/[-_]/);
    const jwt = signSessionJwt(claims, notarizer.privateKey);
    expect(partsOf(jwt)[1]).toMatch(/^[A-Za-z0-9+/]+$/);
    expect(parseLikeCore(jwt)).toEqual(claims);
  });

  it('writes <, >, &, ?, ~ and non-ASCII as \\uXXXX in the payload JSON (issue 13), the requested public_key exactly', () => {
    const claims = { ...CLAIMS, scope: '<a> & b? ~c é' };
    const json = Buffer.from(partsOf(signSessionJwt(claims, notarizer.privateKey))[1]!, 'base64url').toString('utf8');
    expect(json).toMatch(/^[\x20-\x7e]+$/);
    expect(json).not.toMatch(/[<>&?~]/);
    expect(json).toContain('\\u003ca\\u003e \\u0026 b\\u003f \\u007ec \\u00e9');
    expect(JSON.parse(json)['public_key']).toBe(CLAIMS.public_key);
  });

  it('property: any claim strings decode identically via atob, decodeSessionJwt and verify', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
        fc.option(fc.string({ minLength: 1, maxLength: 60 }), { nil: undefined }),
        fc.integer({ min: 1, max: 4_102_444_800 }),
        async (userId, organizationId, scope, exp) => {
          const claims: TSessionJwtClaims = { ...CLAIMS, exp, user_id: userId, organization_id: organizationId, ...(scope ? { scope } : {}) };
          const jwt = signSessionJwt(claims, notarizer.privateKey);
          expect(partsOf(jwt)[1]).not.toMatch(/[-_]/);
          expect(parseLikeCore(jwt)).toEqual(claims);
          expect(decodeSessionJwt(jwt).claims).toEqual(claims);
          expect(verifySessionJwt(jwt, notarizer.publicKey)).toEqual(claims);
          expect(await verifySessionJwtSignature(jwt, notarizer.publicKeyUncompressed)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('signSessionJwt input checks', () => {
  it.each([
    ['exp in milliseconds', { exp: 1748876837000 }, /seconds, not milliseconds/],
    ['fractional exp', { exp: 1.5 }, /exp must be a positive integer/],
    ['zero exp', { exp: 0 }, /exp must be a positive integer/],
    ['empty user_id', { user_id: '' }, /user_id/],
    ['empty organization_id', { organization_id: '' }, /organization_id/],
    ['a private key as public_key', { public_key: session.privateKey }, /public_key must be a 33- or 65-byte/],
    ['an off-curve public_key', { public_key: `02${'ff'.repeat(32)}` }, /public_key is not a point/],
    ['an empty scope', { scope: '' }, /scope must be a non-empty string/],
  ])('refuses %s', (_name, change, message) => {
    expect(() => signSessionJwt({ ...CLAIMS, ...change } as TSessionJwtClaims, notarizer.privateKey)).toThrow(message);
  });

  it('refuses a malformed notarizer key without echoing it', () => {
    const bad = 'zz'.repeat(32);
    expect(() => signSessionJwt(CLAIMS, bad)).toThrow(TypeError);
    expect(() => signSessionJwt(CLAIMS, bad)).not.toThrow(bad);
    expect(() => signSessionJwt(CLAIMS, '00'.repeat(32))).toThrow(/notarizerPrivateKeyHex/);
  });
});

describe('decodeSessionJwt / verifySessionJwt', () => {
  it('decodes without verifying, as clients do', () => {
    const jwt = signSessionJwt(CLAIMS, notarizer.privateKey);
    expect(decodeSessionJwt(jwt)).toEqual({ header: { alg: 'ES256', typ: 'JWT' }, claims: CLAIMS });
  });

  it('verifies with either form of the notarizer key', () => {
    const jwt = signSessionJwt(CLAIMS, notarizer.privateKey);
    expect(verifySessionJwt(jwt, notarizer.publicKey)).toEqual(CLAIMS);
    expect(verifySessionJwt(jwt, notarizer.publicKeyUncompressed)).toEqual(CLAIMS);
  });

  it('refuses an edited payload, another key, and a header that is not ES256/JWT', () => {
    const [header, payload, signature] = partsOf(signSessionJwt(CLAIMS, notarizer.privateKey));
    expect(loginErrorOf(() => verifySessionJwt(`${header}.${reencode({ ...CLAIMS, exp: 9999999999 })}.${signature}`, notarizer.publicKey)).reason).toBe(
      'BAD_SIGNATURE',
    );
    expect(loginErrorOf(() => verifySessionJwt(`${header}.${payload}.${signature}`, generateP256KeyPair().publicKey)).reason).toBe(
      'BAD_SIGNATURE',
    );
    expect(loginErrorOf(() => verifySessionJwt(`${reencode({ alg: 'none', typ: 'JWT' })}.${payload}.`, notarizer.publicKey)).reason).toBe(
      'MALFORMED',
    );
    expect(loginErrorOf(() => verifySessionJwt(`${reencode({ alg: 'HS256', typ: 'JWT' })}.${payload}.${signature}`, notarizer.publicKey)).reason).toBe(
      'UNSUPPORTED_HEADER',
    );
  });

  it.each([
    ['two parts', 'a.b'],
    ['four parts', 'a.b.c.d'],
    ['a non-JSON payload', `${reencode({ alg: 'ES256' })}.${Buffer.from('nope').toString('base64url')}.AA`],
    ['a JSON array payload', `${reencode({ alg: 'ES256' })}.${reencode([1])}.AA`],
    ['a non-base64url part', `${reencode({ alg: 'ES256' })}.e30=.AA`],
    ['an oversized token', `${'a'.repeat(9000)}.b.c`],
  ])('refuses %s as MALFORMED', (_name, jwt) => {
    expect(loginErrorOf(() => decodeSessionJwt(jwt)).reason).toBe('MALFORMED');
  });

  it('reports a missing required claim by name', () => {
    const { user_id: _omitted, ...rest } = CLAIMS;
    const jwt = `${reencode({ alg: 'ES256', typ: 'JWT' })}.${reencode(rest)}.AA`;
    const error = loginErrorOf(() => decodeSessionJwt(jwt));
    expect(error.reason).toBe('MISSING_CLAIM');
    expect(error.message).toMatch(/"user_id"/);
    const stringExp = `${reencode({ alg: 'ES256', typ: 'JWT' })}.${reencode({ ...CLAIMS, exp: '1748876837' })}.AA`;
    expect(loginErrorOf(() => decodeSessionJwt(stringExp)).message).toMatch(/"exp"/);
  });
});
