/**
 * Secret bundles judged by the real client: `@turnkey/crypto` 2.13.2 `encryptSecretToBundle` must
 * accept our target message only for the bound organization and signer key, what it encrypts must
 * open here, and our export bundle must open with `decryptSecretBundle` to the same text.
 */
import { describe, expect, it } from 'vitest';
import { decryptSecretBundle, encryptSecretToBundle, generateP256KeyPair } from '@turnkey/crypto';
import { createExportBundle } from './export-bundle.js';
import { openImportedBundle } from './import-bundle.js';
import { assertSecretPlaintext, createSecretTargetMessage } from './secret-bundles.js';
import type { TEnvelopeSigner, TSignedEnvelope } from './signed-envelope.js';
import { expectBundleError } from '../test-vectors.js';

const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
const ORG = '0f6d2a51-3c84-4b9e-a7d2-6e1f8c9b0a43';
const signerPair = generateP256KeyPair();
const signer: TEnvelopeSigner = { privateKey: unhex(signerPair.privateKey), publicKeyUncompressedHex: signerPair.publicKeyUncompressed };
const override = signerPair.publicKeyUncompressed;

function newTarget(form: 'uncompressed' | 'compressed' = 'uncompressed') {
  const target = generateP256KeyPair();
  const message = createSecretTargetMessage({ organizationId: ORG, targetPublicKeyUncompressedHex: form === 'uncompressed' ? target.publicKeyUncompressed : target.publicKey, signer });
  return { message, target };
}

describe('createSecretTargetMessage', () => {
  it('signs {organizationId, targetPublic} in that order, targetPublic uncompressed lowercase', () => {
    const { message, target } = newTarget('compressed');
    const envelope = JSON.parse(message) as TSignedEnvelope;
    expect(Buffer.from(envelope.data, 'hex').toString('utf8')).toBe(JSON.stringify({ organizationId: ORG, targetPublic: target.publicKeyUncompressed }));
    expect(envelope.enclaveQuorumPublic).toBe(override);
  });

  it('refuses an empty organization and a bad target key', async () => {
    await expectBundleError(() => createSecretTargetMessage({ organizationId: '', targetPublicKeyUncompressedHex: generateP256KeyPair().publicKeyUncompressed, signer }), 'INVALID_ARGUMENT');
    await expectBundleError(() => createSecretTargetMessage({ organizationId: ORG, targetPublicKeyUncompressedHex: '04abcd', signer }), 'INVALID_PUBLIC_KEY');
  });
});

describe('import and export through @turnkey/crypto', () => {
  it.each(['uncompressed', 'compressed'] as const)('a secret encrypted by encryptSecretToBundle opens here (target given %s)', async (form) => {
    const { message, target } = newTarget(form);
    const secret = 'sk_live_Ünïcode-🔑-token';
    const { secretPayload, targetPublicKey } = await encryptSecretToBundle({ plaintext: secret, ingressTargetBundle: message, organizationId: ORG, dangerouslyOverrideSignerPublicKey: override });
    expect(targetPublicKey).toBe(target.publicKeyUncompressed);
    const opened = await openImportedBundle(secretPayload, unhex(target.privateKey));
    assertSecretPlaintext(opened);
    expect(new TextDecoder().decode(opened)).toBe(secret);
  });

  it('the client refuses a target message for another organization or from another signer', async () => {
    const { message } = newTarget();
    await expect(encryptSecretToBundle({ plaintext: 'x', ingressTargetBundle: message, organizationId: 'other-org', dangerouslyOverrideSignerPublicKey: override })).rejects.toThrow(/organization id/);
    await expect(encryptSecretToBundle({ plaintext: 'x', ingressTargetBundle: message, organizationId: ORG, dangerouslyOverrideSignerPublicKey: generateP256KeyPair().publicKeyUncompressed })).rejects.toThrow();
  });

  it('a payload encrypted to another target does not open', async () => {
    const { message } = newTarget();
    const other = newTarget();
    const { secretPayload } = await encryptSecretToBundle({ plaintext: 'pw', ingressTargetBundle: message, organizationId: ORG, dangerouslyOverrideSignerPublicKey: override });
    await expectBundleError(() => openImportedBundle(secretPayload, unhex(other.target.privateKey)), 'DECRYPTION_FAILED');
  });

  it('an export bundle of the secret opens with decryptSecretBundle', async () => {
    const client = generateP256KeyPair();
    const secret = 'correct horse battery staple';
    const payload = await createExportBundle({ plaintext: new TextEncoder().encode(secret), targetPublicKey: client.publicKeyUncompressed, organizationId: ORG, signer });
    expect(await decryptSecretBundle({ secretPayload: payload, embeddedPrivateKey: client.privateKey, organizationId: ORG, dangerouslyOverrideSignerPublicKey: override })).toBe(secret);
    await expect(decryptSecretBundle({ secretPayload: payload, embeddedPrivateKey: client.privateKey, organizationId: 'other', dangerouslyOverrideSignerPublicKey: override })).rejects.toThrow(/organization id/);
  });

  it('assertSecretPlaintext refuses empty and non-UTF-8 plaintexts without quoting them', async () => {
    await expectBundleError(() => assertSecretPlaintext(new Uint8Array(0)), 'PLAINTEXT_INVALID');
    await expectBundleError(() => assertSecretPlaintext(new Uint8Array([0xff, 0xfe, 0x41])), 'PLAINTEXT_INVALID');
    expect(() => assertSecretPlaintext(new TextEncoder().encode('ok'))).not.toThrow();
  });
});
