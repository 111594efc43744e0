/**
 * create_oauth_providers (V2: by `oidcToken`, verified against its issuer, or by `oidcClaims`
 * {iss, sub, aud} given by a trusted caller) and delete_oauth_providers — the OIDC identities that
 * log a user in through oauth_login / oauth. Policy: CREDENTIAL / CREATE and DELETE; implicitly
 * allowed for one's own user.
 */
import {
  AppError,
  ZCreateOauthProvidersIntentSchema,
  ZDeleteOauthProvidersIntentSchema,
  type TCreateOauthProvidersIntent,
  type TDeleteOauthProvidersIntent,
} from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertMayManageCredentials, checkCredentials, writeCredentials } from '../credentials/add-user-credentials.js';

export const createOauthProviders: TActivityDefinition<TCreateOauthProvidersIntent, { providerIds: string[] }> = {
  path: 'create_oauth_providers',
  versions: [
    { type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2', intentKey: 'createOauthProvidersIntentV2', resultKey: 'createOauthProvidersResultV2' },
    { type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS', intentKey: 'createOauthProvidersIntent', resultKey: 'createOauthProvidersResult' },
  ],
  resource: 'CREDENTIAL',
  action: 'CREATE',
  access: { selfService: true },
  onFailure: 'reject',
  params: ZCreateOauthProvidersIntentSchema,
  async handle(ctx, p) {
    await assertMayManageCredentials(ctx, p.userId);
    const checked = await checkCredentials(ctx, { oauthProviders: p.oauthProviders }, (kind, i) => `${kind}[${i}]`, [ctx.organizationId]);
    const { oauthProviderIds } = await writeCredentials(ctx.tx, ctx.organizationId, p.userId, checked);
    return { providerIds: oauthProviderIds };
  },
};

export const deleteOauthProviders: TActivityDefinition<TDeleteOauthProvidersIntent, { providerIds: string[] }> = {
  path: 'delete_oauth_providers',
  versions: [{ type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS', intentKey: 'deleteOauthProvidersIntent', resultKey: 'deleteOauthProvidersResult' }],
  resource: 'CREDENTIAL',
  action: 'DELETE',
  access: { selfService: true },
  onFailure: 'reject',
  params: ZDeleteOauthProvidersIntentSchema,
  async handle(ctx, p) {
    await assertMayManageCredentials(ctx, p.userId);
    const wanted = [...new Set(p.providerIds)];
    const deleted = await ctx.tx.credentials.deleteOauthProviders(ctx.organizationId, p.userId, wanted, ctx.now);
    const missing = wanted.filter((id) => !deleted.includes(id));
    if (missing.length > 0) throw new AppError('NOT_FOUND', `OAuth providers not found for user ${p.userId}: ${missing.join(', ')}`, { providerIds: missing });
    return { providerIds: wanted };
  },
};
