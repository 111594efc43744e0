/**
 * Tests for the OTP bundles, judged by the real client: `@turnkey/crypto` 2.13.2
 * `encryptOtpCodeToBundle(code, targetBundle, publicKey, override)` must accept our target bundle,
 * and what it returns must open back to the code and key.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encryptOtpCodeToBundle, generateP256KeyPair } from '@turnkey/crypto';
import { hpkeSeal } from '../bundles/hpke.js';
import type { TEnvelopeSigner, TSignedEnvelope } from '../bundles/signed-envelope.js';
import { expectBundleError } from '../test-vectors.js';
import { createOtpEncryptionTargetBundle, openEncryptedOtpBundle } from './otp-bundle.js';

const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
const ORG = 'c75e4a1b-0d2f-4b8e-9a3c-6f1e2d3c4b5a';

const signerPair = generateP256KeyPair();
const signer: TEnvelopeSigner = { privateKey: unhex(signerPair.privateKey), publicKeyUncompressedHex: signerPair.publicKeyUncompressed };
const override = signerPair.publicKeyUncompressed;

function dataOf(bundle: string): Record<string, unknown> {
  const envelope = JSON.parse(bundle) as TSignedEnvelope;
  return JSON.parse(Buffer.from(envelope.data, 'hex').toString('utf8')) as Record<string, unknown>;
}

async function sealJson(value: unknown, targetPublicKey: string): Promise<string> {
  const sealed = await hpkeSeal(new TextEncoder().encode(JSON.stringify(value)), targetPublicKey);
  return JSON.stringify({
    encappedPublic: Buffer.from(sealed.encappedPublic).toString('hex'),
    ciphertext: Buffer.from(sealed.ciphertext).toString('hex'),
  });
}

describe('OTP bundles with @turnkey/crypto encryptOtpCodeToBundle', () => {
  it.each([
    ['uncompressed', (pair: ReturnType<typeof generateP256KeyPair>) => pair.publicKeyUncompressed],
    ['compressed', (pair: ReturnType<typeof generateP256KeyPair>) => pair.publicKey],
  ])('round-trips a code and client key through a %s target key', async (_form, targetOf) => {
    const target = generateP256KeyPair();
    const clientKey = generateP256KeyPair().publicKey;
    const bundle = createOtpEncryptionTargetBundle({ targetPublicKeyHex: targetOf(target), organizationId: ORG, signer });
    const encrypted = await encryptOtpCodeToBundle('7XK2M9QPA', bundle, clientKey, override);
    await expect(openEncryptedOtpBundle(encrypted, unhex(target.privateKey))).resolves.toEqual({ otpCode: '7XK2M9QPA', publicKey: clientKey });
  });

  it('property: any code string survives the round trip unchanged', async () => {
    const target = generateP256KeyPair();
    const clientKey = generateP256KeyPair().publicKey;
    const bundle = createOtpEncryptionTargetBundle({ targetPublicKeyHex: target.publicKey, signer });
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), async (code) => {
        const encrypted = await encryptOtpCodeToBundle(code, bundle, clientKey, override);
        expect(await openEncryptedOtpBundle(encrypted, unhex(target.privateKey))).toEqual({ otpCode: code, publicKey: clientKey });
      }),
      { numRuns: 25 },
    );
  });

  it('is refused by the client without the signer override, or with another signer key', async () => {
    const bundle = createOtpEncryptionTargetBundle({ targetPublicKeyHex: generateP256KeyPair().publicKey, signer });
    const clientKey = generateP256KeyPair().publicKey;
    await expect(encryptOtpCodeToBundle('123456', bundle, clientKey)).rejects.toThrow(/does not match signer key/);
    await expect(encryptOtpCodeToBundle('123456', bundle, clientKey, generateP256KeyPair().publicKeyUncompressed)).rejects.toThrow(
      /does not match signer key/,
    );
  });

  it('is refused by the client when the signed data is swapped for another target key', async () => {
    const bundle = createOtpEncryptionTargetBundle({ targetPublicKeyHex: generateP256KeyPair().publicKey, signer });
    const envelope = JSON.parse(bundle) as TSignedEnvelope;
    const forged = JSON.stringify({
      ...envelope,
      data: Buffer.from(JSON.stringify({ targetPublic: generateP256KeyPair().publicKeyUncompressed })).toString('hex'),
    });
    await expect(encryptOtpCodeToBundle('123456', forged, generateP256KeyPair().publicKey, override)).rejects.toThrow(/verification failed/);
  });

  it('signs exactly {targetPublic} (uncompressed), plus organizationId when given', () => {
    const target = generateP256KeyPair();
    const bare = dataOf(createOtpEncryptionTargetBundle({ targetPublicKeyHex: target.publicKey, signer }));
    expect(bare).toEqual({ targetPublic: target.publicKeyUncompressed });
    const bound = dataOf(createOtpEncryptionTargetBundle({ targetPublicKeyHex: target.publicKey.toUpperCase(), organizationId: ORG, signer }));
    expect(Object.keys(bound)).toEqual(['targetPublic', 'organizationId']);
    expect(bound).toEqual({ targetPublic: target.publicKeyUncompressed, organizationId: ORG });
    expect(JSON.parse(createOtpEncryptionTargetBundle({ targetPublicKeyHex: target.publicKey, signer }))).toMatchObject({
      version: 'v1.0.0',
      enclaveQuorumPublic: signerPair.publicKeyUncompressed,
    });
  });

  it('refuses bad arguments', async () => {
    await expectBundleError(() => createOtpEncryptionTargetBundle({ targetPublicKeyHex: 'abcd', signer }), 'INVALID_PUBLIC_KEY');
    await expectBundleError(
      () => createOtpEncryptionTargetBundle({ targetPublicKeyHex: generateP256KeyPair().publicKey, organizationId: '', signer }),
      'INVALID_ARGUMENT',
    );
    await expectBundleError(
      () =>
        createOtpEncryptionTargetBundle({
          targetPublicKeyHex: generateP256KeyPair().publicKey,
          signer: { ...signer, publicKeyUncompressedHex: generateP256KeyPair().publicKeyUncompressed },
        }),
      'SIGNER_MISMATCH',
    );
  });
});

describe('openEncryptedOtpBundle', () => {
  const target = generateP256KeyPair();
  const clientKey = generateP256KeyPair().publicKey;
  const bundle = createOtpEncryptionTargetBundle({ targetPublicKeyHex: target.publicKey, signer });

  it('does not open with another target key', async () => {
    const encrypted = await encryptOtpCodeToBundle('123456', bundle, clientKey, override);
    await expectBundleError(() => openEncryptedOtpBundle(encrypted, unhex(generateP256KeyPair().privateKey)), 'DECRYPTION_FAILED');
  });

  it('does not open once the ciphertext or enc is altered', async () => {
    const encrypted = JSON.parse(await encryptOtpCodeToBundle('123456', bundle, clientKey, override)) as Record<string, string>;
    const ciphertext = encrypted['ciphertext']!;
    const flipped = `${ciphertext.slice(0, -2)}${ciphertext.slice(-2) === '00' ? '01' : '00'}`;
    await expectBundleError(
      () => openEncryptedOtpBundle(JSON.stringify({ ...encrypted, ciphertext: flipped }), unhex(target.privateKey)),
      'DECRYPTION_FAILED',
    );
    const otherEnc = generateP256KeyPair().publicKeyUncompressed;
    await expectBundleError(
      () => openEncryptedOtpBundle(JSON.stringify({ ...encrypted, encappedPublic: otherEnc }), unhex(target.privateKey)),
      'DECRYPTION_FAILED',
    );
  });

  it('also reads the camelCase {otpCode, publicKey} plaintext some core builds send', async () => {
    const encrypted = await sealJson({ otpCode: '424242', publicKey: clientKey }, target.publicKey);
    await expect(openEncryptedOtpBundle(encrypted, unhex(target.privateKey))).resolves.toEqual({ otpCode: '424242', publicKey: clientKey });
  });

  it.each([
    ['not JSON', 'nope'],
    ['a JSON array', '[]'],
    ['no ciphertext', JSON.stringify({ encappedPublic: '04'.padEnd(130, '1') })],
    ['non-hex fields', JSON.stringify({ encappedPublic: 'xyz', ciphertext: 'xyz' })],
    ['an oversized bundle', JSON.stringify({ encappedPublic: '04', ciphertext: 'ab'.repeat(3000) })],
  ])('refuses %s as BUNDLE_MALFORMED', async (_name, encrypted) => {
    await expectBundleError(() => openEncryptedOtpBundle(encrypted, unhex(target.privateKey)), 'BUNDLE_MALFORMED');
  });

  it.each([
    ['a bare string', 'just a code'],
    ['no public key', { otp_code: '123456' }],
    ['an empty code', { otp_code: '', public_key: clientKey }],
    ['a numeric code', { otp_code: 123456, public_key: clientKey }],
    ['a public key that is not a point', { otp_code: '123456', public_key: 'deadbeef' }],
  ])('refuses a plaintext with %s as PLAINTEXT_INVALID', async (_name, plaintext) => {
    const encrypted = await sealJson(plaintext, target.publicKey);
    await expectBundleError(() => openEncryptedOtpBundle(encrypted, unhex(target.privateKey)), 'PLAINTEXT_INVALID');
  });

  it('refuses a private key that is not 32 bytes', async () => {
    const encrypted = await encryptOtpCodeToBundle('123456', bundle, clientKey, override);
    await expectBundleError(() => openEncryptedOtpBundle(encrypted, new Uint8Array(31)), 'INVALID_ARGUMENT');
  });
});
