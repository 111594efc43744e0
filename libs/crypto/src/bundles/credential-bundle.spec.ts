/**
 * Tests for credential bundles, judged by the real client: `@turnkey/crypto` 2.13.2
 * `decryptCredentialBundle` must return the API private key as hex.
 */
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import { BundleError, type TBundleErrorReason } from './bundle-error.js';
import { createCredentialBundle } from './credential-bundle.js';
import { expectBundleError } from '../test-vectors.js';

const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));


describe('createCredentialBundle, opened by @turnkey/crypto decryptCredentialBundle', () => {
  it.each(['publicKeyUncompressed', 'publicKey'] as const)('returns the API private key as hex (target %s)', async (field) => {
    const target = generateP256KeyPair();
    const apiKey = generateP256KeyPair();
    const bundle = await createCredentialBundle(unhex(apiKey.privateKey), target[field]);
    expect(decryptCredentialBundle(bundle, target.privateKey)).toBe(apiKey.privateKey);
  });

  it('is bs58check(compressed enc ‖ ciphertext ‖ tag)', async () => {
    const target = generateP256KeyPair();
    const bytes = createBase58check(sha256).decode(await createCredentialBundle(unhex(generateP256KeyPair().privateKey), target.publicKey));
    expect(bytes).toHaveLength(33 + 32 + 16);
    expect([0x02, 0x03]).toContain(bytes[0]);
  });

  it('does not open with another embedded key', async () => {
    const target = generateP256KeyPair();
    const bundle = await createCredentialBundle(unhex(generateP256KeyPair().privateKey), target.publicKey);
    expect(() => decryptCredentialBundle(bundle, generateP256KeyPair().privateKey)).toThrow(/Error decrypting bundle/);
  });

  it('refuses a credential that is not a P-256 private key, without echoing it', async () => {
    const target = generateP256KeyPair().publicKey;
    await expectBundleError(() => createCredentialBundle(new Uint8Array(32), target), 'INVALID_PRIVATE_KEY');
    await expectBundleError(() => createCredentialBundle(new Uint8Array(31).fill(1), target), 'INVALID_PRIVATE_KEY');
    const tooBig = unhex('ff'.repeat(32));
    const error = await expectBundleError(() => createCredentialBundle(tooBig, target), 'INVALID_PRIVATE_KEY');
    expect(error.message).not.toContain('ffff');
  });

  it('refuses a target that is not a P-256 point', async () => {
    await expectBundleError(() => createCredentialBundle(unhex(generateP256KeyPair().privateKey), '02' + 'ff'.repeat(32)), 'INVALID_PUBLIC_KEY');
  });
});
