/**
 * Tests for passkey registration. Attestations are built here the way an authenticator and browser
 * build them (CBOR via `@simplewebauthn/server/helpers` `isoCBOR`, keys and signatures from
 * node:crypto), so each field can be altered on purpose; the testkit's software authenticator is
 * checked against the same verifier in its own spec.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { compressP256PublicKey } from '../keys/p256.js';
import { expectedWebauthnChallenge, parseWebauthnStamp, verifyWebauthnStamp } from '../stamp/verify-webauthn-stamp.js';
import { verifyWebauthnRegistration, type TVerifyWebauthnRegistrationParams } from './verify-registration.js';
import { WebauthnRegistrationError, type TWebauthnRegistrationErrorReason } from './webauthn-registration-error.js';

const RP_ID = 'wallet.example.com';
const ORIGIN = 'https://wallet.example.com';
const AAGUID = Buffer.from('adce000235bcc60a648b0b25f1f05503', 'hex');
const b64u = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

type TKey = { privateKey: KeyObject; cose: Map<number, number | Uint8Array>; alg: number; publicKeyHex?: string };

function p256Key(): TKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  const cose = new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, new Uint8Array(x)], [-3, new Uint8Array(y)]]);
  return { privateKey, cose, alg: -7, publicKeyHex: compressP256PublicKey(`04${x.toString('hex')}${y.toString('hex')}`) };
}

function ed25519Key(): TKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return { privateKey, cose: new Map<number, number | Uint8Array>([[1, 1], [3, -8], [-1, 6], [-2, new Uint8Array(x)]]), alg: -8 };
}

type TBuildOptions = {
  key?: TKey;
  /** Who signs a packed statement; defaults to the credential key (self attestation). */
  attestationSigner?: TKey;
  format?: string;
  attStmt?: Map<string, unknown>;
  challenge?: string;
  clientChallenge?: string;
  type?: string;
  origin?: string;
  rpId?: string;
  flags?: number;
  signCount?: number;
  credentialId?: Uint8Array;
  /** Edit authData after the attestation signature was made. */
  tamperAuthData?: (authData: Buffer) => void;
};

function build(options: TBuildOptions = {}) {
  const key = options.key ?? p256Key();
  const credentialId = options.credentialId ?? new Uint8Array(randomBytes(32));
  const challenge = options.challenge ?? b64u(randomBytes(32));
  const clientDataJson = Buffer.from(
    JSON.stringify({ type: options.type ?? 'webauthn.create', challenge: options.clientChallenge ?? challenge, origin: options.origin ?? ORIGIN, crossOrigin: false }),
  );
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(options.signCount ?? 0);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([
    sha256(options.rpId ?? RP_ID),
    Buffer.from([options.flags ?? 0x45]), // UP | UV | AT
    counter,
    AAGUID,
    idLength,
    credentialId,
    Buffer.from(isoCBOR.encode(key.cose)),
  ]);
  const format = options.format ?? 'none';
  let attStmt = options.attStmt ?? new Map<string, unknown>();
  if (format === 'packed' && !options.attStmt) {
    const signer = options.attestationSigner ?? key;
    const signed = Buffer.concat([authData, sha256(clientDataJson)]);
    const sig = signer.alg === -8 ? sign(null, signed, signer.privateKey) : sign('sha256', signed, signer.privateKey);
    attStmt = new Map<string, unknown>([['alg', signer.alg], ['sig', new Uint8Array(sig)]]);
  }
  options.tamperAuthData?.(authData);
  const attestationObject = isoCBOR.encode(
    new Map<string, unknown>([['fmt', format], ['attStmt', attStmt], ['authData', new Uint8Array(authData)]]) as never,
  );
  const params: TVerifyWebauthnRegistrationParams = {
    challenge,
    attestation: {
      credentialId: b64u(credentialId),
      clientDataJson: b64u(clientDataJson),
      attestationObject: b64u(attestationObject),
      transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL', 'AUTHENTICATOR_TRANSPORT_HYBRID'],
    },
  };
  return { params, key, credentialId };
}

async function expectRefused(promise: Promise<unknown>, reason: TWebauthnRegistrationErrorReason): Promise<WebauthnRegistrationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebauthnRegistrationError);
  expect((error as WebauthnRegistrationError).reason).toBe(reason);
  return error as WebauthnRegistrationError;
}

