/**
 * An organization's OAuth 2.0 clients at X or Discord: create / update / delete_oauth2_credential,
 * and the queries get_oauth2_credential and list_oauth2_credentials. Policy: AUTH / CREATE,
 * UPDATE, DELETE (the notes §7 list has no resource of its own for them).
 *
 * The client secret arrives encrypted to the server's TLS-fetcher key (`@turnkey/crypto`
 * `encryptOauth2ClientSecret(secret, tlsFetcherPublicKey)`, a QOS envelope). It is opened here
 * once, checked, and re-sealed by the key vault bound to the credential's id; the client's
 * envelope is kept too, because get/list return it as Turnkey does. The secret itself is never
 * stored, logged or returned.
 */
import { BundleError, openEnclaveEnvelope } from '@latchkey/crypto';
import { AppError, OAUTH2_PROVIDERS, ZGetOauth2CredentialRequestSchema, ZListOauth2CredentialsRequestSchema, toTimestamp, type TGetOauth2CredentialRequest, type TListOauth2CredentialsRequest, type TOauth2Credential, type TOauth2Provider } from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TActivityContext } from '../../engine/activity-definition.js';
import { withServerKey } from '../../keys/server-keys.js';
import type { TQueryDefinition } from '../../queries/query-definition.js';
import { oauth2ClientSecretAad as clientSecretAad } from '../../keys/vault-aad.js';

export type TOauth2CredentialRow = NonNullable<Awaited<ReturnType<TRepositories['oauth2Credentials']['findById']>>>;

/** Binds a sealed client secret to its credential (a sealed value moved to another row fails to open). */
export { oauth2ClientSecretAad as clientSecretAad } from '../../keys/vault-aad.js';

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




export function notFound(oauth2CredentialId: string): AppError {
  return new AppError('NOT_FOUND', `OAuth 2.0 credential not found: ${oauth2CredentialId}`, { oauth2CredentialId });
}

/** The stored provider, checked (rows are written only by this module, so anything else is a fault). */
export function providerOf(row: TOauth2CredentialRow): TOauth2Provider {
  const p = OAUTH2_PROVIDERS.find((x) => x === row.provider);
  if (!p) throw new Error(`OAuth 2.0 credential ${row.id} has an unknown provider`);
  return p;
}

export function oauth2CredentialToWire(row: TOauth2CredentialRow): TOauth2Credential {
  return {
    oauth2CredentialId: row.id,
    organizationId: row.organizationId,
    provider: providerOf(row),
    clientId: row.clientId,
    encryptedClientSecret: row.encryptedClientSecret,
    createdAt: toTimestamp(row.createdAt),
    updatedAt: toTimestamp(row.updatedAt),
  };
}

export const getOauth2Credential: TQueryDefinition<TGetOauth2CredentialRequest, { oauth2Credential: TOauth2Credential }> = {
  path: 'get_oauth2_credential',
  request: ZGetOauth2CredentialRequestSchema,
  async handle(ctx, req) {
    const row = await ctx.store.oauth2Credentials.findById(ctx.organization.id, req.oauth2CredentialId);
    if (!row) throw notFound(req.oauth2CredentialId);
    return { oauth2Credential: oauth2CredentialToWire(row) };
  },
};

export const listOauth2Credentials: TQueryDefinition<TListOauth2CredentialsRequest, { oauth2Credentials: TOauth2Credential[] }> = {
  path: 'list_oauth2_credentials',
  request: ZListOauth2CredentialsRequestSchema,
  async handle(ctx) {
    const rows = await ctx.store.oauth2Credentials.listByOrganization(ctx.organization.id);
    return { oauth2Credentials: rows.map(oauth2CredentialToWire) };
  },
};
