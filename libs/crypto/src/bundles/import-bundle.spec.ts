/**
 * Tests for import bundles, judged by the real client: `@turnkey/crypto` 2.13.2
 * `encryptWalletToBundle` / `encryptPrivateKeyToBundle` must accept our `importBundle` only for the
 * bound organization, user and signer key, and what they encrypt must open here.
 */
import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58 } from '@scure/base';
import { encryptPrivateKeyToBundle, encryptWalletToBundle, generateP256KeyPair, hpkeEncrypt, formatHpkeBuf } from '@turnkey/crypto';
import { BundleError, type TBundleErrorReason } from './bundle-error.js';
import {
  createImportBundle,
  decodeImportedMnemonic,
  decodeImportedPrivateKey,
  openImportedBundle,
  type TImportKeyFormat,
} from './import-bundle.js';
import type { TEnvelopeSigner, TSignedEnvelope } from './signed-envelope.js';
import { expectBundleError } from '../test-vectors.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));


const ORG = '0f6d2a51-3c84-4b9e-a7d2-6e1f8c9b0a43';
const USER = '9e8d7c6b-5a49-4382-b1c0-fedcba987654';
const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

const signerPair = generateP256KeyPair();
const signer: TEnvelopeSigner = {
  privateKey: unhex(signerPair.privateKey),
  publicKeyUncompressedHex: signerPair.publicKeyUncompressed,
};
const override = signerPair.publicKeyUncompressed;

/** A fresh import target (the server keeps the private half) and its signed importBundle. */
function newImport(targetForm: 'uncompressed' | 'compressed' = 'uncompressed') {
  const target = generateP256KeyPair();
  const importBundle = createImportBundle({
    organizationId: ORG,
    userId: USER,
    targetPublicKeyUncompressedHex: targetForm === 'uncompressed' ? target.publicKeyUncompressed : target.publicKey,
    signer,
  });
  return { importBundle, targetPrivateKey: unhex(target.privateKey), target };
}

