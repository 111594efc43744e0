/**
 * list_suborgs — the sub-organizations of the target (which must be a parent), optionally only
 * those holding a user, credential, OIDC identity (by token, or by its claims) or wallet address
 * matching a filter; paged by id. get_organization_configs — the organization's features and root quorum.
 */
import {
  AppError,
  parsePagination,
  ZGetOrganizationConfigsRequestSchema,
  ZListSubOrgsRequestSchema,
  type TFeature,
  type TGetOrganizationConfigsResponse,
  type TListSubOrgsRequest,
  type TListSubOrgsResponse,
} from '@latchkey/domain';
import type { TSubOrganizationFilter } from '@latchkey/persistence';
import type { TQueryContext, TQueryDefinition } from './query-definition.js';

/**
 * `OIDC_CLAIMS` (a Latchkey extension, what @turnkey/core sends the auth proxy's /v1/account):
 * `filterValue` is the JSON `{"iss","sub","aud"}` of an identity; it matches a user whose OAuth
 * provider has exactly that issuer, subject and audience.
 * @throws AppError 400 naming what the value lacks
 */
export function oidcClaimsFilter(value: string): TSubOrganizationFilter {
  let claims: unknown;
  try {
    claims = JSON.parse(value);
  } catch {
    claims = undefined;
  }
  const c = (typeof claims === 'object' && claims !== null ? claims : {}) as Record<string, unknown>;
  for (const k of ['iss', 'sub', 'aud'] as const) {
    if (typeof c[k] !== 'string' || c[k] === '') throw new AppError('BAD_REQUEST', `filterValue: OIDC_CLAIMS takes the JSON {"iss","sub","aud"} of an identity, each a non-empty string (${k} is missing)`, { field: 'filterValue' });
  }
  return { by: 'OIDC_CLAIMS', issuer: c['iss'] as string, subject: c['sub'] as string, audience: c['aud'] as string };
}

async function filterOf(ctx: TQueryContext, req: TListSubOrgsRequest): Promise<TSubOrganizationFilter | undefined> {
  if (!req.filterType || req.filterValue === undefined) return undefined;
  if (req.filterType === 'OIDC_CLAIMS') return oidcClaimsFilter(req.filterValue);
  if (req.filterType !== 'OIDC_TOKEN') return { by: req.filterType, value: req.filterValue };
  try {
    const claims = await ctx.services.oidc.verify(req.filterValue, {});
    return { by: 'OIDC', issuer: claims.iss, subject: claims.sub };
  } catch (e) {
    throw new AppError('BAD_REQUEST', `filterValue: invalid OIDC token: ${(e as Error).message}`, { field: 'filterValue' });
  }
}

/**
 * A page of the caller's own organization's sub-organization ids under `filter`: what list_suborgs
 * and list_verified_suborgs answer, asked of the parent organization by its own users only.
 * @throws AppError REQUEST_NOT_AUTHORIZED for a caller from another organization (a sub-organization's user)
 */
export async function listSubOrganizationIds(ctx: TQueryContext, path: string, paginationOptions: TListSubOrgsRequest['paginationOptions'], filter: () => Promise<TSubOrganizationFilter | undefined> | TSubOrganizationFilter): Promise<string[]> {
  // The caller first: a sub-organization's user learns nothing from how its filter is judged.
  if (ctx.principal.organizationId !== ctx.organization.id) {
    throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: ${path} runs on the parent organization, by its own users`);
  }
  return ctx.store.organizations.listSubOrganizationIds(ctx.organization.id, parsePagination(paginationOptions), await filter());
}

export const listSubOrgs: TQueryDefinition<TListSubOrgsRequest, TListSubOrgsResponse> = {
  path: 'list_suborgs',
  request: ZListSubOrgsRequestSchema,
  async handle(ctx, req) {
    return { organizationIds: await listSubOrganizationIds(ctx, 'list_suborgs', req.paginationOptions, () => filterOf(ctx, req)) };
  },
};

export const getOrganizationConfigs: TQueryDefinition<{ organizationId: string }, TGetOrganizationConfigsResponse> = {
  path: 'get_organization_configs',
  request: ZGetOrganizationConfigsRequestSchema,
  async handle(ctx) {
    const [features, quorum] = await Promise.all([ctx.store.organizations.features(ctx.organization.id), ctx.store.organizations.rootQuorumMembers(ctx.organization.id)]);
    return {
      configs: {
        features: features.map((f) => ({ name: f.name as TFeature['name'], value: f.value })),
        quorum: { threshold: ctx.organization.rootQuorumThreshold, userIds: quorum.map((m) => m.userId) },
      },
    };
  },
};
