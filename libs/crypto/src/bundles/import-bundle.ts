/**
 * Import bundles, both directions:
 *  - out: the `importBundle` of `init_import_wallet` / `init_import_private_key`, a signed envelope
 *    with data `{"organizationId":"…","userId":"…","targetPublic":"04…"}` (this key order). The
 *    client (`encryptWalletToBundle`, `encryptPrivateKeyToBundle`, the import iframe) checks the
 *    signature, organizationId and userId, then HPKE-encrypts to `targetPublic`.
 *  - in: the `encryptedBundle` of `import_wallet` / `import_private_key`, the unsigned JSON
 *    `{"encappedPublic":"04…","ciphertext":"…"}`, opened with the target's private key.
 *
 * Plaintexts (from `@turnkey/crypto` 2.13.2 and tkhq/frames `import/src`):
 *  - wallet: the UTF-8 mnemonic (the iframe may append `\n--PASS--\n<passphrase>`);
 *  - private key: the raw key bytes for both key formats. HEXADECIMAL is the hex-decoded input
 *    (optional `0x` stripped, any length: the client does not check it). SOLANA is the base58
 *    64-byte keypair of which the client sends only the first 32 bytes (the ed25519 seed), so
 *    the two formats are indistinguishable on the wire.
 */
import { decodeUtf8, encodeHex } from '../encoding.js';
import { BundleError } from './bundle-error.js';
import { assertBytes, assertNonEmptyString, hexField, uncompressedP256FromHex } from './bundle-inputs.js';
import { hpkeOpen } from './hpke.js';
import { signEnvelope, type TEnvelopeSigner } from './signed-envelope.js';

/** Client-side private-key formats of `encryptPrivateKeyToBundle` / the import iframe. */
export const IMPORT_KEY_FORMATS = ['HEXADECIMAL', 'SOLANA'] as const;
export type TImportKeyFormat = (typeof IMPORT_KEY_FORMATS)[number];

/** Bytes of an imported private key (secp256k1, ed25519 seed, P-256 are all 32). */
const PRIVATE_KEY_LENGTH = 32;

export type TCreateImportBundleParams = {
  organizationId: string;
  /** The user who will import; the client refuses a bundle made for another user. */
  userId: string;
  /**
   * P-256 key the client encrypts to. Written uncompressed: the client puts `targetPublic` into
   * kem_context and the AAD exactly as given, while the opening side uses the uncompressed form,
   * so a compressed key here would make every import fail. A compressed input is decompressed.
   */
  targetPublicKeyUncompressedHex: string;
  signer: TEnvelopeSigner;
};

/**
 * Builds the signed `importBundle` binding organization, user and target key.
 * @throws {BundleError} INVALID_ARGUMENT, INVALID_PUBLIC_KEY, and the signer errors of `signEnvelope`.
 */
export function createImportBundle(params: TCreateImportBundleParams): string {
  const { organizationId, userId, targetPublicKeyUncompressedHex, signer } = params;
  assertNonEmptyString(organizationId, 'organizationId');
  assertNonEmptyString(userId, 'userId');
  const targetPublic = uncompressedP256FromHex(targetPublicKeyUncompressedHex, 'targetPublicKeyUncompressedHex');
  return signEnvelope({ organizationId, userId, targetPublic: encodeHex(targetPublic) }, signer);
}

/**
 * Opens an `import_wallet` / `import_private_key` `encryptedBundle` and returns its plaintext
 * (mnemonic bytes, or private-key bytes: see `decodeImportedPrivateKey`). The caller owns the
 * result and should wipe it when done.
 * @throws {BundleError} BUNDLE_MALFORMED if it is not `{"encappedPublic":hex,"ciphertext":hex}`;
 *   INVALID_PRIVATE_KEY; DECRYPTION_FAILED.
 */
export async function openImportedBundle(encryptedBundle: string, targetPrivateKey: Uint8Array): Promise<Uint8Array> {
  if (typeof encryptedBundle !== 'string') {
    throw new BundleError('INVALID_ARGUMENT', 'encryptedBundle must be a string');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(encryptedBundle);
  } catch {
    throw new BundleError('BUNDLE_MALFORMED', 'encryptedBundle is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BundleError('BUNDLE_MALFORMED', 'encryptedBundle must be a JSON object {encappedPublic, ciphertext}');
  }
  const fields = parsed as Record<string, unknown>;
  // Clients always send the 65-byte uncompressed enc here (only credential bundles compress it).
  const encappedPublic = hexField(fields['encappedPublic'], 'encryptedBundle.encappedPublic', 65);
  if (encappedPublic.length !== 65) {
    throw new BundleError('BUNDLE_MALFORMED', 'encryptedBundle.encappedPublic must be a 65-byte uncompressed P-256 point');
  }
  const ciphertext = hexField(fields['ciphertext'], 'encryptedBundle.ciphertext');
  return hpkeOpen({ encappedPublic, ciphertext }, targetPrivateKey);
}

/**
 * Returns the 32-byte private key carried by an opened private-key import, for either client key
 * format. Both formats put the raw 32 bytes on the wire (SOLANA's public half is dropped by the
 * client), so this only checks the length; whether the bytes are a valid scalar depends on the
 * curve of the import intent and is checked there. Returns a copy.
 * @throws {BundleError} INVALID_ARGUMENT for an unknown format; PLAINTEXT_INVALID if not 32 bytes.
 */
export function decodeImportedPrivateKey(plaintext: Uint8Array, keyFormat: TImportKeyFormat): Uint8Array {
  assertBytes(plaintext, 'plaintext');
  if (!(IMPORT_KEY_FORMATS as readonly string[]).includes(keyFormat)) {
    throw new BundleError('INVALID_ARGUMENT', `keyFormat must be one of ${IMPORT_KEY_FORMATS.join(', ')}`);
  }
  if (plaintext.length !== PRIVATE_KEY_LENGTH) {
    throw new BundleError(
      'PLAINTEXT_INVALID',
      `imported ${keyFormat} private key must be ${PRIVATE_KEY_LENGTH} bytes, got ${plaintext.length}`,
    );
  }
  return Uint8Array.from(plaintext);
}

/**
 * Decodes an opened wallet import to its mnemonic text (strict UTF-8). Passphrase splitting and
 * BIP-39 validation are the import handler's job.
 * @throws {BundleError} PLAINTEXT_INVALID if the bytes are empty or not UTF-8.
 */
export function decodeImportedMnemonic(plaintext: Uint8Array): string {
  assertBytes(plaintext, 'plaintext');
  const text = decodeUtf8(plaintext);
  if (text === undefined || text.length === 0) {
    throw new BundleError('PLAINTEXT_INVALID', 'imported wallet plaintext must be non-empty UTF-8');
  }
  return text;
}
