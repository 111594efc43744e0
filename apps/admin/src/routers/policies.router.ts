/**
 * Policies: the list, create and delete as activities, `check` — the editor's live syntax
 * check with the real parser (the one the engine uses when a policy is written), errors at line
 * and column — and `dryRun`: a draft policy set evaluated against a past activity of the
 * organization by the engine's evaluator (which drafts matched, and the outcome), nothing written.
 */
import {
  CREATE_POLICY_ACTIVITY,
  DELETE_POLICY_ACTIVITY,
  UPDATE_POLICY_ACTIVITY,
  ZCreatePoliciesIntentSchema,
  ZCreatePolicyIntentSchema,
  ZDeletePolicyIntentSchema,
  ZListPoliciesRequestSchema,
  ZUpdatePolicyIntentSchema,
  type TPolicy,
} from '@latchkey/domain';
import { z } from 'zod';
import { engineQuery, engineSubmit } from '../trpc/engine-calls.js';
import { router, stampedProcedure } from '../trpc/init.js';
import { checkPolicyExpressions } from './check-policy.js';

export const policiesRouter = router({
  list: engineQuery<{ policies: TPolicy[] }, typeof ZListPoliciesRequestSchema>('list_policies', ZListPoliciesRequestSchema),
  create: engineSubmit(CREATE_POLICY_ACTIVITY, ZCreatePolicyIntentSchema),
  update: engineSubmit(UPDATE_POLICY_ACTIVITY, ZUpdatePolicyIntentSchema),
  delete: engineSubmit(DELETE_POLICY_ACTIVITY, ZDeletePolicyIntentSchema),
  check: stampedProcedure
    .input(z.object({ organizationId: z.string().min(1).max(256), condition: z.string().max(65536).optional(), consensus: z.string().max(65536).optional() }))
    .query(async ({ ctx, input }) => {
      await ctx.services.engine.authorizeRead(ctx.headers, ctx.raw);
      return checkPolicyExpressions(input);
    }),
  dryRun: stampedProcedure
    .input(z.object({ organizationId: z.string().min(1).max(256), activityId: z.string().min(1).max(256), policies: ZCreatePoliciesIntentSchema.shape.policies }))
    .query(async ({ ctx, input }) => {
      const { organization } = await ctx.services.engine.authorizeRead(ctx.headers, ctx.raw);
      return ctx.services.explainPolicies({ organizationId: organization.id, activityId: input.activityId, policies: input.policies });
    }),
});
