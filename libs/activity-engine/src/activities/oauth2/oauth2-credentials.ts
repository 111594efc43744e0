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
import { BundleError, newId, openEnclaveEnvelope } from '@latchkey/crypto';
import {
  AppError,
  OAUTH2_PROVIDERS,
  ZCreateOauth2CredentialIntentSchema,
  ZDeleteOauth2CredentialIntentSchema,
  ZGetOauth2CredentialRequestSchema,
  ZListOauth2CredentialsRequestSchema,
  ZUpdateOauth2CredentialIntentSchema,
  toTimestamp,
  type TCreateOauth2CredentialIntent,
  type TDeleteOauth2CredentialIntent,
  type TGetOauth2CredentialRequest,
  type TListOauth2CredentialsRequest,
  type TOauth2Credential,
  type TOauth2Provider,
  type TUpdateOauth2CredentialIntent,
} from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';
import { withServerKey } from '../../engine/services.js';
import type { TQueryDefinition } from '../../queries/query-definition.js';

export type TOauth2CredentialRow = NonNullable<Awaited<ReturnType<TRepositories['oauth2Credentials']['findById']>>>;

/** Binds a sealed client secret to its credential (a sealed value moved to another row fails to open). */
export const clientSecretAad = (oauth2CredentialId: string) => `oauth2-client-secret:${oauth2CredentialId}`;

const MAX_SECRET_BYTES = 2048;

/**
 * Opens `encryptedClientSecret` with the TLS-fetcher key.
 * @returns the secret's UTF-8 bytes (the caller wipes them)
 * @throws AppError BAD_REQUEST when it does not open or is not a usable secret
 */
async function openClientSecret(ctx: TActivityContext, encryptedClientSecret: string): Promise<Uint8Array> {
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

async function sealedSecretFor(ctx: TActivityContext, oauth2CredentialId: string, encryptedClientSecret: string): Promise<string> {
  const secret = await openClientSecret(ctx, encryptedClientSecret);
  try {
    return ctx.vault.seal(secret, clientSecretAad(oauth2CredentialId));
  } finally {
    secret.fill(0);
  }
}

export const createOauth2Credential: TActivityDefinition<TCreateOauth2CredentialIntent, { oauth2CredentialId: string }> = {
  path: 'create_oauth2_credential',
  versions: [{ type: 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL', intentKey: 'createOauth2CredentialIntent', resultKey: 'createOauth2CredentialResult' }],
  resource: 'AUTH',
  action: 'CREATE',
  params: ZCreateOauth2CredentialIntentSchema,
  async handle(ctx, p) {
    const id = newId();
    const sealedClientSecret = await sealedSecretFor(ctx, id, p.encryptedClientSecret);
    await ctx.tx.oauth2Credentials.create({
      id,
      organizationId: ctx.organizationId,
      provider: p.provider,
      clientId: p.clientId,
      encryptedClientSecret: p.encryptedClientSecret.toLowerCase(),
      sealedClientSecret,
      createdAt: ctx.now,
    });
    return { oauth2CredentialId: id };
  },
};

export const updateOauth2Credential: TActivityDefinition<TUpdateOauth2CredentialIntent, { oauth2CredentialId: string }> = {
  path: 'update_oauth2_credential',
  versions: [{ type: 'ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL', intentKey: 'updateOauth2CredentialIntent', resultKey: 'updateOauth2CredentialResult' }],
  resource: 'AUTH',
  action: 'UPDATE',
  params: ZUpdateOauth2CredentialIntentSchema,
  async handle(ctx, p) {
    const id = p.oauth2CredentialId;
    if (!(await ctx.tx.oauth2Credentials.findById(ctx.organizationId, id))) throw notFound(id);
    const sealedClientSecret = await sealedSecretFor(ctx, id, p.encryptedClientSecret);
    await ctx.tx.oauth2Credentials.update(ctx.organizationId, id, {
      provider: p.provider,
      clientId: p.clientId,
      encryptedClientSecret: p.encryptedClientSecret.toLowerCase(),
      sealedClientSecret,
      updatedAt: ctx.now,
    });
    return { oauth2CredentialId: id };
  },
};

export const deleteOauth2Credential: TActivityDefinition<TDeleteOauth2CredentialIntent, { oauth2CredentialId: string }> = {
  path: 'delete_oauth2_credential',
  versions: [{ type: 'ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL', intentKey: 'deleteOauth2CredentialIntent', resultKey: 'deleteOauth2CredentialResult' }],
  resource: 'AUTH',
  action: 'DELETE',
  params: ZDeleteOauth2CredentialIntentSchema,
  async handle(ctx, p) {
    if (!(await ctx.tx.oauth2Credentials.delete(ctx.organizationId, p.oauth2CredentialId))) throw notFound(p.oauth2CredentialId);
    return { oauth2CredentialId: p.oauth2CredentialId };
  },
};

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