describe('createImportBundle', () => {
  it('signs {organizationId, userId, targetPublic} in that order, targetPublic uncompressed lowercase', () => {
    const { importBundle, target } = newImport('compressed');
    const envelope = JSON.parse(importBundle) as TSignedEnvelope;
    expect(Object.keys(envelope)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
    expect(Buffer.from(envelope.data, 'hex').toString('utf8')).toBe(
      JSON.stringify({ organizationId: ORG, userId: USER, targetPublic: target.publicKeyUncompressed }),
    );
    expect(envelope.enclaveQuorumPublic).toBe(override);
  });

  it('refuses empty ids and invalid target keys', async () => {
    const target = generateP256KeyPair().publicKeyUncompressed;
    await expectBundleError(() => createImportBundle({ organizationId: '', userId: USER, targetPublicKeyUncompressedHex: target, signer }), 'INVALID_ARGUMENT');
    await expectBundleError(() => createImportBundle({ organizationId: ORG, userId: '', targetPublicKeyUncompressedHex: target, signer }), 'INVALID_ARGUMENT');
    await expectBundleError(
      () => createImportBundle({ organizationId: ORG, userId: USER, targetPublicKeyUncompressedHex: target.slice(0, 64), signer }),
      'INVALID_PUBLIC_KEY',
    );
  });
});

describe('wallet import through @turnkey/crypto encryptWalletToBundle', () => {
  it.each(['uncompressed', 'compressed'] as const)('round-trips the mnemonic (target given %s)', async (form) => {
    const { importBundle, targetPrivateKey } = newImport(form);
    const encryptedBundle = await encryptWalletToBundle({
      mnemonic: MNEMONIC,
      importBundle,
      userId: USER,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: override,
    });
    const plaintext = await openImportedBundle(encryptedBundle, targetPrivateKey);
    expect(decodeImportedMnemonic(plaintext)).toBe(MNEMONIC);
  });

  it('is refused by the client for another user, another organization, or without the signer override', async () => {
    const { importBundle } = newImport();
    const base = { mnemonic: MNEMONIC, importBundle, userId: USER, organizationId: ORG, dangerouslyOverrideSignerPublicKey: override };
    await expect(encryptWalletToBundle({ ...base, userId: 'another-user' })).rejects.toThrow(/user id does not match/);
    await expect(encryptWalletToBundle({ ...base, organizationId: 'another-org' })).rejects.toThrow(/organization id does not match/);
    const { dangerouslyOverrideSignerPublicKey: _dropped, ...withoutOverride } = base;
    await expect(encryptWalletToBundle(withoutOverride)).rejects.toThrow(/does not match signer key/);
  });

  it('does not open with another target key', async () => {
    const { importBundle } = newImport();
    const encryptedBundle = await encryptWalletToBundle({
      mnemonic: MNEMONIC,
      importBundle,
      userId: USER,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: override,
    });
    await expectBundleError(() => openImportedBundle(encryptedBundle, unhex(generateP256KeyPair().privateKey)), 'DECRYPTION_FAILED');
  });
});

describe('private-key import through @turnkey/crypto encryptPrivateKeyToBundle', () => {
  const encrypt = (importBundle: string, privateKey: string, keyFormat: TImportKeyFormat, userId = USER) =>
    encryptPrivateKeyToBundle({
      privateKey,
      keyFormat,
      importBundle,
      userId,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: override,
    });

  it('HEXADECIMAL: recovers the original 32 bytes (with or without 0x)', async () => {
    const key = secp256k1.utils.randomSecretKey();
    for (const text of [hex(key), `0x${hex(key)}`, hex(key).toUpperCase()]) {
      const { importBundle, targetPrivateKey } = newImport();
      const plaintext = await openImportedBundle(await encrypt(importBundle, text, 'HEXADECIMAL'), targetPrivateKey);
      expect(hex(decodeImportedPrivateKey(plaintext, 'HEXADECIMAL'))).toBe(hex(key));
    }
  });

  it('SOLANA: recovers the 32-byte ed25519 seed from the bs58 64-byte keypair', async () => {
    const seed = ed25519.utils.randomSecretKey();
    const solanaKeypair = base58.encode(new Uint8Array([...seed, ...ed25519.getPublicKey(seed)]));
    const { importBundle, targetPrivateKey } = newImport();
    const plaintext = await openImportedBundle(await encrypt(importBundle, solanaKeypair, 'SOLANA'), targetPrivateKey);
    expect(plaintext).toHaveLength(32);
    expect(hex(decodeImportedPrivateKey(plaintext, 'SOLANA'))).toBe(hex(seed));
  });

  it('refuses a HEXADECIMAL key of the wrong length (the client does not check it)', async () => {
    const { importBundle, targetPrivateKey } = newImport();
    const plaintext = await openImportedBundle(await encrypt(importBundle, 'ab'.repeat(31), 'HEXADECIMAL'), targetPrivateKey);
    const error = await expectBundleError(() => decodeImportedPrivateKey(plaintext, 'HEXADECIMAL'), 'PLAINTEXT_INVALID');
    expect(error.message).not.toContain('abab');
  });

  it('is refused by the client for another user', async () => {
    const { importBundle } = newImport();
    await expect(encrypt(importBundle, hex(secp256k1.utils.randomSecretKey()), 'HEXADECIMAL', 'another-user')).rejects.toThrow(
      /user id does not match/,
    );
  });
});

describe('openImportedBundle input handling', () => {
  const { target, targetPrivateKey } = newImport();
  const valid = JSON.parse(
    formatHpkeBuf(hpkeEncrypt({ plainTextBuf: new TextEncoder().encode(MNEMONIC), targetKeyBuf: unhex(target.publicKeyUncompressed) })),
  ) as { encappedPublic: string; ciphertext: string };

  it('opens the client format and ignores unknown fields', async () => {
    const plaintext = await openImportedBundle(JSON.stringify({ ...valid, extra: 1 }), targetPrivateKey);
    expect(decodeImportedMnemonic(plaintext)).toBe(MNEMONIC);
  });

  it.each([
    ['not JSON', 'nope'],
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['missing encappedPublic', JSON.stringify({ ciphertext: 'aa'.repeat(20) })],
    ['missing ciphertext', JSON.stringify({ encappedPublic: 'x' })],
    ['a compressed encappedPublic', 'compressed'],
    ['non-hex ciphertext', 'non-hex'],
    ['an encappedPublic off the curve', 'off-curve'],
  ])('refuses %s as BUNDLE_MALFORMED', async (_label, input) => {
    let text = input;
    if (input === 'compressed') text = JSON.stringify({ ...valid, encappedPublic: `02${valid.encappedPublic.slice(2, 66)}` });
    if (input === 'non-hex') text = JSON.stringify({ ...valid, ciphertext: 'zz' });
    if (input === 'off-curve') text = JSON.stringify({ ...valid, encappedPublic: `04${'11'.repeat(64)}` });
    await expectBundleError(() => openImportedBundle(text, targetPrivateKey), 'BUNDLE_MALFORMED');
  });

  it('refuses a non-string bundle and an invalid private key', async () => {
    await expectBundleError(() => openImportedBundle(valid as unknown as string, targetPrivateKey), 'INVALID_ARGUMENT');
    await expectBundleError(() => openImportedBundle(JSON.stringify(valid), new Uint8Array(32)), 'INVALID_PRIVATE_KEY');
  });
});

describe('decodeImportedPrivateKey / decodeImportedMnemonic', () => {
  it.each([0, 31, 33, 64])('refuses %i bytes', async (length) => {
    await expectBundleError(() => decodeImportedPrivateKey(new Uint8Array(length).fill(7), 'SOLANA'), 'PLAINTEXT_INVALID');
  });

  it('returns a copy and refuses unknown formats', async () => {
    const plaintext = new Uint8Array(32).fill(9);
    const key = decodeImportedPrivateKey(plaintext, 'HEXADECIMAL');
    plaintext.fill(0);
    expect(key.every((b) => b === 9)).toBe(true);
    await expectBundleError(() => decodeImportedPrivateKey(key, 'BASE64' as TImportKeyFormat), 'INVALID_ARGUMENT');
  });

  it('refuses an empty or non-UTF-8 mnemonic', async () => {
    await expectBundleError(() => decodeImportedMnemonic(new Uint8Array(0)), 'PLAINTEXT_INVALID');
    await expectBundleError(() => decodeImportedMnemonic(new Uint8Array([0xff, 0xfe])), 'PLAINTEXT_INVALID');
  });
});
