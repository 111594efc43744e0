/**
 * create_oauth_providers (V2: by `oidcToken`, verified against its issuer, or by `oidcClaims`
 * {iss, sub, aud} given by a trusted caller) and delete_oauth_providers — the OIDC identities that
 * log a user in through oauth_login / oauth.
 *
 * Who may give bare `oidcClaims` (assertOidcClaimsAllowed): Turnkey documents no rule beyond
 * "exactly one of oidcToken and oidcClaims"; its SDKs send claims for an identity the same request
 * proves with a token (the token's iss and sub for the app's other client IDs), and an app's
 * backend sends them when it creates the sub-organization. Claims taken on anyone's word would let
 * any end user (the root user of its own sub-organization) take another person's (iss, sub, aud)
 * and make that person's login aimed at the parent a CREDENTIAL_CONFLICT. So: in a sub-
 * organization a claim needs a token of the same issuer and subject in the same request; in a top-
 * level organization, a root user may also give claims alone.
 */
import { ZCreateOauthProvidersIntentSchema, type TCreateOauthProvidersIntent, CREATE_OAUTH_PROVIDERS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUserExists, checkCredentials, writeCredentials } from '../../identity/add-user-credentials.js';
import { assertOidcClaimsAllowed } from '../../identity/oidc-claims.js';

export const createOauthProviders: TActivityDefinition<TCreateOauthProvidersIntent, { providerIds: string[] }> = {
  ...CREATE_OAUTH_PROVIDERS_ACTIVITY,
  access: { selfService: true },
  onFailure: 'reject',
  params: ZCreateOauthProvidersIntentSchema,
  async handle(ctx, p) {
    await assertUserExists(ctx, p.userId);
    const checked = await checkCredentials(ctx, { oauthProviders: p.oauthProviders }, (kind, i) => `${kind}[${i}]`, [ctx.organizationId]);
    await assertOidcClaimsAllowed(ctx, p.oauthProviders, checked.oauthProviders, (i) => `oauthProviders[${i}]`);
    const { oauthProviderIds } = await writeCredentials(ctx.tx, ctx.organizationId, p.userId, checked);
    return { providerIds: oauthProviderIds };
  },
};
