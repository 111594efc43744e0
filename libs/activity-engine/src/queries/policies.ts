/**
 * get_policy, list_policies (creation order) and get_policy_evaluations (every evaluation of an
 * activity's policies: at submission and at each vote, each policy with its outcome and, beyond
 * Turnkey, the evaluation error that made it not apply).
 */
import {
  AppError,
  toTimestamp,
  ZGetPolicyEvaluationsRequestSchema,
  ZGetPolicyRequestSchema,
  ZListPoliciesRequestSchema,
  type TPolicy,
  type TPolicyOutcomeRecord,
  type TTimestamp,
} from '@latchkey/domain';
import type { Policy } from '@latchkey/persistence';
import type { TQueryDefinition } from './query-definition.js';

export function policyToWire(p: Policy): TPolicy {
  return {
    policyId: p.id,
    policyName: p.name,
    effect: p.effect as TPolicy['effect'],
    createdAt: toTimestamp(p.createdAt),
    updatedAt: toTimestamp(p.updatedAt),
    notes: p.notes,
    consensus: p.consensus,
    condition: p.condition,
  };
}

export const getPolicy: TQueryDefinition<{ organizationId: string; policyId: string }, { policy: TPolicy }> = {
  path: 'get_policy',
  request: ZGetPolicyRequestSchema,
  async handle(ctx, req) {
    const p = await ctx.store.policies.findById(ctx.organization.id, req.policyId);
    if (!p) throw new AppError('NOT_FOUND', `policy not found: ${req.policyId}`, { policyId: req.policyId });
    return { policy: policyToWire(p) };
  },
};

export const listPolicies: TQueryDefinition<{ organizationId: string }, { policies: TPolicy[] }> = {
  path: 'list_policies',
  request: ZListPoliciesRequestSchema,
  async handle(ctx) {
    return { policies: (await ctx.store.policies.list(ctx.organization.id)).map(policyToWire) };
  },
};

interface TWireEvaluation {
  id: string;
  activityId: string;
  organizationId: string;
  voteId: string;
  outcome: string;
  policyEvaluations: TPolicyOutcomeRecord[];
  createdAt: TTimestamp;
}

export const getPolicyEvaluations: TQueryDefinition<{ organizationId: string; activityId: string }, { policyEvaluations: TWireEvaluation[] }> = {
  path: 'get_policy_evaluations',
  request: ZGetPolicyEvaluationsRequestSchema,
  async handle(ctx, req) {
    if (!(await ctx.store.activities.findById(ctx.organization.id, req.activityId))) {
      throw new AppError('NOT_FOUND', `activity not found: ${req.activityId}`, { activityId: req.activityId });
    }
    const rows = await ctx.store.policies.evaluations(ctx.organization.id, req.activityId);
    return {
      policyEvaluations: rows.map((r) => ({
        id: r.id,
        activityId: r.activityId,
        organizationId: r.organizationId,
        voteId: r.voteId ?? '',
        outcome: r.outcome,
        policyEvaluations: r.evaluations as unknown as TPolicyOutcomeRecord[],
        createdAt: toTimestamp(r.createdAt),
      })),
    };
  },
};
