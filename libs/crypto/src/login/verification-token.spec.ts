/**
 * Tests for the OTP verification token, judged by the real client: `@turnkey/crypto` 2.13.2
 * `verifyOtpVerificationToken(jwt, override)` must accept ours and return the string claims; the
 * payload must also decode the way `@turnkey/core` `decodeVerificationToken` reads it (bare atob).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { generateP256KeyPair, verifyOtpVerificationToken } from '@turnkey/crypto';
import { LoginTokenError } from './login-errors.js';
import { signVerificationToken, verifyVerificationToken, type TVerificationTokenClaims } from './verification-token.js';

const signer = generateP256KeyPair();
const client = generateP256KeyPair();
const NOW = Date.now();

const CLAIMS: TVerificationTokenClaims = {
  id: '0190f3c2-7a4b-7c1d-8e2f-3a4b5c6d7e8f',
  verificationType: 'OTP_TYPE_EMAIL',
  contact: 'alice@example.com',
  organizationId: 'c75e4a1b-0d2f-4b8e-9a3c-6f1e2d3c4b5a',
  publicKey: client.publicKey,
  expiresAtMs: NOW + 3_600_000,
};

const partsOf = (jwt: string) => jwt.split('.') as [string, string, string];
const b64u = (value: object | string): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A token with arbitrary header and payload, correctly signed by `signer` (to reach the claim checks). */
function handMade(header: object, payload: object): string {
  const input = `${b64u(header)}.${b64u(payload)}`;
  const sig = p256.sign(sha256(new TextEncoder().encode(input)), Buffer.from(signer.privateKey, 'hex'), { prehash: false });
  return `${input}.${Buffer.from(sig).toString('base64url')}`;
}

const WIRE = {
  id: CLAIMS.id,
  verification_type: CLAIMS.verificationType,
  contact: CLAIMS.contact,
  organization_id: CLAIMS.organizationId,
  public_key: CLAIMS.publicKey,
  exp: String(CLAIMS.expiresAtMs),
};

function loginErrorOf(fn: () => unknown): LoginTokenError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LoginTokenError) return error;
    throw error;
  }
  throw new Error('expected a LoginTokenError, but nothing was thrown');
}

