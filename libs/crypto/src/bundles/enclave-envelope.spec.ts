/**
 * The QOS envelope, judged by the real client: whatever `@turnkey/crypto` 2.13.2
 * `encryptOauth2ClientSecret` (and `encryptToEnclave`) makes for our key must open to the same
 * text, and nothing else may.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encryptOauth2ClientSecret, encryptToEnclave, generateP256KeyPair } from '@turnkey/crypto';
import { decodeEnclaveEnvelope, openEnclaveEnvelope } from './enclave-envelope.js';
import { expectBundleError } from '../test-vectors.js';

const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
const utf8 = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('openEnclaveEnvelope, fed by @turnkey/crypto', () => {
  it('opens encryptOauth2ClientSecret(secret, our uncompressed key) to the secret', async () => {
    const recipient = generateP256KeyPair();
    const secret = 'dGhpcy1pcy1hLWNsaWVudC1zZWNyZXQ_with-ünïcode';
    const envelope = await encryptOauth2ClientSecret(secret, recipient.publicKeyUncompressed);
    expect(utf8(openEnclaveEnvelope(unhex(envelope), unhex(recipient.privateKey)))).toBe(secret);
  });

  it('is nonce(12) ‖ uncompressed ephemeral key(65) ‖ u32-LE length ‖ ciphertext ‖ tag(16)', async () => {
    const recipient = generateP256KeyPair();
    const bytes = await encryptToEnclave(recipient.publicKeyUncompressed, 'abc');
    expect(bytes).toHaveLength(12 + 65 + 4 + 3 + 16);
    const parts = decodeEnclaveEnvelope(bytes);
    expect(parts.nonce).toHaveLength(12);
    expect(parts.ephemeralSenderPublic[0]).toBe(0x04);
    expect(parts.encryptedMessage).toHaveLength(3 + 16);
    expect(Buffer.from(bytes.subarray(77, 81)).readUInt32LE(0)).toBe(19);
  });

  it('round-trips any text (property)', async () => {
    const recipient = generateP256KeyPair();
    const key = unhex(recipient.privateKey);
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) => {
        const envelope = await encryptToEnclave(recipient.publicKeyUncompressed, text);
        expect(utf8(openEnclaveEnvelope(envelope, key))).toBe(text);
      }),
      { numRuns: 40 },
    );
  });

  it('does not open with another key, without echoing the plaintext', async () => {
    const envelope = await encryptOauth2ClientSecret('top-secret-value', generateP256KeyPair().publicKeyUncompressed);
    const error = await expectBundleError(() => openEnclaveEnvelope(unhex(envelope), unhex(generateP256KeyPair().privateKey)), 'DECRYPTION_FAILED');
    expect(error.message).not.toContain('top-secret');
  });

  it('refuses an envelope with any byte altered (nonce, key, ciphertext or tag)', async () => {
    const recipient = generateP256KeyPair();
    const envelope = unhex(await encryptOauth2ClientSecret('s3cret', recipient.publicKeyUncompressed));
    for (const at of [0, 11, 40, 81, envelope.length - 1]) {
      const altered = Uint8Array.from(envelope);
      altered[at]! ^= 0x01;
      const reason = at >= 12 && at < 77 ? ['BUNDLE_MALFORMED', 'DECRYPTION_FAILED'] : ['DECRYPTION_FAILED'];
      let caught: unknown;
      try {
        openEnclaveEnvelope(altered, unhex(recipient.privateKey));
      } catch (e) {
        caught = e;
      }
      expect(reason).toContain((caught as { reason?: string }).reason);
    }
  });

  it('does not open an envelope made to the compressed form of our key (the AAD names the key as sent)', async () => {
    const recipient = generateP256KeyPair();
    const envelope = await encryptToEnclave(recipient.publicKey, 'x');
    await expectBundleError(() => openEnclaveEnvelope(envelope, unhex(recipient.privateKey)), 'DECRYPTION_FAILED');
  });

  it('refuses truncated, padded or mis-sized envelopes as malformed', async () => {
    const recipient = generateP256KeyPair();
    const key = unhex(recipient.privateKey);
    const envelope = await encryptToEnclave(recipient.publicKeyUncompressed, 'hello');
    await expectBundleError(() => openEnclaveEnvelope(envelope.subarray(0, 90), key), 'BUNDLE_MALFORMED');
    await expectBundleError(() => openEnclaveEnvelope(envelope.subarray(0, envelope.length - 1), key), 'BUNDLE_MALFORMED');
    const padded = new Uint8Array(envelope.length + 1);
    padded.set(envelope);
    await expectBundleError(() => openEnclaveEnvelope(padded, key), 'BUNDLE_MALFORMED');
    const compressedKey = Uint8Array.from(envelope);
    compressedKey[12] = 0x02;
    await expectBundleError(() => openEnclaveEnvelope(compressedKey, key), 'BUNDLE_MALFORMED');
  });

  it('asserts its arguments', async () => {
    const envelope = await encryptToEnclave(generateP256KeyPair().publicKeyUncompressed, 'x');
    await expectBundleError(() => openEnclaveEnvelope(envelope, new Uint8Array(32)), 'INVALID_PRIVATE_KEY');
    await expectBundleError(() => openEnclaveEnvelope('00' as unknown as Uint8Array, unhex(generateP256KeyPair().privateKey)), 'INVALID_ARGUMENT');
  });
});
