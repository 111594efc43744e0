/** Tests for X-Stamp-Webauthn, with synthetic assertions signed by node:crypto. */
import { describe, expect, it } from 'vitest';
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { StampError } from '../errors.js';
import { compressP256PublicKey } from '../keys/p256.js';
import { VECTOR_BODY, stampErrorOf, vectorBodyBytes } from '../test-vectors.js';
import {
  expectedWebauthnChallenge,
  parseWebauthnStamp,
  verifyWebauthnStamp,
} from './verify-webauthn-stamp.js';

const ORIGIN = 'https://wallet.example.com';
const b64u = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

function newCredential(): { privateKey: KeyObject; publicKey: Uint8Array } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  // The SPKI of an uncompressed P-256 key ends with the 65-byte point.
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return { privateKey, publicKey: new Uint8Array(spki.subarray(spki.length - 65)) };
}

type AssertionOptions = { type?: string; challenge?: string; origin?: string; body?: string };

/** A synthetic WebAuthn assertion over `body`, as a browser + authenticator would produce it. */
function buildHeader(privateKey: KeyObject, options: AssertionOptions = {}): string {
  const body = new TextEncoder().encode(options.body ?? VECTOR_BODY);
  const authenticatorData = Buffer.concat([
    sha256('wallet.example.com'), // rpIdHash
    Buffer.from([0x05]), // flags: user present + user verified
    Buffer.from([0, 0, 0, 7]), // signCount
  ]);
  const clientDataJson = Buffer.from(
    JSON.stringify({
      type: options.type ?? 'webauthn.get',
      challenge: options.challenge ?? expectedWebauthnChallenge(body),
      origin: options.origin ?? ORIGIN,
      crossOrigin: false,
    }),
  );
  const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJson)]), privateKey);
  return JSON.stringify({
    authenticatorData: b64u(authenticatorData),
    clientDataJson: b64u(clientDataJson),
    credentialId: b64u(Buffer.from('credential-1')),
    signature: b64u(signature),
  });
}


describe('expectedWebauthnChallenge', () => {
  it('matches the protocol-notes example (base64url of the UTF-8 hex digest)', () => {
    expect(sha256(VECTOR_BODY).toString('hex')).toBe(
      'de3b111992564747c9cfc202a2fc76629597cbbd8dea317a213e60a83d08a235',
    );
    expect(expectedWebauthnChallenge(vectorBodyBytes())).toBe(
      'ZGUzYjExMTk5MjU2NDc0N2M5Y2ZjMjAyYTJmYzc2NjI5NTk3Y2JiZDhkZWEzMTdhMjEzZTYwYTgzZDA4YTIzNQ',
    );
  });
});