describe('signVerificationToken, checked by @turnkey/crypto verifyOtpVerificationToken', () => {
  it('is accepted with the signer override, with all claims as strings and exp in ms', async () => {
    const jwt = signVerificationToken(CLAIMS, signer.privateKey);
    await expect(verifyOtpVerificationToken(jwt, signer.publicKeyUncompressed)).resolves.toEqual(WIRE);
    await expect(verifyOtpVerificationToken(jwt, signer.publicKey)).resolves.toEqual(WIRE);
  });

  it('is refused without the override (Turnkey’s TLS-fetcher key) and with another key', async () => {
    const jwt = signVerificationToken(CLAIMS, signer.privateKey);
    await expect(verifyOtpVerificationToken(jwt)).rejects.toThrow(/signature is invalid/);
    await expect(verifyOtpVerificationToken(jwt, generateP256KeyPair().publicKeyUncompressed)).rejects.toThrow(/signature is invalid/);
  });

  it('is refused once the payload is edited', async () => {
    const [header, , signature] = partsOf(signVerificationToken(CLAIMS, signer.privateKey));
    const forged = `${header}.${b64u({ ...WIRE, contact: 'mallory@example.com' })}.${signature}`;
    await expect(verifyOtpVerificationToken(forged, signer.publicKeyUncompressed)).rejects.toThrow(/signature is invalid/);
    expect(loginErrorOf(() => verifyVerificationToken(forged, signer.publicKey, NOW)).reason).toBe('BAD_SIGNATURE');
  });

  it('is reported expired by both verifiers once exp has passed', async () => {
    const jwt = signVerificationToken({ ...CLAIMS, expiresAtMs: NOW - 1000 }, signer.privateKey);
    await expect(verifyOtpVerificationToken(jwt, signer.publicKeyUncompressed)).rejects.toThrow(/expired/);
    expect(loginErrorOf(() => verifyVerificationToken(jwt, signer.publicKey, NOW)).reason).toBe('EXPIRED');
  });

  it('has the header {"typ":"JWT","alg":"ES256"} and a payload core can atob', () => {
    const jwt = signVerificationToken({ ...CLAIMS, contact: 'ünïcode+tag?>~@example.com' }, signer.privateKey);
    const [header, payload] = partsOf(jwt);
    expect(Buffer.from(header, 'base64url').toString('utf8')).toBe('{"typ":"JWT","alg":"ES256"}');
    expect(payload).not.toMatch(/[-_]/);
    expect(JSON.parse(atob(payload))).toEqual({ ...WIRE, contact: 'ünïcode+tag?>~@example.com' });
  });

  it('property: any contact and id round-trip through both verifiers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.constantFrom('OTP_TYPE_EMAIL' as const, 'OTP_TYPE_SMS' as const),
        async (contact, id, verificationType) => {
          const claims = { ...CLAIMS, contact, id, verificationType };
          const jwt = signVerificationToken(claims, signer.privateKey);
          expect(verifyVerificationToken(jwt, signer.publicKeyUncompressed, NOW)).toEqual(claims);
          const turnkey = await verifyOtpVerificationToken(jwt, signer.publicKeyUncompressed);
          expect(turnkey['contact']).toBe(contact);
          expect(JSON.parse(atob(partsOf(jwt)[1]))['id']).toBe(id);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('verifyVerificationToken', () => {
  it('returns the typed claims', () => {
    expect(verifyVerificationToken(signVerificationToken(CLAIMS, signer.privateKey), signer.publicKey, NOW)).toEqual(CLAIMS);
  });

  it('accepts a token at its exact expiry millisecond and refuses it one millisecond later', () => {
    const jwt = signVerificationToken(CLAIMS, signer.privateKey);
    expect(verifyVerificationToken(jwt, signer.publicKey, CLAIMS.expiresAtMs).id).toBe(CLAIMS.id);
    expect(loginErrorOf(() => verifyVerificationToken(jwt, signer.publicKey, CLAIMS.expiresAtMs + 1)).reason).toBe('EXPIRED');
  });

  it('accepts a Turnkey-shaped token signed elsewhere (hand-made, high or low S)', () => {
    const jwt = handMade({ typ: 'JWT', alg: 'ES256' }, WIRE);
    expect(verifyVerificationToken(jwt, signer.publicKeyUncompressed, NOW)).toEqual(CLAIMS);
    const [header, payload, signature] = partsOf(jwt);
    const sig = p256.Signature.fromBytes(new Uint8Array(Buffer.from(signature, 'base64url')), 'compact');
    const flipped = new p256.Signature(sig.r, p256.Point.CURVE().n - sig.s).toBytes('compact');
    expect(verifyVerificationToken(`${header}.${payload}.${Buffer.from(flipped).toString('base64url')}`, signer.publicKey, NOW)).toEqual(CLAIMS);
  });

  it.each([
    ['alg none', { typ: 'JWT', alg: 'none' }],
    ['alg HS256', { typ: 'JWT', alg: 'HS256' }],
    ['typ missing', { alg: 'ES256' }],
  ])('refuses a header with %s as UNSUPPORTED_HEADER', (_name, header) => {
    expect(loginErrorOf(() => verifyVerificationToken(handMade(header, WIRE), signer.publicKey, NOW)).reason).toBe('UNSUPPORTED_HEADER');
  });

  it.each([
    ['no contact', (({ contact: _c, ...rest }) => rest)(WIRE), /"contact"/],
    ['an empty id', { ...WIRE, id: '' }, /"id"/],
    ['a numeric exp', { ...WIRE, exp: CLAIMS.expiresAtMs }, /"exp"/],
    ['an exponent exp', { ...WIRE, exp: '1e20' }, /"exp"/],
    ['a hex exp', { ...WIRE, exp: '0x1ffffffffff' }, /"exp"/],
    ['an unknown verification_type', { ...WIRE, verification_type: 'OTP_TYPE_PIGEON' }, /"verification_type"/],
    ['a numeric public_key', { ...WIRE, public_key: 7 }, /"public_key"/],
  ])('refuses a payload with %s as MISSING_CLAIM', (_name, payload, message) => {
    const error = loginErrorOf(() => verifyVerificationToken(handMade({ typ: 'JWT', alg: 'ES256' }, payload), signer.publicKey, NOW));
    expect(error.reason).toBe('MISSING_CLAIM');
    expect(error.message).toMatch(message);
  });

  it('refuses a DER or truncated signature as BAD_SIGNATURE', () => {
    const [header, payload, signature] = partsOf(signVerificationToken(CLAIMS, signer.privateKey));
    const der = p256.Signature.fromBytes(new Uint8Array(Buffer.from(signature, 'base64url')), 'compact').toBytes('der');
    expect(loginErrorOf(() => verifyVerificationToken(`${header}.${payload}.${Buffer.from(der).toString('base64url')}`, signer.publicKey, NOW)).reason).toBe(
      'BAD_SIGNATURE',
    );
    expect(loginErrorOf(() => verifyVerificationToken(`${header}.${payload}.${signature.slice(0, 40)}`, signer.publicKey, NOW)).reason).toBe(
      'BAD_SIGNATURE',
    );
  });

  it.each([['', 'empty'], ['a.b', 'two parts'], ['x.y.z', 'non-JSON parts']])('refuses %j (%s) as MALFORMED', (jwt) => {
    expect(loginErrorOf(() => verifyVerificationToken(jwt, signer.publicKey, NOW)).reason).toBe('MALFORMED');
  });

  it('throws TypeError for a bad verification key or clock (configuration errors, not token errors)', () => {
    const jwt = signVerificationToken(CLAIMS, signer.privateKey);
    expect(() => verifyVerificationToken(jwt, 'not-hex', NOW)).toThrow(TypeError);
    expect(() => verifyVerificationToken(jwt, signer.publicKey, Number.NaN)).toThrow(TypeError);
  });
});

describe('signVerificationToken input checks', () => {
  it.each([
    ['an unknown verificationType', { verificationType: 'OTP_TYPE_FAX' }, /verificationType/],
    ['expiry in seconds as a fraction', { expiresAtMs: 1.5 }, /expiresAtMs/],
    ['an empty contact', { contact: '' }, /contact/],
    ['a private key as publicKey', { publicKey: client.privateKey }, /publicKey/],
  ])('refuses %s', (_name, change, message) => {
    expect(() => signVerificationToken({ ...CLAIMS, ...change } as TVerificationTokenClaims, signer.privateKey)).toThrow(message);
  });

  it('refuses a malformed signing key', () => {
    expect(() => signVerificationToken(CLAIMS, signer.publicKey)).toThrow(/privateKeyHex must be a 32-byte/);
  });
});
