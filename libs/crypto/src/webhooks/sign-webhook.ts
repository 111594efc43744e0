/**
 * Signing of webhook deliveries, byte-exact with what `verifyTurnkeyWebhookSignature` from
 * `@turnkey/crypto` 2.13 checks: Ed25519 over `v1.ed25519.<keyId>.<timestamp>.<eventId>.` followed by
 * the raw body, lowercase hex. The header strings are signed verbatim, so the timestamp is formatted
 * once here and the same string goes into the header (a receiver re-formatting it would not match).
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { assertBytes, assertString } from '../encoding.js';

export const WEBHOOK_SIGNATURE_VERSION = 'v1';
export const WEBHOOK_SIGNATURE_ALGORITHM = 'ed25519';
export const WEBHOOK_VERSION = '1';

/** Header names exactly as Turnkey sends them (receivers match them case-insensitively). */
export const WEBHOOK_HEADERS = {
  organizationId: 'X-Turnkey-Organization-Id',
  eventType: 'X-Turnkey-Event-Type',
  timestamp: 'X-Turnkey-Timestamp',
  webhookVersion: 'X-Turnkey-Webhook-Version',
  eventId: 'X-Turnkey-Event-Id',
  keyId: 'X-Turnkey-Signature-Key-Id',
  algorithm: 'X-Turnkey-Signature-Algorithm',
  signatureVersion: 'X-Turnkey-Signature-Version',
  signature: 'X-Turnkey-Signature',
} as const;

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410): node:crypto takes keys in DER only.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A signing key ready for use: its id, the KeyObject, and the raw public key. */
export interface TWebhookSigner {
  keyId: string;
  privateKey: KeyObject;
  /** Raw 32-byte public key, lowercase hex (what verifiers are configured with). */
  publicKeyHex: string;
}

/** Ids appear inside the signed string, separated by dots: a dot or a non-printable byte would make it ambiguous. */
function assertToken(value: unknown, field: string): asserts value is string {
  assertString(value, field);
  if (!/^[\x21-\x2d\x2f-\x7e]+$/.test(value)) throw new TypeError(`${field} must be non-empty printable ASCII without dots, got ${JSON.stringify(value)}`);
}

/**
 * Makes a signer from a raw 32-byte Ed25519 seed (the form kept sealed in the key vault).
 * @throws {TypeError} if `seed` is not 32 bytes or `keyId` is empty or contains a dot.
 */
export function createWebhookSigner(keyId: string, seed: Uint8Array): TWebhookSigner {
  assertToken(keyId, 'keyId');
  assertBytes(seed, 'seed', 32);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return { keyId, privateKey, publicKeyHex: spki.subarray(spki.length - 32).toString('hex') };
}

/** The exact bytes signed: `v1.ed25519.<keyId>.<timestamp>.<eventId>.` then the raw body. */
export function webhookSignedInput(keyId: string, timestamp: string, eventId: string, body: Uint8Array): Buffer {
  const prefix = Buffer.from(`${WEBHOOK_SIGNATURE_VERSION}.${WEBHOOK_SIGNATURE_ALGORITHM}.${keyId}.${timestamp}.${eventId}.`, 'utf8');
  return Buffer.concat([prefix, body]);
}

export interface TSignWebhookParams {
  signer: TWebhookSigner;
  /** Unix milliseconds of this attempt (each retry is signed anew). */
  timestampMs: number;
  eventId: string;
  body: Uint8Array;
}

/**
 * The 128-hex-character signature of one delivery attempt.
 * @throws {TypeError} if the timestamp is not a non-negative safe integer, or an id is malformed.
 */
export function signWebhook(p: TSignWebhookParams): string {
  if (!Number.isSafeInteger(p.timestampMs) || p.timestampMs < 0) throw new TypeError(`timestampMs must be a non-negative safe integer, got ${p.timestampMs}`);
  assertToken(p.eventId, 'eventId');
  assertBytes(p.body, 'body');
  return sign(null, webhookSignedInput(p.signer.keyId, String(p.timestampMs), p.eventId, p.body), p.signer.privateKey).toString('hex');
}

export interface TWebhookHeadersParams extends TSignWebhookParams {
  eventType: string;
  /** The endpoint's organization (the routing organization), not necessarily the activity's. */
  organizationId: string;
}

/**
 * Every header of one delivery attempt (§B2), signature included, plus `Content-Type`.
 * @throws {TypeError} as `signWebhook`.
 */
export function webhookHeaders(p: TWebhookHeadersParams): Record<string, string> {
  const signature = signWebhook(p);
  return {
    'Content-Type': 'application/json',
    [WEBHOOK_HEADERS.organizationId]: p.organizationId,
    [WEBHOOK_HEADERS.eventType]: p.eventType,
    [WEBHOOK_HEADERS.timestamp]: String(p.timestampMs),
    [WEBHOOK_HEADERS.webhookVersion]: WEBHOOK_VERSION,
    [WEBHOOK_HEADERS.eventId]: p.eventId,
    [WEBHOOK_HEADERS.keyId]: p.signer.keyId,
    [WEBHOOK_HEADERS.algorithm]: WEBHOOK_SIGNATURE_ALGORITHM,
    [WEBHOOK_HEADERS.signatureVersion]: WEBHOOK_SIGNATURE_VERSION,
    [WEBHOOK_HEADERS.signature]: signature,
  };
}
