/**
 * Tests for client signatures: the message builders against the exact strings of `@turnkey/core`
 * (its own test fixtures), and verification of signatures made the way core makes them (a DER
 * signature from the key, converted with `@turnkey/crypto` `fromDerSignature` to raw r‖s hex).
 */
import { createPrivateKey, sign as nodeSign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { p256 } from '@noble/curves/nist.js';
import { fromDerSignature, generateP256KeyPair } from '@turnkey/crypto';
import { ClientSignatureError } from './login-errors.js';
import {
  CLIENT_SIGNATURE_SCHEME_API_P256,
  loginClientSignatureMessage,
  parseTokenUsageMessage,
  signClientSignature,
  signupClientSignatureMessage,
  verifyClientSignature,
  type TClientSignature,
} from './client-signature.js';

const tokenKey = generateP256KeyPair();
const session = generateP256KeyPair();
const TOKEN_ID = 'verification-token-id';

/** Signs like @turnkey/core: node:crypto DER (random k, either S half), then fromDerSignature. */
function signLikeCore(message: string, pair = tokenKey): TClientSignature {
  const x = Buffer.from(pair.publicKeyUncompressed.slice(2, 66), 'hex').toString('base64url');
  const y = Buffer.from(pair.publicKeyUncompressed.slice(66), 'hex').toString('base64url');
  const d = Buffer.from(pair.privateKey, 'hex').toString('base64url');
  const key = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x, y, d }, format: 'jwk' });
  const der = nodeSign('sha256', Buffer.from(message, 'utf8'), key).toString('hex');
  return {
    publicKey: pair.publicKey,
    scheme: CLIENT_SIGNATURE_SCHEME_API_P256,
    message,
    signature: Buffer.from(fromDerSignature(der)).toString('hex'),
  };
}

function clientErrorOf(fn: () => unknown): ClientSignatureError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ClientSignatureError) return error;
    throw error;
  }
  throw new Error('expected a ClientSignatureError, but nothing was thrown');
}

describe('token-usage messages', () => {
  it('builds the login message byte-identical to core getClientSignatureMessageForLogin', () => {
    expect(loginClientSignatureMessage('session-public-key', TOKEN_ID)).toBe(
      '{"login":{"publicKey":"session-public-key"},"tokenId":"verification-token-id","type":"USAGE_TYPE_LOGIN"}',
    );
  });

  it('builds the signupV2 message as core does (arrays even when empty, strings only when set)', () => {
    expect(signupClientSignatureMessage(TOKEN_ID, { email: 'alice@example.com', apiKeys: [], authenticators: [], oauthProviders: [] })).toBe(
      JSON.stringify({
        signupV2: { apiKeys: [], authenticators: [], oauthProviders: [], email: 'alice@example.com' },
        tokenId: TOKEN_ID,
        type: 'USAGE_TYPE_SIGNUP',
      }),
    );
    expect(signupClientSignatureMessage(TOKEN_ID, { email: '', phoneNumber: '+15555550100' })).toBe(
      '{"signupV2":{"phoneNumber":"+15555550100"},"tokenId":"verification-token-id","type":"USAGE_TYPE_SIGNUP"}',
    );
  });

  it('refuses empty arguments', () => {
    expect(() => loginClientSignatureMessage('', TOKEN_ID)).toThrow(/sessionPublicKey/);
    expect(() => loginClientSignatureMessage('k', '')).toThrow(/tokenId/);
    expect(() => signupClientSignatureMessage('')).toThrow(/tokenId/);
  });
});

describe('parseTokenUsageMessage', () => {
  it('parses the legacy login message', () => {
    expect(parseTokenUsageMessage(loginClientSignatureMessage(session.publicKey, TOKEN_ID))).toEqual({
      type: 'USAGE_TYPE_LOGIN',
      tokenId: TOKEN_ID,
      variant: 'login',
      publicKey: session.publicKey,
      usage: { publicKey: session.publicKey },
    });
  });

  it('parses loginV2, signupV2 and signupV3 messages of newer core builds', () => {
    const loginV2 = { organizationId: 'sub-org', publicKey: session.publicKey, invalidateExisting: false, expirationSeconds: '3600' };
    expect(parseTokenUsageMessage(JSON.stringify({ loginV2, tokenId: TOKEN_ID, type: 'USAGE_TYPE_LOGIN' }))).toMatchObject({
      variant: 'loginV2',
      publicKey: session.publicKey,
      usage: loginV2,
    });
    expect(parseTokenUsageMessage(signupClientSignatureMessage(TOKEN_ID, { email: 'a@b.c' }))).toEqual({
      type: 'USAGE_TYPE_SIGNUP',
      tokenId: TOKEN_ID,
      variant: 'signupV2',
      usage: { email: 'a@b.c' },
    });
    const signupV3 = { parentOrganizationId: 'parent', subOrganizationName: 'x', rootUsers: [], rootQuorumThreshold: 1 };
    expect(parseTokenUsageMessage(JSON.stringify({ signupV3, tokenId: TOKEN_ID, type: 'USAGE_TYPE_SIGNUP' })).variant).toBe('signupV3');
  });

  it.each([
    ['not JSON', 'login please'],
    ['an array', '[]'],
    ['no tokenId', JSON.stringify({ login: { publicKey: 'k' }, type: 'USAGE_TYPE_LOGIN' })],
    ['an unknown type', JSON.stringify({ login: { publicKey: 'k' }, tokenId: 't', type: 'USAGE_TYPE_EXPORT' })],
    ['login without publicKey', JSON.stringify({ login: {}, tokenId: 't', type: 'USAGE_TYPE_LOGIN' })],
    ['login as a string', JSON.stringify({ login: 'k', tokenId: 't', type: 'USAGE_TYPE_LOGIN' })],
    ['two login variants', JSON.stringify({ login: { publicKey: 'k' }, loginV2: { publicKey: 'k' }, tokenId: 't', type: 'USAGE_TYPE_LOGIN' })],
    ['a signup usage under a login type', JSON.stringify({ signupV2: {}, tokenId: 't', type: 'USAGE_TYPE_LOGIN' })],
    ['a login usage under a signup type', JSON.stringify({ login: { publicKey: 'k' }, signupV2: {}, tokenId: 't', type: 'USAGE_TYPE_SIGNUP' })],
  ])('refuses %s as MESSAGE_MALFORMED', (_name, message) => {
    expect(clientErrorOf(() => parseTokenUsageMessage(message)).reason).toBe('MESSAGE_MALFORMED');
  });
});

