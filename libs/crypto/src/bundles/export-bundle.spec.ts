/**
 * Tests for export bundles, judged by the real client: `@turnkey/crypto` 2.13.2
 * `decryptExportBundle` must open them for the right organization and signer key, and only then.
 */
import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { decryptExportBundle, generateP256KeyPair } from '@turnkey/crypto';
import { BundleError, type TBundleErrorReason } from './bundle-error.js';
import { createExportBundle } from './export-bundle.js';
import type { TEnvelopeSigner, TSignedEnvelope } from './signed-envelope.js';
import { expectBundleError } from '../test-vectors.js';

const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);


const ORG = '5c2b3f5e-7d1a-4f0e-9b7e-2a4c1d3e5f60';
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

const signerPair = generateP256KeyPair();
const signer: TEnvelopeSigner = {
  privateKey: unhex(signerPair.privateKey),
  publicKeyUncompressedHex: signerPair.publicKeyUncompressed,
};
const override = signerPair.publicKeyUncompressed;

describe('createExportBundle, opened by @turnkey/crypto decryptExportBundle', () => {
  it.each([
    ['uncompressed', (pair: ReturnType<typeof generateP256KeyPair>) => pair.publicKeyUncompressed],
    ['compressed', (pair: ReturnType<typeof generateP256KeyPair>) => pair.publicKey],
  ])('exports a wallet mnemonic to a %s target key', async (_form, targetOf) => {
    const target = generateP256KeyPair();
    const exportBundle = await createExportBundle({
      plaintext: utf8(MNEMONIC),
      targetPublicKey: targetOf(target),
      organizationId: ORG,
      signer,
    });
    const mnemonic = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: override,
      returnMnemonic: true,
    });
    expect(mnemonic).toBe(MNEMONIC);
  });

  it('exports a raw private key, returned as hex', async () => {
    const target = generateP256KeyPair();
    const privateKey = unhex(generateP256KeyPair().privateKey);
    const exportBundle = await createExportBundle({ plaintext: privateKey, targetPublicKey: target.publicKey, organizationId: ORG, signer });
    const hex = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: override,
      keyFormat: 'HEXADECIMAL',
      returnMnemonic: false,
    });
    expect(hex).toBe(Buffer.from(privateKey).toString('hex'));
  });

  it('exports an ed25519 seed that the client turns into a Solana bs58(priv ‖ pub) keypair', async () => {
    const target = generateP256KeyPair();
    const seed = ed25519.utils.randomSecretKey();
    const exportBundle = await createExportBundle({ plaintext: seed, targetPublicKey: target.publicKeyUncompressed, organizationId: ORG, signer });
    const solana = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: override,
      keyFormat: 'SOLANA',
      returnMnemonic: false,
    });
    const keypair = new Uint8Array([...seed, ...ed25519.getPublicKey(seed)]);
    expect(solana).toBe(base58.encode(keypair));
  });

  it('is refused without the signer override (proves the signature is checked against a pinned key)', async () => {
    const target = generateP256KeyPair();
    const exportBundle = await createExportBundle({ plaintext: utf8(MNEMONIC), targetPublicKey: target.publicKey, organizationId: ORG, signer });
    await expect(
      decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId: ORG, returnMnemonic: true }),
    ).rejects.toThrow(/does not match signer key/);
    const stranger = generateP256KeyPair().publicKeyUncompressed;
    await expect(
      decryptExportBundle({
        exportBundle,
        embeddedKey: target.privateKey,
        organizationId: ORG,
        dangerouslyOverrideSignerPublicKey: stranger,
        returnMnemonic: true,
      }),
    ).rejects.toThrow(/does not match signer key/);
  });

  it('is refused for another organization', async () => {
    const target = generateP256KeyPair();
    const exportBundle = await createExportBundle({ plaintext: utf8(MNEMONIC), targetPublicKey: target.publicKey, organizationId: ORG, signer });
    await expect(
      decryptExportBundle({
        exportBundle,
        embeddedKey: target.privateKey,
        organizationId: 'another-org',
        dangerouslyOverrideSignerPublicKey: override,
        returnMnemonic: true,
      }),
    ).rejects.toThrow(/organization id does not match/);
  });

  it('is refused when the signed data is edited (the signature covers organizationId)', async () => {
    const target = generateP256KeyPair();
    const exportBundle = await createExportBundle({ plaintext: utf8(MNEMONIC), targetPublicKey: target.publicKey, organizationId: ORG, signer });
    const envelope = JSON.parse(exportBundle) as TSignedEnvelope;
    const data = JSON.parse(Buffer.from(envelope.data, 'hex').toString('utf8')) as Record<string, string>;
    const forged = JSON.stringify({
      ...envelope,
      data: Buffer.from(JSON.stringify({ ...data, organizationId: 'another-org' })).toString('hex'),
    });
    await expect(
      decryptExportBundle({
        exportBundle: forged,
        embeddedKey: target.privateKey,
        organizationId: 'another-org',
        dangerouslyOverrideSignerPublicKey: override,
        returnMnemonic: true,
      }),
    ).rejects.toThrow(/failed to verify enclave signature/);
  });

  it('does not open with another embedded key', async () => {
    const target = generateP256KeyPair();
    const exportBundle = await createExportBundle({ plaintext: utf8(MNEMONIC), targetPublicKey: target.publicKey, organizationId: ORG, signer });
    await expect(
      decryptExportBundle({
        exportBundle,
        embeddedKey: generateP256KeyPair().privateKey,
        organizationId: ORG,
        dangerouslyOverrideSignerPublicKey: override,
        returnMnemonic: true,
      }),
    ).rejects.toThrow(/hpkeDecrypt/);
  });

  it('carries {encappedPublic, ciphertext, organizationId} in that order, enc uncompressed', async () => {
    const target = generateP256KeyPair();
    const exportBundle = await createExportBundle({ plaintext: utf8(MNEMONIC), targetPublicKey: target.publicKey, organizationId: ORG, signer });
    const envelope = JSON.parse(exportBundle) as TSignedEnvelope;
    const data = JSON.parse(Buffer.from(envelope.data, 'hex').toString('utf8')) as Record<string, string>;
    expect(Object.keys(data)).toEqual(['encappedPublic', 'ciphertext', 'organizationId']);
    expect(data['encappedPublic']).toMatch(/^04[0-9a-f]{128}$/);
    expect(data['ciphertext']).toMatch(new RegExp(`^[0-9a-f]{${(MNEMONIC.length + 16) * 2}}$`));
    expect(data['organizationId']).toBe(ORG);
    expect(exportBundle).not.toContain(Buffer.from(MNEMONIC).toString('hex'));
  });
});

