/**
 * Tests for Turnkey's HPKE: published Turnkey vectors (bundles produced by Turnkey's enclaves), the
 * real client (`@turnkey/crypto` 2.13.2 `hpkeEncrypt` / `hpkeDecrypt`) in both directions,
 * tampering, input assertions, and a fast-check round-trip property.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { formatHpkeBuf, generateP256KeyPair, hpkeDecrypt, hpkeEncrypt } from '@turnkey/crypto';
import { BundleError, type TBundleErrorReason } from './bundle-error.js';
import { TURNKEY_HPKE_INFO, hpkeOpen, hpkeSeal } from './hpke.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

async function bundleErrorOf(fn: () => unknown): Promise<BundleError> {
  const error = await (async () => fn())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BundleError);
  return error as BundleError;
}

async function expectBundleError(fn: () => unknown, reason: TBundleErrorReason): Promise<BundleError> {
  const error = await bundleErrorOf(fn);
  expect(error.reason).toBe(reason);
  return error;
}

/**
 * Published vectors from tkhq/sdk `packages/crypto/src/__tests__/crypto-test.ts`: a real export
 * bundle signed by Turnkey's production signer, and a real credential bundle.
 */
const TURNKEY_EXPORT_VECTOR = {
  embeddedKey: 'ffc6090f14bcf260e5dfe63f45412e60a477bb905956d7cc90195b71c2a544b3',
  encappedPublic:
    '044410ec87e5fe2ffda15a18fa377a21a3c41c3476f86133b4280ad76102f40d5db2dc53b47007cca93affc0a551dd514397d09791cfd9230fca3048b171f3d678',
  ciphertext:
    'efb058bf3ff4be4e222302bf2f607860b4274b2b01ac9456d3ba68da5a25626000a8982b14e0baf0a0de29f54454a379a3be6dc3d8c94987a1568c7d95f9fc4b91bef221ae5eb84233a2832114d179bdfdcf1d0f7adeb157f411a49840',
  mnemonic: 'leaf lady until indicate praise final route toast cake minimum insect unknown',
} as const;
const TURNKEY_CREDENTIAL_VECTOR = {
  embeddedKey: '20fa65df11f24833790ae283fc9a0c215eecbbc589549767977994dc69d05a56',
  bundle:
    'w99a5xV6A75TfoAUkZn869fVyDYvgVsKrawMALZXmrauZd8hEv66EkPU1Z42CUaHESQjcA5bqd8dynTGBMLWB9ewtXWPEVbZvocB4Tw2K1vQVp7uwjf',
  privateKey: '67ee05fc3bdf4161bc70701c221d8d77180294cefcfcea64ba83c4d4c732fcb9',
} as const;

describe('hpkeOpen on Turnkey-produced vectors', () => {
  it('opens the published export bundle ciphertext to its mnemonic', async () => {
    const plaintext = await hpkeOpen(
      { encappedPublic: unhex(TURNKEY_EXPORT_VECTOR.encappedPublic), ciphertext: unhex(TURNKEY_EXPORT_VECTOR.ciphertext) },
      unhex(TURNKEY_EXPORT_VECTOR.embeddedKey),
    );
    expect(new TextDecoder().decode(plaintext)).toBe(TURNKEY_EXPORT_VECTOR.mnemonic);
  });

  it('opens the published credential bundle (compressed enc) to its private key', async () => {
    const bytes = createBase58check(sha256).decode(TURNKEY_CREDENTIAL_VECTOR.bundle);
    const plaintext = await hpkeOpen(
      { encappedPublic: bytes.slice(0, 33), ciphertext: bytes.slice(33) },
      unhex(TURNKEY_CREDENTIAL_VECTOR.embeddedKey),
    );
    expect(hex(plaintext)).toBe(TURNKEY_CREDENTIAL_VECTOR.privateKey);
  });
});