describe('verifyClientSignature', () => {
  const message = loginClientSignatureMessage(session.publicKey, TOKEN_ID);

  it('accepts a signature made the way @turnkey/core makes it (raw r||s hex)', () => {
    const clientSignature = signLikeCore(message);
    expect(clientSignature.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(() => verifyClientSignature(clientSignature, tokenKey.publicKey)).not.toThrow();
    expect(() => verifyClientSignature(clientSignature, tokenKey.publicKeyUncompressed)).not.toThrow();
  });

  it('accepts the DER form, upper-case hex, and both S halves', () => {
    const raw = signClientSignature(message, tokenKey.privateKey);
    const sig = p256.Signature.fromBytes(new Uint8Array(Buffer.from(raw.signature, 'hex')), 'compact');
    const highS = new p256.Signature(sig.r, p256.Point.CURVE().n - sig.s);
    for (const signature of [
      Buffer.from(sig.toBytes('der')).toString('hex'),
      raw.signature.toUpperCase(),
      Buffer.from(highS.toBytes('compact')).toString('hex'),
      Buffer.from(highS.toBytes('der')).toString('hex'),
    ]) {
      expect(() => verifyClientSignature({ ...raw, signature }, tokenKey.publicKey)).not.toThrow();
    }
  });

  it('property: signClientSignature output always verifies, and never for another message', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), fc.string({ minLength: 1, maxLength: 200 }), (a, b) => {
        const signed = signClientSignature(a, tokenKey.privateKey);
        expect(signed.publicKey).toBe(tokenKey.publicKey);
        verifyClientSignature(signed, tokenKey.publicKey);
        if (a !== b) {
          expect(clientErrorOf(() => verifyClientSignature({ ...signed, message: b }, tokenKey.publicKey)).reason).toBe('SIGNATURE_INVALID');
        }
      }),
      { numRuns: 50 },
    );
  });

  it('refuses a key other than the token’s, naming both', () => {
    const other = generateP256KeyPair();
    const error = clientErrorOf(() => verifyClientSignature(signLikeCore(message, other), tokenKey.publicKey));
    expect(error.reason).toBe('PUBLIC_KEY_MISMATCH');
    expect(error.message).toContain(other.publicKey);
    expect(error.message).toContain(tokenKey.publicKey);
  });

  it('refuses a signature by another key presented under the token’s key', () => {
    const forged = { ...signLikeCore(message, generateP256KeyPair()), publicKey: tokenKey.publicKey };
    expect(clientErrorOf(() => verifyClientSignature(forged, tokenKey.publicKey)).reason).toBe('SIGNATURE_INVALID');
  });

  it('refuses an edited message', () => {
    const signed = signLikeCore(message);
    const edited = { ...signed, message: loginClientSignatureMessage(generateP256KeyPair().publicKey, TOKEN_ID) };
    expect(clientErrorOf(() => verifyClientSignature(edited, tokenKey.publicKey)).reason).toBe('SIGNATURE_INVALID');
  });

  it.each([
    ['an unknown scheme', { scheme: 'SIGNATURE_SCHEME_TK_API_P256' }, 'SCHEME_UNSUPPORTED'],
    ['a public key that is not a point', { publicKey: `02${'ff'.repeat(32)}` }, 'PUBLIC_KEY_INVALID'],
    ['a non-hex signature', { signature: 'zz'.repeat(64) }, 'SIGNATURE_MALFORMED'],
    ['a 63-byte signature', { signature: 'ab'.repeat(63) }, 'SIGNATURE_MALFORMED'],
    ['an all-zero raw signature', { signature: '00'.repeat(64) }, 'SIGNATURE_MALFORMED'],
    ['an empty message', { message: '' }, 'MESSAGE_MALFORMED'],
  ])('refuses %s', (_name, change, reason) => {
    const clientSignature = { ...signLikeCore(message), ...change };
    expect(clientErrorOf(() => verifyClientSignature(clientSignature, tokenKey.publicKey)).reason).toBe(reason);
  });

  it('throws TypeError when the expected key itself is not a P-256 key', () => {
    expect(() => verifyClientSignature(signLikeCore(message), 'nope')).toThrow(TypeError);
  });
});
