/**
 * Export bundles: the `exportBundle` of `export_wallet`, `export_private_key` and
 * `export_wallet_account` results, opened by `@turnkey/crypto` `decryptExportBundle`.
 *
 * A signed envelope whose data is `{"encappedPublic":"04…","ciphertext":"…","organizationId":"…"}`
 * (this key order). The plaintext is the UTF-8 mnemonic for a wallet (`returnMnemonic: true`
 * client-side), or the raw 32-byte private key for a private key or wallet account: the client
 * hex-encodes it, or for keyFormat SOLANA derives the ed25519 public key and returns
 * bs58(priv ‖ pub), so the server sends the 32-byte seed in both cases.
 */
import { encodeHex } from '../encoding.js';
import { assertBytes, assertNonEmptyString } from './bundle-inputs.js';
import { hpkeSeal } from './hpke.js';
import { signEnvelope, type TEnvelopeSigner } from './signed-envelope.js';

export type TCreateExportBundleParams = {
  /** Mnemonic as UTF-8 bytes, or a raw private key. Not retained. */
  plaintext: Uint8Array;
  /** The intent's `targetPublicKey`: P-256 hex, compressed or uncompressed. */
  targetPublicKey: string;
  /** The organization the exported key belongs to; the client refuses a bundle for another. */
  organizationId: string;
  signer: TEnvelopeSigner;
};

/**
 * Encrypts `plaintext` to the client's target key and signs the result.
 * @throws {BundleError} INVALID_ARGUMENT (empty plaintext or organizationId), INVALID_PUBLIC_KEY,
 *   and the signer errors of `signEnvelope`.
 */
export async function createExportBundle(params: TCreateExportBundleParams): Promise<string> {
  const { plaintext, targetPublicKey, organizationId, signer } = params;
  assertBytes(plaintext, 'plaintext', { nonEmpty: true });
  assertNonEmptyString(organizationId, 'organizationId');
  const sealed = await hpkeSeal(plaintext, targetPublicKey);
  return signEnvelope(
    {
      encappedPublic: encodeHex(sealed.encappedPublic),
      ciphertext: encodeHex(sealed.ciphertext),
      organizationId,
    },
    signer,
  );
}
