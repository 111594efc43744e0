/**
 * An OAuth 2.0 credential row as the activities and the queries read it: its provider checked, its
 * wire form (`v1Oauth2Credential`), and the one not-found error.
 */
import { AppError, OAUTH2_PROVIDERS, toTimestamp, type TOauth2Credential, type TOauth2Provider } from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';

export type TOauth2CredentialRow = NonNullable<Awaited<ReturnType<TRepositories['oauth2Credentials']['findById']>>>;

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
