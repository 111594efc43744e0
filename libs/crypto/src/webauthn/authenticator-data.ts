/**
 * The fixed 37-byte head of WebAuthn authenticator data (WebAuthn L3 §6.1): rpIdHash, flags and
 * the signature counter, plus the counter rule a relying party applies to each assertion.
 *
 * `verifyWebauthnStamp` checks the signature only; the engine reads the counter here to refuse a
 * replayed or cloned credential (a counter that does not advance), and may compare the rpIdHash
 * with the rp ids it serves.
 */
import { createHash } from 'node:crypto';
import { assertBytes } from '../encoding.js';

/** rpIdHash (32) + flags (1) + signCount (4). */
export const AUTHENTICATOR_DATA_HEAD_LENGTH = 37;

export type TAuthenticatorDataHead = {
  /** SHA-256 of the rp id the credential is scoped to. */
  rpIdHash: Uint8Array;
  /** The raw flags byte. */
  flags: number;
  /** UP: a user was present (touched, clicked). */
  userPresent: boolean;
  /** UV: the user was verified (PIN, biometric). */
  userVerified: boolean;
  /** BE: the credential may be synced (a multi-device passkey). */
  backupEligible: boolean;
  /** BS: the credential is currently backed up. */
  backedUp: boolean;
  /** AT: attested credential data follows (registration). */
  attestedCredentialData: boolean;
  /** ED: extension data follows. */
  extensionData: boolean;
  /** The signature counter, big-endian uint32; 0 when the authenticator keeps none. */
  signCount: number;
};

/**
 * Reads the head of authenticator data (registration or assertion).
 * @throws {TypeError} if it is not a Uint8Array of at least 37 bytes.
 */
export function parseAuthenticatorDataHead(authenticatorData: Uint8Array): TAuthenticatorDataHead {
  assertBytes(authenticatorData, 'authenticatorData');
  if (authenticatorData.length < AUTHENTICATOR_DATA_HEAD_LENGTH) {
    throw new TypeError(`authenticatorData must be at least ${AUTHENTICATOR_DATA_HEAD_LENGTH} bytes, got ${authenticatorData.length}`);
  }
  const flags = authenticatorData[32]!;
  const view = new DataView(authenticatorData.buffer, authenticatorData.byteOffset, authenticatorData.byteLength);
  return {
    rpIdHash: authenticatorData.slice(0, 32),
    flags,
    userPresent: (flags & 0x01) !== 0,
    userVerified: (flags & 0x04) !== 0,
    backupEligible: (flags & 0x08) !== 0,
    backedUp: (flags & 0x10) !== 0,
    attestedCredentialData: (flags & 0x40) !== 0,
    extensionData: (flags & 0x80) !== 0,
    signCount: view.getUint32(33, false),
  };
}

/** Whether `rpIdHash` is SHA-256 of one of `rpIds`. */
export function rpIdHashMatches(rpIdHash: Uint8Array, rpIds: readonly string[]): boolean {
  assertBytes(rpIdHash, 'rpIdHash', 32);
  return rpIds.some((rpId) => createHash('sha256').update(rpId, 'utf8').digest().equals(rpIdHash));
}

function toCount(value: number | bigint, field: string): bigint {
  if (typeof value === 'bigint' ? value < 0n : !(Number.isSafeInteger(value) && value >= 0)) {
    throw new TypeError(`${field} must be a non-negative integer`);
  }
  return BigInt(value);
}

/**
 * The WebAuthn signature-counter rule (L3 §7.2 step 22): when either the stored or the asserted
 * count is non-zero, the asserted one must be strictly greater; two zeros mean the authenticator
 * keeps no counter (synced passkeys) and pass. A `false` signals a possibly cloned authenticator.
 * @throws {TypeError} if either count is not a non-negative integer (bigint accepted, as stored).
 */
export function signCountAdvances(storedSignCount: number | bigint, assertedSignCount: number | bigint): boolean {
  const stored = toCount(storedSignCount, 'storedSignCount');
  const asserted = toCount(assertedSignCount, 'assertedSignCount');
  if (stored === 0n && asserted === 0n) return true;
  return asserted > stored;
}
