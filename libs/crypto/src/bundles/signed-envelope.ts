/**
 * The signed envelope Turnkey wraps export, import and OTP-target bundles in (protocol notes §5):
 *
 *   {"version":"v1.0.0","data":"<hex of UTF-8 JSON>","dataSignature":"<DER hex>","enclaveQuorumPublic":"04…"}
 *
 * `dataSignature` is ECDSA-P256 over sha256(the hex-decoded `data` bytes). Clients check
 * `enclaveQuorumPublic` by exact string comparison against the key they pin (Turnkey's, or the
 * one passed as `dangerouslyOverrideSignerPublicKey`), so it is always written lowercase and
 * uncompressed. Here the signer is this server's bundle-signing key.
 */
import { p256 } from '@noble/curves/nist.js';
import { encodeHex } from '../encoding.js';
import { BundleError } from './bundle-error.js';
import { p256PublicFromPrivate, uncompressedP256FromHex } from './bundle-inputs.js';

/** The only envelope version clients accept. */
export const SIGNED_ENVELOPE_VERSION = 'v1.0.0';

/** The key that signs envelopes: the self-hosted stand-in for Turnkey's signer enclave quorum key. */
export type TEnvelopeSigner = {
  /** 32-byte P-256 private key. */
  privateKey: Uint8Array;
  /** Its public key, 65-byte uncompressed SEC1 hex (what clients pin). */
  publicKeyUncompressedHex: string;
};

/** The envelope as parsed JSON (field order on the wire is the order listed here). */
export type TSignedEnvelope = {
  version: typeof SIGNED_ENVELOPE_VERSION;
  data: string;
  dataSignature: string;
  enclaveQuorumPublic: string;
};

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/**
 * Serialises `data` as JSON (key order as given), signs it, and returns the envelope JSON string.
 *
 * The signature is deterministic (RFC 6979) and low-S: every verifier accepts low-S, while a strict
 * one might refuse high-S.
 * @throws {BundleError} INVALID_ARGUMENT if `data` is not a JSON-serialisable plain object;
 *   INVALID_PRIVATE_KEY / INVALID_PUBLIC_KEY for malformed signer keys; SIGNER_MISMATCH if the
 *   public key is not the private key's (the envelope would never verify).
 */
export function signEnvelope(data: object, signer: TEnvelopeSigner): string {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new BundleError('INVALID_ARGUMENT', 'data must be a plain object');
  }
  if (typeof signer !== 'object' || signer === null) {
    throw new BundleError('INVALID_ARGUMENT', 'signer must be {privateKey, publicKeyUncompressedHex}');
  }
  const derived = p256PublicFromPrivate(signer.privateKey, 'signer.privateKey');
  const claimed = uncompressedP256FromHex(signer.publicKeyUncompressedHex, 'signer.publicKeyUncompressedHex');
  if (!sameBytes(derived, claimed)) {
    throw new BundleError('SIGNER_MISMATCH', 'signer.publicKeyUncompressedHex is not the public key of signer.privateKey');
  }

  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    throw new BundleError('INVALID_ARGUMENT', 'data is not JSON-serialisable');
  }
  if (typeof json !== 'string') {
    throw new BundleError('INVALID_ARGUMENT', 'data is not JSON-serialisable');
  }
  const dataBytes = new TextEncoder().encode(json);
  const signature = p256.sign(dataBytes, signer.privateKey, { prehash: true, lowS: true, format: 'der' });

  const envelope: TSignedEnvelope = {
    version: SIGNED_ENVELOPE_VERSION,
    data: encodeHex(dataBytes),
    dataSignature: encodeHex(signature),
    enclaveQuorumPublic: encodeHex(derived),
  };
  return JSON.stringify(envelope);
}