describe('hpkeSeal / hpkeOpen', () => {
  it('round-trips to an uncompressed and to a compressed recipient key', async () => {
    const recipient = generateP256KeyPair();
    for (const publicKey of [recipient.publicKeyUncompressed, recipient.publicKey, recipient.publicKey.toUpperCase()]) {
      const sealed = await hpkeSeal(utf8('hello turnkey'), publicKey);
      expect(sealed.encappedPublic).toHaveLength(65);
      expect(sealed.encappedPublic[0]).toBe(0x04);
      expect(sealed.ciphertext).toHaveLength('hello turnkey'.length + 16);
      expect(new TextDecoder().decode(await hpkeOpen(sealed, unhex(recipient.privateKey)))).toBe('hello turnkey');
    }
  });

  it('uses a fresh ephemeral key per seal', async () => {
    const recipient = generateP256KeyPair();
    const a = await hpkeSeal(utf8('same'), recipient.publicKey);
    const b = await hpkeSeal(utf8('same'), recipient.publicKey);
    expect(hex(a.encappedPublic)).not.toBe(hex(b.encappedPublic));
    expect(hex(a.ciphertext)).not.toBe(hex(b.ciphertext));
  });

  it('opens a compressed enc the same as its uncompressed form', async () => {
    const recipient = generateP256KeyPair();
    const sealed = await hpkeSeal(utf8('x'), recipient.publicKey);
    const compressed = p256.Point.fromBytes(sealed.encappedPublic).toBytes(true);
    const opened = await hpkeOpen({ encappedPublic: compressed, ciphertext: sealed.ciphertext }, unhex(recipient.privateKey));
    expect(new TextDecoder().decode(opened)).toBe('x');
  });

  it('is decrypted by the real client (@turnkey/crypto hpkeDecrypt)', async () => {
    const recipient = generateP256KeyPair();
    // The client recomputes pkR uncompressed from its key, so a compressed target must still work.
    for (const publicKey of [recipient.publicKeyUncompressed, recipient.publicKey]) {
      const sealed = await hpkeSeal(utf8('to the client'), publicKey);
      const opened = hpkeDecrypt({
        ciphertextBuf: sealed.ciphertext,
        encappedKeyBuf: sealed.encappedPublic,
        receiverPriv: recipient.privateKey,
      });
      expect(new TextDecoder().decode(opened)).toBe('to the client');
    }
  });

  it('opens what the real client encrypts (@turnkey/crypto hpkeEncrypt)', async () => {
    const recipient = generateP256KeyPair();
    const bundle = JSON.parse(
      formatHpkeBuf(hpkeEncrypt({ plainTextBuf: utf8('from the client'), targetKeyBuf: unhex(recipient.publicKeyUncompressed) })),
    ) as { encappedPublic: string; ciphertext: string };
    const opened = await hpkeOpen(
      { encappedPublic: unhex(bundle.encappedPublic), ciphertext: unhex(bundle.ciphertext) },
      unhex(recipient.privateKey),
    );
    expect(new TextDecoder().decode(opened)).toBe('from the client');
  });

  it('enforces the non-standard AAD: standard HPKE (empty AAD) output does not open', async () => {
    const recipient = generateP256KeyPair();
    const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
    const sender = await suite.createSenderContext({
      recipientPublicKey: await suite.kem.deserializePublicKey(unhex(recipient.publicKeyUncompressed)),
      info: utf8(TURNKEY_HPKE_INFO),
    });
    const ciphertext = new Uint8Array(await sender.seal(utf8('standard')));
    await expectBundleError(
      () => hpkeOpen({ encappedPublic: new Uint8Array(sender.enc), ciphertext }, unhex(recipient.privateKey)),
      'DECRYPTION_FAILED',
    );
  });

  it('round-trips arbitrary plaintexts (property)', async () => {
    const recipient = generateP256KeyPair();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 512 }), async (plaintext) => {
        const sealed = await hpkeSeal(plaintext, recipient.publicKeyUncompressed);
        expect(hex(await hpkeOpen(sealed, unhex(recipient.privateKey)))).toBe(hex(plaintext));
      }),
      { numRuns: 40 },
    );
  });

  it('takes its own copy of the private key before the first await (callers may wipe theirs at once)', async () => {
    const recipient = generateP256KeyPair();
    const sealed = await hpkeSeal(utf8('wiped'), recipient.publicKey);
    const key = unhex(recipient.privateKey);
    const pending = hpkeOpen(sealed, key);
    key.fill(0);
    expect(new TextDecoder().decode(await pending)).toBe('wiped');
  });

  it('handles concurrent seals and opens independently', async () => {
    const recipients = Array.from({ length: 12 }, () => generateP256KeyPair());
    const results = await Promise.all(
      recipients.map(async (recipient, i) => {
        const sealed = await hpkeSeal(utf8(`message ${i}`), recipient.publicKey);
        return new TextDecoder().decode(await hpkeOpen(sealed, unhex(recipient.privateKey)));
      }),
    );
    expect(results).toEqual(recipients.map((_, i) => `message ${i}`));
  });
});

