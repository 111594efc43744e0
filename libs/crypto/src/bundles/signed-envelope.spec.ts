/**
 * Tests for the signed envelope: the exact wire shape, verification by the real client and by
 * noble over sha256(data), the published Turnkey envelope as a format vector, and signer assertions.
 *
 * `@turnkey/crypto` 2.13.2 does not export `verifyEnclaveSignature`, so the real client's check is
 * reached through `encryptOtpCodeToBundle`, which runs it on any envelope whose data carries a
 * `targetPublic` (export/import bundles are covered through their own client functions).
 */
import { describe, expect, it } from 'vitest';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { PRODUCTION_SIGNER_SIGN_PUBLIC_KEY, encryptOtpCodeToBundle, fromDerSignature, generateP256KeyPair } from '@turnkey/crypto';
import { BundleError, type TBundleErrorReason } from './bundle-error.js';
import { SIGNED_ENVELOPE_VERSION, signEnvelope, type TEnvelopeSigner, type TSignedEnvelope } from './signed-envelope.js';

const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));

function expectBundleError(fn: () => unknown, reason: TBundleErrorReason): BundleError {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(BundleError);
  expect((error as BundleError).reason).toBe(reason);
  return error as BundleError;
}

function newSigner(): TEnvelopeSigner & { privateKeyHex: string } {
  const pair = generateP256KeyPair();
  return { privateKey: unhex(pair.privateKey), publicKeyUncompressedHex: pair.publicKeyUncompressed, privateKeyHex: pair.privateKey };
}

/**
 * The export envelope published in tkhq/sdk `packages/crypto/src/__tests__/crypto-test.ts`,
 * signed by Turnkey's production signer: the reference for the format reproduced here.
 */
const TURNKEY_ENVELOPE = {
  version: 'v1.0.0',
  data: '7b22656e6361707065645075626c6963223a2230343434313065633837653566653266666461313561313866613337376132316133633431633334373666383631333362343238306164373631303266343064356462326463353362343730303763636139336166666330613535316464353134333937643039373931636664393233306663613330343862313731663364363738222c2263697068657274657874223a22656662303538626633666634626534653232323330326266326636303738363062343237346232623031616339343536643362613638646135613235363236303030613839383262313465306261663061306465323966353434353461333739613362653664633364386339343938376131353638633764393566396663346239316265663232316165356562383432333361323833323131346431373962646664636631643066376164656231353766343131613439383430222c226f7267616e697a6174696f6e4964223a2266396133316336342d643630342d343265342d396265662d613737333039366166616437227d',
  dataSignature:
    '304502203a7dc258590a637e76f6be6ed1a2080eed5614175060b9073f5e36592bdaf610022100ab9955b603df6cf45408067f652da48551652451b91967bf37dd094d13a7bdd4',
  enclaveQuorumPublic: PRODUCTION_SIGNER_SIGN_PUBLIC_KEY,
} as const;

describe('the published Turnkey envelope (format reference)', () => {
  it('is ECDSA-P256 over sha256(hex-decoded data), DER-encoded, by the pinned key', () => {
    const digest = sha256(unhex(TURNKEY_ENVELOPE.data));
    const signature = unhex(TURNKEY_ENVELOPE.dataSignature);
    const signer = unhex(TURNKEY_ENVELOPE.enclaveQuorumPublic);
    expect(p256.verify(signature, digest, signer, { prehash: false, format: 'der', lowS: false })).toBe(true);
    // …and, as the client parses it: DER → r‖s, then verify the digest.
    expect(p256.verify(fromDerSignature(TURNKEY_ENVELOPE.dataSignature), digest, signer, { prehash: false, lowS: false })).toBe(true);
  });
});