/** An X-Stamp-Webauthn assertion over `body` by `key`, as a browser would produce it. */
function assertionHeader(key: TKey, credentialId: Uint8Array, body: string): string {
  const authenticatorData = Buffer.concat([sha256(RP_ID), Buffer.from([0x05]), Buffer.from([0, 0, 0, 1])]);
  const clientDataJson = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge: expectedWebauthnChallenge(new TextEncoder().encode(body)), origin: ORIGIN }),
  );
  const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJson)]), key.privateKey);
  return JSON.stringify({
    authenticatorData: b64u(authenticatorData),
    clientDataJson: b64u(clientDataJson),
    credentialId: b64u(credentialId),
    signature: b64u(signature),
  });
}

describe('verifyWebauthnRegistration: accepted registrations', () => {
  it.each(['none', 'packed'])('accepts a %s attestation and returns the credential to store', async (format) => {
    const { params, key, credentialId } = build({ format, signCount: 7 });
    const result = await verifyWebauthnRegistration(params);
    expect(result).toEqual({
      credentialId: b64u(credentialId),
      publicKey: key.publicKeyHex,
      aaguid: 'adce0002-35bc-c60a-648b-0b25f1f05503',
      attestationType: format,
      signCount: 7,
      transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL', 'AUTHENTICATOR_TRANSPORT_HYBRID'],
      origin: ORIGIN,
      userVerified: true,
      backupEligible: false,
    });
    expect(result.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  });

  it('stores the key in the form verifyWebauthnStamp verifies the credential’s later stamps with', async () => {
    const { params, key, credentialId } = build({ format: 'packed' });
    const { publicKey } = await verifyWebauthnRegistration(params);
    const body = '{"type":"ACTIVITY_TYPE_STAMP_LOGIN","timestampMs":"1","organizationId":"o","parameters":{}}';
    const stamp = parseWebauthnStamp(assertionHeader(key, credentialId, body));
    expect(verifyWebauthnStamp(stamp, new TextEncoder().encode(body), new Uint8Array(Buffer.from(publicKey, 'hex')))).toBe(ORIGIN);
  });

  it('checks origin and rp id only when lists are given', async () => {
    const { params } = build({ origin: 'https://anything.example', rpId: 'anything.example' });
    await expect(verifyWebauthnRegistration(params)).resolves.toMatchObject({ origin: 'https://anything.example' });
    await expect(
      verifyWebauthnRegistration({ ...params, expectedOrigins: ['https://x.example', 'https://anything.example'], expectedRpIds: ['anything.example'] }),
    ).resolves.toMatchObject({ attestationType: 'none' });
  });

  it('accepts a challenge spelled with padding or the standard alphabet (same bytes)', async () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x01, 0x02]);
    const { params } = build({ challenge: b64u(bytes) });
    await expect(verifyWebauthnRegistration({ ...params, challenge: bytes.toString('base64') })).resolves.toMatchObject({ attestationType: 'none' });
  });

  it('accepts a registration without user verification unless it is required', async () => {
    const { params } = build({ format: 'packed', flags: 0x41 });
    await expect(verifyWebauthnRegistration(params)).resolves.toMatchObject({ userVerified: false });
    await expectRefused(verifyWebauthnRegistration({ ...params, requireUserVerification: true }), 'USER_NOT_VERIFIED');
  });

  it('property: any credential id length and counter round-trip', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 16, maxLength: 255 }), fc.nat({ max: 0xffffffff }), async (credentialId, signCount) => {
        const { params } = build({ credentialId, signCount, format: 'packed' });
        const result = await verifyWebauthnRegistration(params);
        expect(result.credentialId).toBe(b64u(credentialId));
        expect(result.signCount).toBe(signCount);
      }),
      { numRuns: 20 },
    );
  });
});

