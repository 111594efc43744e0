/** get_oauth2_credential and list_oauth2_credentials: an organization's OAuth 2.0 clients, secrets only as the caller's envelope. */
import { ZGetOauth2CredentialRequestSchema, ZListOauth2CredentialsRequestSchema, type TGetOauth2CredentialRequest, type TListOauth2CredentialsRequest, type TOauth2Credential } from '@latchkey/domain';
import { notFound, oauth2CredentialToWire } from '../identity/oauth2-credential-rows.js';
import type { TQueryDefinition } from './query-definition.js';

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
