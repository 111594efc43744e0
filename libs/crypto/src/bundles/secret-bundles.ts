/**
 * Secret bundles (issue 16 §6), the `TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1` suite as
 * `@turnkey/crypto` 2.13.2 speaks it:
 *  - out, `init_import_secrets`: each `enclaveTargetMessages` entry is a signed envelope with data
 *    `{"organizationId":"…","targetPublic":"04…"}` (this key order). `encryptSecretToBundle` checks
 *    the signature and organizationId, HPKE-encrypts the UTF-8 secret to `targetPublic` and hands
 *    back that key as the import's `targetPublicKey`.
 *  - in, `import_secrets`: `secretPayload` is the unsigned `{"encappedPublic","ciphertext"}` JSON
 *    of a private-key import, opened the same way (`openImportedBundle`).
 *  - out, `export_secrets`: each `secretPayloads` entry is an export bundle (`createExportBundle`),
 *    which `decryptSecretBundle` opens and decodes as UTF-8.
 * So the formats are the private keys' own; only the import target's signed data differs (no
 * user id: the intent names none).
 */
import { decodeUtf8, encodeHex } from '../encoding.js';
import { BundleError } from './bundle-error.js';
import { assertBytes, assertNonEmptyString, uncompressedP256FromHex } from './bundle-inputs.js';
import { signEnvelope, type TEnvelopeSigner } from './signed-envelope.js';

/** The only transport suite of the secrets API. */
export const SECRET_TRANSPORT_SUITE = 'TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1';

export type TCreateSecretTargetParams = {
  organizationId: string;
  /** P-256 key the client encrypts to, written uncompressed (see `createImportBundle`). */
  targetPublicKeyUncompressedHex: string;
  signer: TEnvelopeSigner;
};

/**
 * Builds one signed `enclaveTargetMessages` entry binding the organization and the target key.
 * @throws {BundleError} INVALID_ARGUMENT, INVALID_PUBLIC_KEY, and the signer errors of `signEnvelope`.
 */
export function createSecretTargetMessage(params: TCreateSecretTargetParams): string {
  const { organizationId, targetPublicKeyUncompressedHex, signer } = params;
  assertNonEmptyString(organizationId, 'organizationId');
  const targetPublic = uncompressedP256FromHex(targetPublicKeyUncompressedHex, 'targetPublicKeyUncompressedHex');
  return signEnvelope({ organizationId, targetPublic: encodeHex(targetPublic) }, signer);
}

/**
 * Decodes an opened secret to its text: the client encrypts `new TextEncoder().encode(plaintext)`
 * and decrypts with `TextDecoder`, so a secret is non-empty, strict UTF-8 text.
 * @throws {BundleError} PLAINTEXT_INVALID when empty or not UTF-8 (the message never quotes it).
 */
export function assertSecretPlaintext(plaintext: Uint8Array): void {
  assertBytes(plaintext, 'plaintext');
  if (plaintext.length === 0) throw new BundleError('PLAINTEXT_INVALID', 'the imported secret is empty');
  if (decodeUtf8(plaintext) === undefined) throw new BundleError('PLAINTEXT_INVALID', 'the imported secret is not UTF-8 text');
}