describe('hpkeOpen failures', () => {
  const recipient = generateP256KeyPair();
  const secret = 'a secret mnemonic phrase';
  const sealedPromise = hpkeSeal(utf8(secret), recipient.publicKeyUncompressed);

  it.each([
    ['first ciphertext byte', 0],
    ['last tag byte', -1],
  ])('rejects a flipped %s', async (_label, index) => {
    const sealed = await sealedPromise;
    const ciphertext = Uint8Array.from(sealed.ciphertext);
    const at = index < 0 ? ciphertext.length + index : index;
    ciphertext[at] = (ciphertext[at] ?? 0) ^ 0x01;
    const error = await expectBundleError(
      () => hpkeOpen({ encappedPublic: sealed.encappedPublic, ciphertext }, unhex(recipient.privateKey)),
      'DECRYPTION_FAILED',
    );
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain(recipient.privateKey);
  });

  it('rejects a truncated ciphertext and a swapped enc', async () => {
    const sealed = await sealedPromise;
    await expectBundleError(
      () => hpkeOpen({ encappedPublic: sealed.encappedPublic, ciphertext: sealed.ciphertext.slice(0, -1) }, unhex(recipient.privateKey)),
      'DECRYPTION_FAILED',
    );
    const otherEnc = unhex(generateP256KeyPair().publicKeyUncompressed);
    await expectBundleError(
      () => hpkeOpen({ encappedPublic: otherEnc, ciphertext: sealed.ciphertext }, unhex(recipient.privateKey)),
      'DECRYPTION_FAILED',
    );
  });

  it('rejects the wrong recipient key', async () => {
    const sealed = await sealedPromise;
    const other = generateP256KeyPair();
    const error = await expectBundleError(() => hpkeOpen(sealed, unhex(other.privateKey)), 'DECRYPTION_FAILED');
    expect(error.message).not.toContain(other.privateKey);
  });

  it('rejects malformed enc and ciphertext before decrypting', async () => {
    const sealed = await sealedPromise;
    const key = unhex(recipient.privateKey);
    const offCurve = Uint8Array.from(sealed.encappedPublic);
    offCurve[64] = (offCurve[64] ?? 0) ^ 0x01;
    await expectBundleError(() => hpkeOpen({ encappedPublic: offCurve, ciphertext: sealed.ciphertext }, key), 'BUNDLE_MALFORMED');
    await expectBundleError(
      () => hpkeOpen({ encappedPublic: sealed.encappedPublic.slice(1), ciphertext: sealed.ciphertext }, key),
      'BUNDLE_MALFORMED',
    );
    await expectBundleError(
      () => hpkeOpen({ encappedPublic: sealed.encappedPublic, ciphertext: new Uint8Array(15) }, key),
      'BUNDLE_MALFORMED',
    );
    await expectBundleError(
      () => hpkeOpen({ encappedPublic: hex(sealed.encappedPublic) as unknown as Uint8Array, ciphertext: sealed.ciphertext }, key),
      'INVALID_ARGUMENT',
    );
    await expectBundleError(() => hpkeOpen(null as unknown as { encappedPublic: Uint8Array; ciphertext: Uint8Array }, key), 'INVALID_ARGUMENT');
  });

  it('rejects private keys that are not P-256 scalars', async () => {
    const sealed = await sealedPromise;
    const order = p256.Point.CURVE().n;
    for (const key of [new Uint8Array(32), new Uint8Array(31).fill(1), unhex(order.toString(16)), unhex('ff'.repeat(32))]) {
      await expectBundleError(() => hpkeOpen(sealed, key), 'INVALID_PRIVATE_KEY');
    }
  });
});

describe('hpkeSeal input assertions', () => {
  it('rejects recipient keys that are not P-256 points', async () => {
    const valid = generateP256KeyPair().publicKeyUncompressed;
    const offCurve = valid.slice(0, -2) + (valid.endsWith('00') ? '01' : '00');
    for (const key of ['', 'zz', valid.slice(2), '05' + valid.slice(2), offCurve, '00', 42 as unknown as string]) {
      await expectBundleError(() => hpkeSeal(utf8('x'), key), 'INVALID_PUBLIC_KEY');
    }
  });

  it('rejects a non-bytes plaintext', async () => {
    const recipient = generateP256KeyPair();
    await expectBundleError(() => hpkeSeal('text' as unknown as Uint8Array, recipient.publicKey), 'INVALID_ARGUMENT');
  });
});
