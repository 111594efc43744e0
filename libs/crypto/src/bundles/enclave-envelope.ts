/**
 * The QOS "encrypt to a quorum key" envelope: what `@turnkey/crypto` `encryptToEnclave` produces
 * (`quorumKeyEncrypt`), and so what `encryptOauth2ClientSecret(secret, tlsFetcherKey)` sends as
 * `encryptedClientSecret` (hex of the envelope). This module only opens it; clients make it.
 *
 * It is not Turnkey's HPKE (hpke.ts) but the older scheme of tkhq/qos `qos_p256/src/encrypt.rs`:
 *  - envelope = borsh `{ nonce: [u8; 12], ephemeralSenderPublic: [u8; 65], encryptedMessage: Vec<u8> }`,
 *    i.e. `nonce ‖ ephemeral public key (uncompressed) ‖ u32-LE length ‖ AES-GCM ciphertext ‖ tag`;
 *  - shared secret = x-coordinate of ECDH(ephemeral, recipient);
 *  - AES-256 key = the first 32 bytes of HMAC-SHA512(key = ephemeralPub ‖ recipientPub ‖ shared,
 *    message = "qos_encryption_hmac_message");
 *  - AAD = ephemeralPub ‖ len(ephemeralPub) ‖ recipientPub ‖ len(recipientPub), lengths as one byte.
 *
 * The recipient key enters the HMAC and the AAD exactly as the sender passed it. The client is
 * documented to take the uncompressed key (what Latchkey publishes), so the recipient side uses
 * the uncompressed form of its public key; an envelope made to the compressed form does not open.
 */
import { createDecipheriv, createHmac } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { BundleError } from './bundle-error.js';
import { assertBytes, p256PublicFromPrivate } from './bundle-inputs.js';

const NONCE_LENGTH = 12;
const PUBLIC_KEY_LENGTH = 65;
const LENGTH_PREFIX = 4;
const GCM_TAG_LENGTH = 16;
const HEADER_LENGTH = NONCE_LENGTH + PUBLIC_KEY_LENGTH + LENGTH_PREFIX;
/** `QOS_ENCRYPTION_HMAC_MESSAGE` in `@turnkey/crypto` constants. */
const HMAC_MESSAGE = new TextEncoder().encode('qos_encryption_hmac_message');

/** The parts of an envelope (all views into the input bytes). */
export interface TEnclaveEnvelope {
  nonce: Uint8Array;
  /** The sender's ephemeral P-256 key, 65-byte uncompressed SEC1. */
  ephemeralSenderPublic: Uint8Array;
  /** AES-256-GCM ciphertext followed by its 16-byte tag. */
  encryptedMessage: Uint8Array;
}

/**
 * Splits the borsh encoding of an envelope.
 * @throws {BundleError} INVALID_ARGUMENT if `envelope` is not bytes; BUNDLE_MALFORMED if the
 *   lengths do not add up or the ephemeral key is not an uncompressed P-256 point.
 */
export function decodeEnclaveEnvelope(envelope: Uint8Array): TEnclaveEnvelope {
  assertBytes(envelope, 'envelope');
  if (envelope.length < HEADER_LENGTH + GCM_TAG_LENGTH) {
    throw new BundleError('BUNDLE_MALFORMED', `envelope must be at least ${HEADER_LENGTH + GCM_TAG_LENGTH} bytes, got ${envelope.length}`);
  }
  const nonce = envelope.subarray(0, NONCE_LENGTH);
  const ephemeralSenderPublic = envelope.subarray(NONCE_LENGTH, NONCE_LENGTH + PUBLIC_KEY_LENGTH);
  const length = new DataView(envelope.buffer, envelope.byteOffset + NONCE_LENGTH + PUBLIC_KEY_LENGTH, LENGTH_PREFIX).getUint32(0, true);
  // Exact: borsh leaves nothing after the last field, and trailing bytes would be unauthenticated.
  if (length !== envelope.length - HEADER_LENGTH) {
    throw new BundleError('BUNDLE_MALFORMED', `envelope says ${length} ciphertext bytes but carries ${envelope.length - HEADER_LENGTH}`);
  }
  if (ephemeralSenderPublic[0] !== 0x04) {
    throw new BundleError('BUNDLE_MALFORMED', 'ephemeralSenderPublic must be an uncompressed (04…) P-256 point');
  }
  try {
    p256.Point.fromBytes(ephemeralSenderPublic).assertValidity();
  } catch {
    throw new BundleError('BUNDLE_MALFORMED', 'ephemeralSenderPublic is not a point on P-256');
  }
  return { nonce, ephemeralSenderPublic, encryptedMessage: envelope.subarray(HEADER_LENGTH) };
}

function aad(senderPublic: Uint8Array, receiverPublic: Uint8Array): Uint8Array {
  const out = new Uint8Array(senderPublic.length + 1 + receiverPublic.length + 1);
  out.set(senderPublic, 0);
  out[senderPublic.length] = senderPublic.length;
  out.set(receiverPublic, senderPublic.length + 1);
  out[out.length - 1] = receiverPublic.length;
  return out;
}

/**
 * Opens an envelope made by `@turnkey/crypto` `encryptToEnclave(recipientPublicKeyUncompressed, …)`.
 * @returns the plaintext bytes (the caller wipes them when they are secret)
 * @throws {BundleError} INVALID_PRIVATE_KEY; BUNDLE_MALFORMED (see decodeEnclaveEnvelope);
 *   DECRYPTION_FAILED when the tag does not verify (another recipient, or altered bytes).
 */
export function openEnclaveEnvelope(envelope: Uint8Array, recipientPrivateKey: Uint8Array): Uint8Array {
  const receiverPublic = p256PublicFromPrivate(recipientPrivateKey, 'recipientPrivateKey');
  const e = decodeEnclaveEnvelope(envelope);
  const shared = p256.getSharedSecret(recipientPrivateKey, e.ephemeralSenderPublic, false).subarray(1, 33);
  const preImage = new Uint8Array(PUBLIC_KEY_LENGTH * 2 + shared.length);
  preImage.set(e.ephemeralSenderPublic, 0);
  preImage.set(receiverPublic, PUBLIC_KEY_LENGTH);
  preImage.set(shared, PUBLIC_KEY_LENGTH * 2);
  const mac = createHmac('sha512', preImage).update(HMAC_MESSAGE).digest();
  const key = mac.subarray(0, 32);
  const ciphertext = e.encryptedMessage.subarray(0, e.encryptedMessage.length - GCM_TAG_LENGTH);
  const tag = e.encryptedMessage.subarray(e.encryptedMessage.length - GCM_TAG_LENGTH);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, e.nonce, { authTagLength: GCM_TAG_LENGTH });
    decipher.setAAD(aad(e.ephemeralSenderPublic, receiverPublic));
    decipher.setAuthTag(tag);
    const out = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    const plaintext = new Uint8Array(out);
    out.fill(0);
    return plaintext;
  } catch {
    throw new BundleError('DECRYPTION_FAILED', 'envelope decryption failed: wrong recipient key or altered envelope');
  } finally {
    preImage.fill(0);
    mac.fill(0);
    shared.fill(0);
  }
}
