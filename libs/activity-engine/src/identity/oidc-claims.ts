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
import { AppError, type TOauthProviderParamsV2 } from '@latchkey/domain';
import type { TActivityContext } from '../engine/activity-definition.js';
import { checkCredentials, type TCheckedCredentials } from './add-user-credentials.js';

/**
 * Refuses `oidcClaims` the caller may not vouch for (see the module comment). Runs after
 * checkCredentials, whose `checked.oauthProviders` are in request order with tokens verified.
 * @throws AppError REQUEST_NOT_AUTHORIZED naming the provider
 */
export async function assertOidcClaimsAllowed(
  ctx: TActivityContext,
  given: readonly Pick<TOauthProviderParamsV2, 'oidcToken' | 'oidcClaims'>[],
  checked: TCheckedCredentials['oauthProviders'],
  pathOf: (index: number) => string,
): Promise<void> {
  const claimed = given.map((p, i) => (p.oidcClaims ? i : -1)).filter((i) => i >= 0);
  if (claimed.length === 0) return;
  const org = await ctx.tx.organizations.findById(ctx.organizationId);
  if (!org) throw new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${ctx.organizationId}`);
  if (!org.parentOrganizationId) {
    const roots = await ctx.tx.organizations.rootQuorumMembers(ctx.organizationId);
    if (roots.some((m) => m.userId === ctx.principal.userId)) return;
  }
  const proven = new Set(given.flatMap((p, i) => (p.oidcToken && checked[i] ? [`${checked[i].issuer}\n${checked[i].subject}`] : [])));
  for (const i of claimed) {
    const c = given[i]!.oidcClaims!;
    if (!proven.has(`${c.iss}\n${c.sub}`)) {
      throw new AppError(
        'REQUEST_NOT_AUTHORIZED',
        `${pathOf(i)}: oidcClaims are accepted only alongside an oidcToken of the same issuer and subject${org.parentOrganizationId ? '' : ', or from a root user'}; send the oidcToken instead`,
        { field: `${pathOf(i)}.oidcClaims` },
      );
    }
  }
}
