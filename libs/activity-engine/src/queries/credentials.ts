/**
 * get_authenticators (a user's passkeys, credential type CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR),
 * get_authenticator (one, by id) and get_oauth_providers (a user's, or the organization's).
 */
import { AppError, ZGetAuthenticatorRequestSchema, ZGetAuthenticatorsRequestSchema, ZGetOauthProvidersRequestSchema, type TAuthenticator, type TOauthProvider } from '@latchkey/domain';
import { authenticatorToWire, oauthProviderToWire } from '../engine/serialize.js';
import type { TQueryDefinition } from './query-definition.js';

export const getAuthenticators: TQueryDefinition<{ organizationId: string; userId: string }, { authenticators: TAuthenticator[] }> = {
  path: 'get_authenticators',
  request: ZGetAuthenticatorsRequestSchema,
  async handle(ctx, req) {
    if (!(await ctx.store.users.findById(ctx.organization.id, req.userId))) throw new AppError('NOT_FOUND', `user not found: ${req.userId}`, { userId: req.userId });
    const rows = await ctx.store.credentials.listAuthenticatorsByOrganization(ctx.organization.id, [req.userId]);
    return { authenticators: rows.map(authenticatorToWire) };
  },
};

export const getAuthenticator: TQueryDefinition<{ organizationId: string; authenticatorId: string }, { authenticator: TAuthenticator }> = {
  path: 'get_authenticator',
  request: ZGetAuthenticatorRequestSchema,
  async handle(ctx, req) {
    const row = await ctx.store.credentials.findAuthenticatorById(ctx.organization.id, req.authenticatorId);
    if (!row) throw new AppError('NOT_FOUND', `authenticator not found: ${req.authenticatorId}`, { authenticatorId: req.authenticatorId });
    return { authenticator: authenticatorToWire(row) };
  },
};

export const getOauthProviders: TQueryDefinition<{ organizationId: string; userId?: string | undefined }, { oauthProviders: TOauthProvider[] }> = {
  path: 'get_oauth_providers',
  request: ZGetOauthProvidersRequestSchema,
  async handle(ctx, req) {
    const rows = await ctx.store.credentials.listOauthProvidersByOrganization(ctx.organization.id, req.userId ? [req.userId] : undefined);
    return { oauthProviders: rows.map(oauthProviderToWire) };
  },
};