describe('signEnvelope', () => {
  const data = { encappedPublic: '04ab', ciphertext: 'cd', organizationId: 'org-1' };

  it('produces exactly the v1.0.0 envelope, data being hex of the JSON in the given key order', () => {
    const signer = newSigner();
    const text = signEnvelope(data, signer);
    const envelope = JSON.parse(text) as TSignedEnvelope;
    expect(Object.keys(envelope)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
    expect(envelope.version).toBe(SIGNED_ENVELOPE_VERSION);
    expect(envelope.version).toBe('v1.0.0');
    expect(Buffer.from(envelope.data, 'hex').toString('utf8')).toBe(
      '{"encappedPublic":"04ab","ciphertext":"cd","organizationId":"org-1"}',
    );
    expect(envelope.data).toMatch(/^[0-9a-f]+$/);
    expect(envelope.dataSignature).toMatch(/^30[0-9a-f]+$/);
    expect(envelope.enclaveQuorumPublic).toBe(signer.publicKeyUncompressedHex);
    expect(text).toBe(JSON.stringify(envelope));
    expect(text).not.toMatch(/\s/);
  });

  it('verifies with the real client given our key as the override, and only then', async () => {
    const signer = newSigner();
    const target = generateP256KeyPair();
    const bundle = signEnvelope({ targetPublic: target.publicKeyUncompressed }, signer);
    const encrypted = await encryptOtpCodeToBundle('123456', bundle, target.publicKey, signer.publicKeyUncompressedHex);
    expect(JSON.parse(encrypted)).toMatchObject({ encappedPublic: expect.stringMatching(/^04/) });
    // Without the override the client pins another key (string compare), and refuses.
    await expect(encryptOtpCodeToBundle('123456', bundle, target.publicKey)).rejects.toThrow(/does not match signer key/);
    await expect(
      encryptOtpCodeToBundle('123456', bundle, target.publicKey, PRODUCTION_SIGNER_SIGN_PUBLIC_KEY),
    ).rejects.toThrow(/does not match signer key/);
    // Changing a byte of data under the same signature fails the ECDSA check itself.
    const envelope = JSON.parse(bundle) as TSignedEnvelope;
    const other = generateP256KeyPair();
    const forged = JSON.stringify({
      ...envelope,
      data: Buffer.from(JSON.stringify({ targetPublic: other.publicKeyUncompressed })).toString('hex'),
    });
    await expect(
      encryptOtpCodeToBundle('123456', forged, target.publicKey, signer.publicKeyUncompressedHex),
    ).rejects.toThrow(/signature verification failed/);
  });

  it('signs sha256(data bytes) with a low-S deterministic signature that the client DER parser accepts', () => {
    const signer = newSigner();
    const first = JSON.parse(signEnvelope(data, signer)) as TSignedEnvelope;
    const second = JSON.parse(signEnvelope(data, signer)) as TSignedEnvelope;
    expect(second.dataSignature).toBe(first.dataSignature);
    const digest = sha256(unhex(first.data));
    const publicKey = unhex(signer.publicKeyUncompressedHex);
    expect(p256.verify(unhex(first.dataSignature), digest, publicKey, { prehash: false, format: 'der', lowS: true })).toBe(true);
    const compact = fromDerSignature(first.dataSignature);
    expect(compact).toHaveLength(64);
    expect(p256.verify(compact, digest, publicKey, { prehash: false, format: 'compact' })).toBe(true);
  });

  it('writes enclaveQuorumPublic lowercase uncompressed whatever form the signer key is given in', () => {
    const signer = newSigner();
    const compressed = p256.Point.fromHex(signer.publicKeyUncompressedHex).toHex(true);
    for (const publicKeyUncompressedHex of [signer.publicKeyUncompressedHex.toUpperCase(), compressed]) {
      const envelope = JSON.parse(signEnvelope(data, { privateKey: signer.privateKey, publicKeyUncompressedHex })) as TSignedEnvelope;
      expect(envelope.enclaveQuorumPublic).toBe(signer.publicKeyUncompressedHex);
    }
  });

  it('refuses a signer whose public key is not its private key', () => {
    const signer = newSigner();
    const other = newSigner();
    const error = expectBundleError(
      () => signEnvelope(data, { privateKey: signer.privateKey, publicKeyUncompressedHex: other.publicKeyUncompressedHex }),
      'SIGNER_MISMATCH',
    );
    expect(error.message).not.toContain(signer.privateKeyHex);
  });

  it('refuses malformed signer keys', () => {
    const signer = newSigner();
    expectBundleError(() => signEnvelope(data, { ...signer, privateKey: new Uint8Array(32) }), 'INVALID_PRIVATE_KEY');
    expectBundleError(() => signEnvelope(data, { ...signer, privateKey: signer.privateKey.slice(1) }), 'INVALID_PRIVATE_KEY');
    expectBundleError(() => signEnvelope(data, { ...signer, publicKeyUncompressedHex: 'not hex' }), 'INVALID_PUBLIC_KEY');
    expectBundleError(() => signEnvelope(data, null as unknown as TEnvelopeSigner), 'INVALID_ARGUMENT');
  });

  it('refuses data that is not a JSON-serialisable plain object', () => {
    const signer = newSigner();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const bad of [null, [], 'text', 1, { n: 1n }, cyclic]) {
      expectBundleError(() => signEnvelope(bad as object, signer), 'INVALID_ARGUMENT');
    }
  });
});