describe('createExportBundle input assertions', () => {
  const target = generateP256KeyPair();

  it('refuses an empty or non-bytes plaintext', async () => {
    await expectBundleError(
      () => createExportBundle({ plaintext: new Uint8Array(0), targetPublicKey: target.publicKey, organizationId: ORG, signer }),
      'INVALID_ARGUMENT',
    );
    await expectBundleError(
      () => createExportBundle({ plaintext: MNEMONIC as unknown as Uint8Array, targetPublicKey: target.publicKey, organizationId: ORG, signer }),
      'INVALID_ARGUMENT',
    );
  });

  it('refuses an empty organizationId (the binding the client checks)', async () => {
    await expectBundleError(
      () => createExportBundle({ plaintext: utf8(MNEMONIC), targetPublicKey: target.publicKey, organizationId: '', signer }),
      'INVALID_ARGUMENT',
    );
  });

  it('refuses a target key that is not a P-256 point, without echoing the plaintext', async () => {
    const error = await expectBundleError(
      () => createExportBundle({ plaintext: utf8(MNEMONIC), targetPublicKey: '04' + '00'.repeat(64), organizationId: ORG, signer }),
      'INVALID_PUBLIC_KEY',
    );
    expect(error.message).not.toContain('abandon');
  });

  it('refuses a mismatched signer', async () => {
    await expectBundleError(
      () =>
        createExportBundle({
          plaintext: utf8(MNEMONIC),
          targetPublicKey: target.publicKey,
          organizationId: ORG,
          signer: { ...signer, publicKeyUncompressedHex: target.publicKeyUncompressed },
        }),
      'SIGNER_MISMATCH',
    );
  });
});
