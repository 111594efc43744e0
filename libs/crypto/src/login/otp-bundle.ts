/**
 * The two OTP bundles of `init_otp` V3 / `verify_otp` V2 (protocol notes §5, §8).
 *
 * - `otpEncryptionTargetBundle`: a signed envelope (`bundles/signed-envelope.ts`) whose data
 *   carries the server's per-OTP HPKE target key. `@turnkey/crypto` `encryptOtpCodeToBundle` reads
 *   only `targetPublic`, and feeds its bytes unchanged into the AAD and KEM context, so it must be
 *   the **uncompressed** point (our `hpkeOpen` rebuilds pkR uncompressed). `organizationId` is
 *   added when given because the Go SDK's `enclave_encrypt` client compares it (and an absent
 *   `userId`) with the organization the caller expects. Clients check the envelope against a pinned
 *   key; `@turnkey/crypto` defaults to Turnkey's TLS-fetcher key, so clients of a self-hosted server
 *   must pass `dangerouslyOverrideSignerPublicKey`.
 * - `encryptedOtpBundle`: what the client sends back, the JSON `{"encappedPublic","ciphertext"}`
 *   (hex, enc uncompressed) of the HPKE-sealed UTF-8 JSON `{"otp_code","public_key"}`. Some
 *   `@turnkey/core` builds write `{"otpCode","publicKey"}` instead, so both spellings are read.
 */
import { decodeUtf8, encodeHex } from '../encoding.js';
import { BundleError } from '../bundles/bundle-error.js';
import { assertBytes, hexField, uncompressedP256FromHex } from '../bundles/bundle-inputs.js';
import { hpkeOpen } from '../bundles/hpke.js';
import { signEnvelope, type TEnvelopeSigner } from '../bundles/signed-envelope.js';

export type TCreateOtpEncryptionTargetBundleParams = {
  /** The per-OTP HPKE target public key (P-256 hex, either form); written uncompressed. */
  targetPublicKeyHex: string;
  /** The organization the OTP was initiated in; bound into the signed data when given. */
  organizationId?: string;
  signer: TEnvelopeSigner;
};

/** What the client encrypted: the code it was sent, and the key it wants the token bound to. */
export type TOpenedOtpBundle = {
  otpCode: string;
  /** The client's public key (hex, as sent; clients send compressed P-256). */
  publicKey: string;
};

/** Bound on the encrypted bundle: the plaintext is two short strings. */
export const MAX_ENCRYPTED_OTP_BUNDLE_LENGTH = 4096;
const MAX_OTP_CODE_LENGTH = 64;

/**
 * Builds the signed `otpEncryptionTargetBundle` for a new OTP.
 * @throws {BundleError} INVALID_PUBLIC_KEY for a bad target key; INVALID_ARGUMENT for an empty
 *   organizationId; the signer errors of `signEnvelope`.
 */
export function createOtpEncryptionTargetBundle(params: TCreateOtpEncryptionTargetBundleParams): string {
  if (typeof params !== 'object' || params === null) {
    throw new BundleError('INVALID_ARGUMENT', 'params must be {targetPublicKeyHex, organizationId?, signer}');
  }
  const { targetPublicKeyHex, organizationId, signer } = params;
  const targetPublic = encodeHex(uncompressedP256FromHex(targetPublicKeyHex, 'targetPublicKeyHex'));
  if (organizationId !== undefined && (typeof organizationId !== 'string' || organizationId.length === 0)) {
    throw new BundleError('INVALID_ARGUMENT', 'organizationId must be a non-empty string when given');
  }
  return signEnvelope(organizationId === undefined ? { targetPublic } : { targetPublic, organizationId }, signer);
}

function parseSealed(encryptedOtpBundle: unknown): { encappedPublic: Uint8Array; ciphertext: Uint8Array } {
  if (typeof encryptedOtpBundle !== 'string') {
    throw new BundleError('INVALID_ARGUMENT', 'encryptedOtpBundle must be a string');
  }
  if (encryptedOtpBundle.length > MAX_ENCRYPTED_OTP_BUNDLE_LENGTH) {
    throw new BundleError('BUNDLE_MALFORMED', `encryptedOtpBundle is longer than ${MAX_ENCRYPTED_OTP_BUNDLE_LENGTH} characters`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(encryptedOtpBundle);
  } catch {
    throw new BundleError('BUNDLE_MALFORMED', 'encryptedOtpBundle is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BundleError('BUNDLE_MALFORMED', 'encryptedOtpBundle must be a JSON object {encappedPublic, ciphertext}');
  }
  const record = parsed as Record<string, unknown>;
  return {
    encappedPublic: hexField(record['encappedPublic'], 'encryptedOtpBundle.encappedPublic', 33),
    ciphertext: hexField(record['ciphertext'], 'encryptedOtpBundle.ciphertext', 16),
  };
}

function pickString(record: Record<string, unknown>, snake: string, camel: string): string | undefined {
  const value = record[snake] ?? record[camel];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Opens an `encryptedOtpBundle` with the OTP's target private key.
 *
 * Returns the code as typed (the caller normalises and compares it, see `otp-code.ts`) and the
 * public key, checked to be a P-256 point since the verification token will bind it.
 * @throws {BundleError} INVALID_ARGUMENT / INVALID_PRIVATE_KEY for bad arguments; BUNDLE_MALFORMED
 *   for a bundle that is not the JSON of two hex fields; DECRYPTION_FAILED if it was not sealed to
 *   this key or was altered; PLAINTEXT_INVALID if the plaintext is not the expected JSON.
 */
export async function openEncryptedOtpBundle(
  encryptedOtpBundle: string,
  targetPrivateKey: Uint8Array,
): Promise<TOpenedOtpBundle> {
  assertBytes(targetPrivateKey, 'targetPrivateKey', { length: 32 });
  const sealed = parseSealed(encryptedOtpBundle);
  const plaintext = await hpkeOpen(sealed, targetPrivateKey);
  const text = decodeUtf8(plaintext);
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BundleError('PLAINTEXT_INVALID', 'the OTP bundle plaintext is not a JSON object');
  }
  const record = parsed as Record<string, unknown>;
  const otpCode = pickString(record, 'otp_code', 'otpCode');
  const publicKey = pickString(record, 'public_key', 'publicKey');
  if (otpCode === undefined || otpCode.length === 0 || otpCode.length > MAX_OTP_CODE_LENGTH) {
    throw new BundleError('PLAINTEXT_INVALID', `the OTP bundle's otp_code must be a string of 1 to ${MAX_OTP_CODE_LENGTH} characters`);
  }
  if (publicKey === undefined) {
    throw new BundleError('PLAINTEXT_INVALID', "the OTP bundle's public_key must be a string");
  }
  try {
    uncompressedP256FromHex(publicKey, 'public_key');
  } catch {
    throw new BundleError('PLAINTEXT_INVALID', "the OTP bundle's public_key is not a P-256 public key in hex");
  }
  return { otpCode, publicKey };
}
