/**
 * Every route the public API serves, from the same lists the server builds its tables from (the
 * activity and query registries of @latchkey/activity-engine, the vote wires of @latchkey/domain),
 * so a new activity kind or query is fuzzed and put in the matrix without anyone listing it here.
 * Each route carries the zod schema the server parses its body with (envelope and intent for an
 * activity) and who besides the target organization's own users may call it.
 */
import { ACTIVITY_DEFINITIONS, QUERY_DEFINITIONS } from '@latchkey/activity-engine';
import { APPROVE_ACTIVITY_ACTIVITY, REJECT_ACTIVITY_ACTIVITY, ZVoteIntentSchema, createActivityRequestSchema } from '@latchkey/domain';
import { z } from 'zod';

export interface TRoute {
  kind: 'submit' | 'query';
  /** The path segment after /public/v1/submit/ or /public/v1/query/. */
  name: string;
  url: string;
  /** Accepted `type`s (activities only). */
  types: readonly string[];
  /** The schema of the whole body, as the server parses it. */
  body: z.ZodType;
  /** The schema of what is generated: `parameters` for an activity, the whole body for a query. */
  generated: z.ZodType;
  /** A parent organization's credential may act on a sub-organization with it. */
  parentMayAct: boolean;
  /** A sub-organization's credential may aim it at the parent (it then runs in the sub-organization). */
  loginViaParent: boolean;
}

type TTypes = readonly [string, ...string[]];

function submitRoute(name: string, types: TTypes, params: z.ZodType, access: { parentMayAct?: boolean; loginViaParent?: boolean } = {}): TRoute {
  return {
    kind: 'submit',
    name,
    url: `/public/v1/submit/${name}`,
    types,
    body: createActivityRequestSchema(types, params as z.ZodType<Record<string, unknown>, Record<string, unknown>>),
    generated: params,
    parentMayAct: access.parentMayAct === true,
    loginViaParent: access.loginViaParent === true,
  };
}

/** All public routes, activities first, in registry order. */
export function publicRoutes(): TRoute[] {
  const activities = ACTIVITY_DEFINITIONS.map((d) => submitRoute(d.path, d.versions.map((v) => v.type) as unknown as TTypes, d.params as z.ZodType, d.access ?? {}));
  const votes = [APPROVE_ACTIVITY_ACTIVITY, REJECT_ACTIVITY_ACTIVITY].map((w) => submitRoute(w.path, w.versions.map((v) => v.type) as unknown as TTypes, ZVoteIntentSchema));
  const queries: TRoute[] = QUERY_DEFINITIONS.map((q) => ({
    kind: 'query',
    name: q.path,
    url: `/public/v1/query/${q.path}`,
    types: [],
    body: q.request as z.ZodType,
    generated: q.request as z.ZodType,
    parentMayAct: true, // a parent organization reads its sub-organizations (Turnkey's rule)
    loginViaParent: q.loginViaParent === true,
  }));
  return [...activities, ...votes, ...queries];
}

/** Routes no registry lists but the server answers on (or must refuse cleanly). */
export const OTHER_POST_URLS = ['/public/v1/submit/no_such_activity', '/public/v1/query/no_such_query', '/internal/v1/auth_proxy_config', '/public/v1/submit/', '/public/v1/query/%00', '/public/v1/submit/..%2f..%2fhealthz'];
export const OTHER_GET_URLS = ['/healthz', '/readyz', '/.well-known/openid-configuration', '/oauth2/jwks', '/public/v1/discovery/webhooks/jwks'];
