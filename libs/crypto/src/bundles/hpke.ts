/**
 * Turnkey's HPKE: RFC 9180 base mode with DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM,
 * info = "turnkey_hpke", single-shot (sequence number 0).
 *
 * One non-standard rule (protocol notes §5): the AES-GCM AAD is `enc ‖ pkR`, both 65-byte
 * uncompressed points, where standard HPKE uses an empty AAD. `@hpke/core` expresses that as-is,
 * since `SenderContext.seal(pt, aad)` / `RecipientContext.open(ct, aad)` take the AAD — the
 * same way Turnkey's own import iframe (tkhq/frames `import/src/index.js`) uses it. So the whole
 * scheme runs on @hpke/core (WebCrypto); nothing drops down to node:crypto. Noble is used only
 * to validate and decompress points, because WebCrypto's raw import accepts uncompressed points
 * only and the KEM context must be built from the uncompressed form anyway.
 *
 * Every bundle kind (export, import, credential, OTP) is this primitive plus a wire format.
 */
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { BundleError } from './bundle-error.js';
import {
  assertBytes,
  p256PublicFromPrivate,
  uncompressedP256FromBytes,
  uncompressedP256FromHex,
} from './bundle-inputs.js';

/** The HPKE `info` of every Turnkey bundle (`TURNKEY_HPKE_INFO` in the Turnkey SDKs). */
export const TURNKEY_HPKE_INFO = 'turnkey_hpke';

/** Length of an AES-GCM tag: the smallest possible ciphertext. */
const GCM_TAG_LENGTH = 16;

const INFO_BYTES = new TextEncoder().encode(TURNKEY_HPKE_INFO);

// Stateless between calls (each seal/open gets its own context), so one instance serves all.
const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});

/** An HPKE ciphertext as Turnkey ships it: the encapsulated ephemeral key and AES-GCM output ‖ tag. */
export type THpkeCiphertext = {
  /** The sender's ephemeral public key (`enc`), 65-byte uncompressed SEC1. */
  encappedPublic: Uint8Array;
  /** AES-256-GCM ciphertext followed by its 16-byte tag. */
  ciphertext: Uint8Array;
};

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Encrypts `plaintext` to a P-256 recipient the way Turnkey's enclaves do.
 *
 * The recipient key may be given compressed or uncompressed; it is decompressed first because
 * the decrypting client rebuilds pkR uncompressed from its private key, and kem_context and the
 * AAD must match byte for byte.
 * @throws {BundleError} INVALID_ARGUMENT if `plaintext` is not bytes; INVALID_PUBLIC_KEY if the
 *   recipient key is not a P-256 point.
 */
export async function hpkeSeal(plaintext: Uint8Array, recipientPublicKeyHex: string): Promise<THpkeCiphertext> {
  assertBytes(plaintext, 'plaintext');
  const pkR = uncompressedP256FromHex(recipientPublicKeyHex, 'recipientPublicKeyHex');
  const recipientPublicKey = await suite.kem.deserializePublicKey(pkR);
  const sender = await suite.createSenderContext({ recipientPublicKey, info: INFO_BYTES });
  const encappedPublic = new Uint8Array(sender.enc);
  const ciphertext = new Uint8Array(await sender.seal(plaintext, concat(encappedPublic, pkR)));
  return { encappedPublic, ciphertext };
}

/**
 * Decrypts a Turnkey HPKE ciphertext with the recipient's 32-byte P-256 private key.
 *
 * `encappedPublic` may be compressed (credential bundles ship it so) or uncompressed; it enters
 * kem_context and the AAD uncompressed, as Turnkey's `hpkeDecrypt` does after decompressing.
 * @throws {BundleError} INVALID_PRIVATE_KEY; BUNDLE_MALFORMED if `enc` is not a P-256 point or the
 *   ciphertext is shorter than a tag; DECRYPTION_FAILED if authentication fails (wrong key, or
 *   anything altered).
 */
export async function hpkeOpen(sealed: THpkeCiphertext, recipientPrivateKey: Uint8Array): Promise<Uint8Array> {
  if (typeof sealed !== 'object' || sealed === null) {
    throw new BundleError('INVALID_ARGUMENT', 'sealed must be an object {encappedPublic, ciphertext}');
  }
  assertBytes(sealed.encappedPublic, 'encappedPublic');
  assertBytes(sealed.ciphertext, 'ciphertext');
  const pkR = p256PublicFromPrivate(recipientPrivateKey, 'recipientPrivateKey');
  if (sealed.encappedPublic.length !== 33 && sealed.encappedPublic.length !== 65) {
    throw new BundleError('BUNDLE_MALFORMED', 'encappedPublic must be a 33- or 65-byte SEC1 P-256 point');
  }
  let enc: Uint8Array;
  try {
    enc = uncompressedP256FromBytes(sealed.encappedPublic, 'encappedPublic');
  } catch {
    throw new BundleError('BUNDLE_MALFORMED', 'encappedPublic is not a point on P-256');
  }
  if (sealed.ciphertext.length < GCM_TAG_LENGTH) {
    throw new BundleError('BUNDLE_MALFORMED', `ciphertext must be at least ${GCM_TAG_LENGTH} bytes (the GCM tag)`);
  }

  // A private copy, wiped once WebCrypto has imported it (the CryptoKey itself is opaque).
  const secret = Uint8Array.from(recipientPrivateKey);
  try {
    const privateKey = await suite.kem.deserializePrivateKey(secret);
    const publicKey = await suite.kem.deserializePublicKey(pkR);
    const recipient = await suite.createRecipientContext({
      recipientKey: { privateKey, publicKey },
      enc,
      info: INFO_BYTES,
    });
    return new Uint8Array(await recipient.open(sealed.ciphertext, concat(enc, pkR)));
  } catch {
    // OpenError (tag mismatch) is the expected case; the inputs were validated above, so any
    // other failure is also "this does not decrypt". The cause is not chained (see BundleError).
    throw new BundleError('DECRYPTION_FAILED', 'HPKE decryption failed: wrong recipient key or altered bundle');
  } finally {
    secret.fill(0);
  }
}