describe('verifyWebauthnStamp', () => {
  const credential = newCredential();

  it('verifies a well-formed assertion and returns the origin', () => {
    const stamp = parseWebauthnStamp(buildHeader(credential.privateKey));
    expect(stamp.credentialId).toBe(b64u('credential-1'));
    expect(stamp.authenticatorData).toHaveLength(37);
    expect(verifyWebauthnStamp(stamp, vectorBodyBytes(), credential.publicKey)).toBe(ORIGIN);
  });

  it('accepts the stored key in compressed form too', () => {
    const compressed = Buffer.from(
      compressP256PublicKey(Buffer.from(credential.publicKey).toString('hex')),
      'hex',
    );
    const stamp = parseWebauthnStamp(buildHeader(credential.privateKey));
    expect(verifyWebauthnStamp(stamp, vectorBodyBytes(), new Uint8Array(compressed))).toBe(ORIGIN);
  });

  it('fails for a challenge over another body', () => {
    const stamp = parseWebauthnStamp(
      buildHeader(credential.privateKey, { challenge: expectedWebauthnChallenge(new TextEncoder().encode('{}')) }),
    );
    const error = stampErrorOf(() => verifyWebauthnStamp(stamp, vectorBodyBytes(), credential.publicKey));
    expect(error.reason).toBe('SIGNATURE_INVALID');
    expect(error.message).toMatch(/challenge/);
  });

  it('fails when the challenge is the raw digest instead of its hex', () => {
    const stamp = parseWebauthnStamp(buildHeader(credential.privateKey, { challenge: b64u(sha256(VECTOR_BODY)) }));
    expect(stampErrorOf(() => verifyWebauthnStamp(stamp, vectorBodyBytes(), credential.publicKey)).reason).toBe(
      'SIGNATURE_INVALID',
    );
  });

  it('fails for a registration (webauthn.create) clientData', () => {
    const stamp = parseWebauthnStamp(buildHeader(credential.privateKey, { type: 'webauthn.create' }));
    const error = stampErrorOf(() => verifyWebauthnStamp(stamp, vectorBodyBytes(), credential.publicKey));
    expect(error.reason).toBe('SIGNATURE_INVALID');
    expect(error.message).toMatch(/webauthn\.get/);
  });

  it('fails over a tampered body', () => {
    const stamp = parseWebauthnStamp(buildHeader(credential.privateKey));
    const tampered = new TextEncoder().encode(VECTOR_BODY.replace('"w"', '"x"'));
    expect(stampErrorOf(() => verifyWebauthnStamp(stamp, tampered, credential.publicKey)).reason).toBe('SIGNATURE_INVALID');
  });

  it('fails for another credential’s key and for altered authenticatorData', () => {
    const stamp = parseWebauthnStamp(buildHeader(credential.privateKey));
    expect(stampErrorOf(() => verifyWebauthnStamp(stamp, vectorBodyBytes(), newCredential().publicKey)).reason).toBe(
      'SIGNATURE_INVALID',
    );
    const authenticatorData = new Uint8Array(stamp.authenticatorData);
    authenticatorData[36] = 8; // signCount
    expect(
      stampErrorOf(() => verifyWebauthnStamp({ ...stamp, authenticatorData }, vectorBodyBytes(), credential.publicKey))
        .reason,
    ).toBe('SIGNATURE_INVALID');
  });

  it('rejects a stored key that is not a P-256 point', () => {
    const stamp = parseWebauthnStamp(buildHeader(credential.privateKey));
    for (const publicKey of [new Uint8Array(65), credential.publicKey.subarray(1), new Uint8Array(0)]) {
      expect(stampErrorOf(() => verifyWebauthnStamp(stamp, vectorBodyBytes(), publicKey)).reason).toBe('SIGNATURE_INVALID');
    }
  });

  it('reports clientDataJson that is not JSON as STAMP_MALFORMED', () => {
    const stamp = parseWebauthnStamp(buildHeader(credential.privateKey));
    const clientDataJson = new TextEncoder().encode('not json');
    expect(
      stampErrorOf(() => verifyWebauthnStamp({ ...stamp, clientDataJson }, vectorBodyBytes(), credential.publicKey)).reason,
    ).toBe('STAMP_MALFORMED');
  });
});

describe('parseWebauthnStamp', () => {
  const valid = JSON.parse(buildHeader(newCredential().privateKey)) as Record<string, string>;

  it('is not base64: the header is plain JSON', () => {
    expect(stampErrorOf(() => parseWebauthnStamp(Buffer.from(JSON.stringify(valid)).toString('base64url'))).reason).toBe(
      'STAMP_MALFORMED',
    );
  });

  it('rejects missing or non-base64url fields and short authenticatorData, naming the field', () => {
    for (const field of ['authenticatorData', 'clientDataJson', 'credentialId', 'signature']) {
      for (const value of [undefined, 1, '', '!!']) {
        const error = stampErrorOf(() => parseWebauthnStamp(JSON.stringify({ ...valid, [field]: value })));
        expect(error.reason).toBe('STAMP_MALFORMED');
        expect(error.message).toContain(field);
      }
    }
    const short = stampErrorOf(() => parseWebauthnStamp(JSON.stringify({ ...valid, authenticatorData: b64u(new Uint8Array(36)) })));
    expect(short.message).toMatch(/authenticatorData/);
  });

  it('normalises credentialId to unpadded base64url', () => {
    const id = Buffer.from([0xfb, 0xff, 0xfe, 0x01]);
    const stamp = parseWebauthnStamp(JSON.stringify({ ...valid, credentialId: id.toString('base64') }));
    expect(stamp.credentialId).toBe(id.toString('base64url'));
  });

  it('never throws anything but StampError on arbitrary input', () => {
    const arbitrary = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .record(
          {
            authenticatorData: fc.oneof(fc.string(), fc.uint8Array().map(b64u)),
            clientDataJson: fc.oneof(fc.string(), fc.json().map(b64u)),
            credentialId: fc.string(),
            signature: fc.oneof(fc.string(), fc.uint8Array().map(b64u)),
          },
          { requiredKeys: [] },
        )
        .map((record) => JSON.stringify(record)),
    );
    fc.assert(
      fc.property(arbitrary, (text) => {
        try {
          const stamp = parseWebauthnStamp(text);
          verifyWebauthnStamp(stamp, vectorBodyBytes(), newCredential().publicKey);
          return false; // nothing random should verify
        } catch (error) {
          return error instanceof StampError;
        }
      }),
      { numRuns: 500 },
    );
  });
});
