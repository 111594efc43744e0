/**
 * Tests for the software authenticator, judged by the server's own verifiers (@latchkey/crypto
 * `verifyWebauthnRegistration` and `verifyWebauthnStamp`), its CBOR by `@simplewebauthn/server`'s
 * decoder, and its stamper by the unmodified `@turnkey/http` `TurnkeyClient`.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { TurnkeyClient } from '@turnkey/http';
import {
  StampError,
  WebauthnRegistrationError,
  parseAuthenticatorDataHead,
  parseWebauthnStamp,
  signCountAdvances,
  verifyWebauthnRegistration,
  verifyWebauthnStamp,
} from '@latchkey/crypto';
import { createSoftwareAuthenticator, encodeCbor } from './software-authenticator.js';

const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:3000';
const BODY = '{"type":"ACTIVITY_TYPE_STAMP_LOGIN","timestampMs":"1700000000000","organizationId":"org","parameters":{"publicKey":"02ab"}}';
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const unhex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, 'hex'));
const challenge = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

async function registrationErrorOf(promise: Promise<unknown>): Promise<WebauthnRegistrationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebauthnRegistrationError);
  return error as WebauthnRegistrationError;
}

describe('software authenticator registration, checked by verifyWebauthnRegistration', () => {
  it.each(['none', 'packed'] as const)('produces a %s attestation the server accepts, with the right key', async (format) => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const registrationChallenge = challenge();
    const attestation = authenticator.register(registrationChallenge, { format });
    const result = await verifyWebauthnRegistration({
      challenge: registrationChallenge,
      attestation,
      expectedOrigins: [ORIGIN],
      expectedRpIds: [RP_ID],
      requireUserVerification: true,
    });
    expect(result).toMatchObject({
      credentialId: authenticator.credentialId,
      publicKey: authenticator.publicKey,
      attestationType: format,
      aaguid: '00000000-0000-0000-0000-000000000000',
      signCount: 0,
      transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
      origin: ORIGIN,
      userVerified: true,
    });
    expect(authenticator.publicKeyUncompressed.slice(2, 66)).toBe(authenticator.publicKey.slice(2));
  });

  it('builds intent-ready authenticatorParams with a fresh challenge', async () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN, aaguidHex: 'adce000235bcc60a648b0b25f1f05503' });
    const params = authenticator.authenticatorParams('test passkey', { format: 'packed' });
    expect(params.authenticatorName).toBe('test passkey');
    expect(params.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(verifyWebauthnRegistration(params)).resolves.toMatchObject({ aaguid: 'adce0002-35bc-c60a-648b-0b25f1f05503' });
  });

  it('is refused for another challenge, rp id or origin', async () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const attestation = authenticator.register(challenge(), { format: 'packed' });
    expect((await registrationErrorOf(verifyWebauthnRegistration({ challenge: challenge(), attestation }))).reason).toBe('CHALLENGE_MISMATCH');
    const own = authenticator.register('c29tZS1jaGFsbGVuZ2U');
    const base = { challenge: 'c29tZS1jaGFsbGVuZ2U', attestation: own };
    expect((await registrationErrorOf(verifyWebauthnRegistration({ ...base, expectedRpIds: ['example.com'] }))).reason).toBe('RP_ID_MISMATCH');
    expect((await registrationErrorOf(verifyWebauthnRegistration({ ...base, expectedOrigins: ['https://example.com'] }))).reason).toBe('ORIGIN_MISMATCH');
  });

  it('is refused once the packed attestation is tampered with', async () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const registrationChallenge = challenge();
    const attestation = authenticator.register(registrationChallenge, { format: 'packed' });
    const decoded = isoCBOR.decodeFirst<Map<string, unknown>>(new Uint8Array(Buffer.from(attestation.attestationObject, 'base64url')));
    const reencode = (authData: Uint8Array, attStmt: Map<string, unknown>): string =>
      Buffer.from(
        encodeCbor(new Map<string, never>([['fmt', 'packed' as never], ['attStmt', attStmt as never], ['authData', authData as never]])),
      ).toString('base64url');
    const authData = new Uint8Array(decoded.get('authData') as Uint8Array);
    const attStmt = decoded.get('attStmt') as Map<string, unknown>;
    // Sanity: re-encoding the untouched parts gives the same bytes, so only the edit differs below.
    expect(reencode(authData, attStmt)).toBe(attestation.attestationObject);
    const bumped = new Uint8Array(authData);
    bumped[36] = 9; // the signature counter's low byte
    const sig = new Uint8Array(attStmt.get('sig') as Uint8Array);
    sig[sig.length - 1] = (sig[sig.length - 1] ?? 0) ^ 0x01;
    for (const attestationObject of [reencode(bumped, attStmt), reencode(authData, new Map([...attStmt, ['sig', sig]]))]) {
      const error = await registrationErrorOf(
        verifyWebauthnRegistration({ challenge: registrationChallenge, attestation: { ...attestation, attestationObject } }),
      );
      expect(error.reason).toBe('ATTESTATION_INVALID');
    }
    const other = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN }).register(registrationChallenge, { format: 'packed' });
    const spliced = { ...attestation, attestationObject: other.attestationObject };
    expect((await registrationErrorOf(verifyWebauthnRegistration({ challenge: registrationChallenge, attestation: spliced }))).reason).toBe(
      'CREDENTIAL_ID_MISMATCH',
    );
  });
});

describe('software authenticator stamps, checked by verifyWebauthnStamp', () => {
  it('signs a stamp that verifies with the registered key, with an increasing counter', async () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const registrationChallenge = challenge();
    const { publicKey, signCount: registered } = await verifyWebauthnRegistration({
      challenge: registrationChallenge,
      attestation: authenticator.register(registrationChallenge),
    });
    let stored = registered;
    for (let i = 1; i <= 3; i++) {
      const stamp = parseWebauthnStamp(authenticator.stamp(BODY));
      expect(stamp.credentialId).toBe(authenticator.credentialId);
      expect(verifyWebauthnStamp(stamp, utf8(BODY), unhex(publicKey))).toBe(ORIGIN);
      const head = parseAuthenticatorDataHead(stamp.authenticatorData);
      expect(head).toMatchObject({ signCount: i, userPresent: true, userVerified: true });
      expect(signCountAdvances(stored, head.signCount)).toBe(true);
      stored = head.signCount;
    }
    expect(authenticator.signCount).toBe(3);
  });

  it('keeps the counter at 0 when told to (synced passkeys), which the counter rule accepts', () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN, signCountStep: 0, backupEligible: true, userVerification: false });
    const head = parseAuthenticatorDataHead(parseWebauthnStamp(authenticator.stamp(BODY)).authenticatorData);
    expect(head).toMatchObject({ signCount: 0, backupEligible: true, userVerified: false });
    expect(signCountAdvances(0, head.signCount)).toBe(true);
  });

  it('works as the stamper of the unmodified @turnkey/http TurnkeyClient', async () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const client = new TurnkeyClient({ baseUrl: 'http://127.0.0.1:1' }, authenticator.stamper);
    const signed = await client.stampGetWhoami({ organizationId: 'org-1' });
    expect(signed.stamp.stampHeaderName).toBe('X-Stamp-Webauthn');
    const stamp = parseWebauthnStamp(signed.stamp.stampHeaderValue);
    expect(verifyWebauthnStamp(stamp, utf8(signed.body), unhex(authenticator.publicKey))).toBe(ORIGIN);
  });

  it('is refused for another body, another key, or an altered signature', () => {
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    const stamp = parseWebauthnStamp(authenticator.stamp(BODY));
    expect(() => verifyWebauthnStamp(stamp, utf8(`${BODY} `), unhex(authenticator.publicKey))).toThrow(StampError);
    const stranger = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    expect(() => verifyWebauthnStamp(stamp, utf8(BODY), unhex(stranger.publicKey))).toThrow(StampError);
    const signature = new Uint8Array(stamp.signature);
    signature[signature.length - 1] = (signature[signature.length - 1] ?? 0) ^ 0x01;
    expect(() => verifyWebauthnStamp({ ...stamp, signature }, utf8(BODY), unhex(authenticator.publicKey))).toThrow(StampError);
  });
});

describe('encodeCbor', () => {
  it('encodes the RFC 8949 examples', () => {
    const hex = (value: Parameters<typeof encodeCbor>[0]): string => Buffer.from(encodeCbor(value)).toString('hex');
    expect(hex(0)).toBe('00');
    expect(hex(23)).toBe('17');
    expect(hex(24)).toBe('1818');
    expect(hex(1000)).toBe('1903e8');
    expect(hex(1000000)).toBe('1a000f4240');
    expect(hex(-1)).toBe('20');
    expect(hex(-1000)).toBe('3903e7');
    expect(hex('IETF')).toBe('6449455446');
    expect(hex(new Uint8Array([1, 2, 3, 4]))).toBe('4401020304');
    expect(hex([1, [2, 3]])).toBe('8201820203');
    expect(hex(new Map<number | string, number>([[1, 2], [3, 4]]))).toBe('a201020304');
  });

  it('property: what it encodes, @simplewebauthn’s CBOR decoder reads back', () => {
    const leaf = fc.oneof(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.string(), fc.uint8Array({ maxLength: 300 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(fc.integer({ min: -100, max: 100 }), fc.string({ maxLength: 8 })), leaf), { maxLength: 8 }), (entries) => {
        const map = new Map(entries);
        const decoded = isoCBOR.decodeFirst<Map<unknown, unknown>>(encodeCbor(map));
        expect(decoded).toEqual(map);
      }),
    );
  });
});

describe('createSoftwareAuthenticator input checks', () => {
  it('refuses an empty rp id or origin, a bad AAGUID and an unknown format', () => {
    expect(() => createSoftwareAuthenticator({ rpId: '', origin: ORIGIN })).toThrow(/rpId/);
    expect(() => createSoftwareAuthenticator({ rpId: RP_ID, origin: '' })).toThrow(/origin/);
    expect(() => createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN, aaguidHex: 'abcd' })).toThrow(/aaguidHex/);
    const authenticator = createSoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
    expect(() => authenticator.register(challenge(), { format: 'tpm' as 'none' })).toThrow(/unsupported attestation format/);
    expect(() => authenticator.register('')).toThrow(/challenge/);
  });
});
