/**
 * What create_oauth2_credential and update_oauth2_credential share: opening the client secret the
 * caller encrypted and re-sealing it in the vault.
 *
 * The client secret arrives encrypted to the server's TLS-fetcher key (`@turnkey/crypto`
 * `encryptOauth2ClientSecret(secret, tlsFetcherPublicKey)`, a QOS envelope). It is opened here
 * once, checked, and re-sealed by the key vault bound to the credential's id; the client's
 * envelope is kept too, because get/list return it as Turnkey does. The secret itself is never
 * stored, logged or returned.
 */
import { BundleError, openEnclaveEnvelope } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../../engine/activity-definition.js';
import { withServerKey } from '../../keys/server-keys.js';
import { oauth2ClientSecretAad as clientSecretAad } from '../../keys/vault-aad.js';

export const MAX_SECRET_BYTES = 2048;

/**
 * Opens `encryptedClientSecret` with the TLS-fetcher key.
 * @returns the secret's UTF-8 bytes (the caller wipes them)
 * @throws AppError BAD_REQUEST when it does not open or is not a usable secret
 */
export async function openClientSecret(ctx: TActivityContext, encryptedClientSecret: string): Promise<Uint8Array> {
  const envelope = new Uint8Array(Buffer.from(encryptedClientSecret, 'hex'));
  let secret: Uint8Array;
  try {
    secret = await withServerKey(ctx.tx, ctx.vault, 'tls_fetcher', (key) => openEnclaveEnvelope(envelope, key.privateKey));
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    throw new AppError(
      'BAD_REQUEST',
      `encryptedClientSecret: ${e.message}; encrypt the secret with encryptOauth2ClientSecret(secret, tlsFetcherPublicKey) using this server's tlsFetcherPublicKey (/.well-known/latchkey.json)`,
      { field: 'encryptedClientSecret' },
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(secret);
  } catch {
    text = '';
  }
  if (text === '' || secret.length > MAX_SECRET_BYTES || /[\x00-\x1f\x7f]/.test(text)) {
    secret.fill(0);
    throw new AppError('BAD_REQUEST', `encryptedClientSecret: the decrypted client secret must be 1 to ${MAX_SECRET_BYTES} bytes of printable UTF-8`, { field: 'encryptedClientSecret' });
  }
  return secret;
}

export async function sealedSecretFor(ctx: TActivityContext, oauth2CredentialId: string, encryptedClientSecret: string): Promise<string> {
  const secret = await openClientSecret(ctx, encryptedClientSecret);
  try {
    return ctx.vault.seal(secret, clientSecretAad(oauth2CredentialId));
  } finally {
    secret.fill(0);
  }
}