describe('verifyWebauthnRegistration: refusals', () => {
  it('refuses a packed statement signed by another key (forged attestation)', async () => {
    const { params } = build({ format: 'packed', attestationSigner: p256Key() });
    await expectRefused(verifyWebauthnRegistration(params), 'ATTESTATION_INVALID');
  });

  it('refuses authenticator data edited after the packed signature (e.g. a swapped counter)', async () => {
    const { params } = build({ format: 'packed', tamperAuthData: (authData) => authData.writeUInt32BE(99, 33) });
    await expectRefused(verifyWebauthnRegistration(params), 'ATTESTATION_INVALID');
  });

  it('refuses a clientDataJSON edited after the packed signature', async () => {
    const { params } = build({ format: 'packed' });
    const clientData = JSON.parse(Buffer.from(params.attestation.clientDataJson, 'base64url').toString('utf8')) as Record<string, unknown>;
    const edited = { ...params.attestation, clientDataJson: b64u(JSON.stringify({ ...clientData, crossOrigin: true })) };
    await expectRefused(verifyWebauthnRegistration({ ...params, attestation: edited }), 'ATTESTATION_INVALID');
  });

  it('refuses a none attestation that carries a statement', async () => {
    const { params } = build({ format: 'none', attStmt: new Map<string, unknown>([['alg', -7]]) });
    await expectRefused(verifyWebauthnRegistration(params), 'ATTESTATION_INVALID');
  });

  it('refuses a response to another challenge', async () => {
    const { params } = build({ clientChallenge: b64u(randomBytes(32)) });
    await expectRefused(verifyWebauthnRegistration(params), 'CHALLENGE_MISMATCH');
  });

  it('refuses an assertion (webauthn.get) presented as a registration', async () => {
    const { params } = build({ type: 'webauthn.get' });
    const error = await expectRefused(verifyWebauthnRegistration(params), 'TYPE_MISMATCH');
    expect(error.message).toMatch(/webauthn\.create/);
  });

  it('refuses an origin or rp id outside the given lists', async () => {
    const { params } = build({ origin: 'https://evil.example', rpId: 'evil.example' });
    await expectRefused(verifyWebauthnRegistration({ ...params, expectedOrigins: [ORIGIN] }), 'ORIGIN_MISMATCH');
    await expectRefused(verifyWebauthnRegistration({ ...params, expectedRpIds: [RP_ID] }), 'RP_ID_MISMATCH');
  });

  it('refuses a registration without user presence', async () => {
    const { params } = build({ flags: 0x44 });
    await expectRefused(verifyWebauthnRegistration(params), 'USER_NOT_PRESENT');
  });

  it('refuses a credentialId other than the attested one', async () => {
    const { params } = build();
    const attestation = { ...params.attestation, credentialId: b64u(randomBytes(32)) };
    await expectRefused(verifyWebauthnRegistration({ ...params, attestation }), 'CREDENTIAL_ID_MISMATCH');
  });

  it('refuses an Ed25519 passkey (stamps are verified as P-256 only)', async () => {
    const { params } = build({ key: ed25519Key(), format: 'packed' });
    const error = await expectRefused(verifyWebauthnRegistration(params), 'UNSUPPORTED_ALGORITHM');
    expect(error.message).toMatch(/alg -8/);
  });

  it.each(['made-up', 'apple', 'android-key'])('refuses the attestation format %s', async (format) => {
    const { params } = build({ format });
    await expectRefused(verifyWebauthnRegistration(params), 'UNSUPPORTED_FORMAT');
  });

  it('refuses registration data without an attested credential', async () => {
    const { params } = build({ flags: 0x05 });
    await expectRefused(verifyWebauthnRegistration(params), 'MALFORMED');
  });

  it.each([
    ['a non-base64url clientDataJson', { clientDataJson: 'not base64!' }],
    ['a clientDataJson that is not JSON', { clientDataJson: b64u('nope') }],
    ['an attestationObject that is not CBOR', { attestationObject: b64u(new Uint8Array([0xff, 0x00])) }],
    ['an empty credentialId', { credentialId: '' }],
    ['a protocol transport name', { transports: ['internal'] }],
  ])('refuses %s as MALFORMED', async (_name, change) => {
    const { params } = build();
    await expectRefused(verifyWebauthnRegistration({ ...params, attestation: { ...params.attestation, ...change } }), 'MALFORMED');
  });

  it('refuses a non-base64url challenge as MALFORMED, and bad option types as TypeError', async () => {
    const { params } = build();
    await expectRefused(verifyWebauthnRegistration({ ...params, challenge: '***' }), 'MALFORMED');
    await expect(verifyWebauthnRegistration({ ...params, expectedOrigins: ORIGIN as unknown as string[] })).rejects.toThrow(TypeError);
  });
});
