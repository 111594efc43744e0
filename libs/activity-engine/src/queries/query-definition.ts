/** What a query declares: its path, its request schema and its (read-only) handler. */
import type { Organization, TStore } from '@latchkey/persistence';
import type { z } from 'zod';
import type { TAuthCache } from '../engine/auth-cache.js';
import type { TPrincipal } from '../engine/principal.js';
import type { TEngineServices } from '../engine/services.js';
import type { TConsensusDeps } from '../engine/consensus.js';

export interface TQueryContext {
  store: TStore;
  cache: TAuthCache;
  principal: TPrincipal;
  /** The organization the query targets (the caller's own or one of its sub-organizations). */
  organization: Organization;
  services: TEngineServices;
  /** What reading an activity's votes needs (the caller's canApprove / canReject). */
  consensus: Pick<TConsensusDeps, 'store' | 'registry' | 'policy' | 'approvalWindowMs'>;
}

export interface TQueryDefinition<TReq = unknown, TRes = unknown> {
  /** The path segment after `/public/v1/query/`. */
  path: string;
  request: z.ZodType<TReq>;
  /** Answers for the sub-organization a credential resolved to when aimed at the parent (whoami). */
  loginViaParent?: boolean;
  handle(ctx: TQueryContext, req: TReq): Promise<TRes>;
}

export type TAnyQueryDefinition = TQueryDefinition<any, unknown>;
