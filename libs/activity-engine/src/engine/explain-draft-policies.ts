/**
 * The policy dry run (the admin console's explain view): a draft policy set evaluated against an
 * activity already in the log, without writing anything. The activity's request is rebuilt as
 * consensus.ts rebuilds a waiting one (its initiator, its stored intent), its condition context
 * by the same `conditionContext` the submission used, and the drafts go through the one policy
 * evaluator in place of the organization's stored policies — so the answer is the one the engine
 * would give had these been the organization's policies, evaluated now (`time.now`, the wallets
 * and keys as they are today).
 *
 * The root quorum bypasses every policy; the explanation evaluates the drafts as if it did not
 * (the point is to see what the policies say) and says separately when the initiator's approval
 * alone would have met the root quorum.
 */
import { AppError, type TCreatePolicyIntent, type TPolicyOutcomeName } from '@latchkey/domain';
import type { Activity, Policy, TStore, Vote } from '@latchkey/persistence';
import { activityKind, isEmptyExpression, parsePolicyExpression, PolicyParseError } from '@latchkey/policy';
import type { TRegisteredActivity } from './activity-definition.js';
import { conditionContext } from './policy-context.js';
import { createPolicyEvaluator, type TApprover, type TApprovers, type TPolicyEvaluator, type TPolicyRequest } from './policy-decision.js';
import type { TActivityRegistry } from '../registry.js';

/** A draft policy: create_policy's intent (name, effect, condition, consensus). */
export type TDraftPolicy = Pick<TCreatePolicyIntent, 'policyName' | 'effect' | 'condition' | 'consensus'>;

/** What the draft set as a whole decides: a deny wins, then an allow whose consensus is met. */
export type TDryRunOutcome = 'ALLOW' | 'DENY' | 'REQUIRES_CONSENSUS' | 'NO_MATCH';

export interface TPolicyExplanation {
  activity: { id: string; type: string; status: string; createdByUserId: string | null };
  outcome: TDryRunOutcome;
  /** The evaluator's own words, draft ids replaced by the drafts' names. */
  reason: string;
  /** One row per draft, in the order given; `matched`: its condition held (it applies). */
  policies: { index: number; policyName: string; effect: string; outcome: TPolicyOutcomeName; matched: boolean; deciding: boolean; error?: string }[];
  /** The initiator's approval alone meets the root quorum: the engine allows it whatever the policies say. */
  rootQuorumBypass: boolean;
}

export interface TExplainDeps {
  store: TStore;
  registry: TActivityRegistry;
  policy?: TPolicyEvaluator;
}

const draftId = (i: number) => `draft-policy-${i}`;

/**
 * Every draft expression through the language's one parser.
 * @throws AppError BAD_REQUEST naming the draft and field (`policies[1].condition`) and the position
 */
function assertDraftsParse(drafts: readonly TDraftPolicy[]): void {
  drafts.forEach((d, i) => {
    for (const field of ['condition', 'consensus'] as const) {
      const source = d[field];
      if (source === undefined || isEmptyExpression(source)) continue;
      try {
        parsePolicyExpression(source);
      } catch (e) {
        if (!(e instanceof PolicyParseError)) throw e;
        throw new AppError('BAD_REQUEST', `policies[${i}].${field}: ${e.message} (at offset ${e.position})`, { field: `policies[${i}].${field}` });
      }
    }
  });
}

/** The request a stored activity was (its initiator and stored intent), as consensus.ts rebuilds a waiting one. */
function requestOf(activity: Activity, def: TRegisteredActivity, registry: TActivityRegistry): TPolicyRequest {
  const version = registry.versionOfType(activity.type);
  const params = version ? (activity.intent as Record<string, unknown>)[version.intentKey] : undefined;
  return {
    principal: { organizationId: activity.organizationId, userId: activity.createdByUserId ?? '', credential: { kind: 'attested', publicKey: '', scheme: '', signature: '' } },
    organizationId: activity.organizationId,
    activity: { type: activity.type, kind: activityKind(activity.type), resource: def.resource, action: def.action, params, selfService: def.access?.selfService === true },
  };
}

/** The approvals recorded for the activity (with the credentials they were cast with), or else its initiator alone. */
async function approversOf(store: TStore, activity: Activity): Promise<TApprover[]> {
  const org = activity.organizationId;
  const votes: Vote[] = (await store.activities.votes(org, activity.id)).filter((v) => v.selection === 'VOTE_SELECTION_APPROVED');
  const ids = votes.length > 0 ? votes.map((v) => v.userId) : activity.createdByUserId ? [activity.createdByUserId] : [];
  const [users, tags] = await Promise.all([store.users.findByIds(org, ids), store.users.tagIdsByUser(org, ids)]);
  return ids.map((userId, i) => {
    const u = users.find((x) => x.id === userId);
    const v = votes[i];
    return {
      userId,
      email: u?.userEmail ?? null,
      name: u?.userName ?? '',
      tags: tags.get(userId) ?? [],
      credential: v ? { id: v.credentialId ?? '', type: v.credentialType ?? '', ...(v.webauthnCredentialId ? { credentialId: v.webauthnCredentialId } : {}), publicKey: v.publicKey } : { id: '', type: '', publicKey: '' },
    };
  });
}

/**
 * Evaluates `drafts` against the organization's activity `activityId`.
 * @throws AppError NOT_FOUND (no such activity in the organization), BAD_REQUEST (a draft does not
 *   parse, naming it; an activity kind no policy governs)
 */
export async function explainDraftPolicies(deps: TExplainDeps, input: { organizationId: string; activityId: string; policies: readonly TDraftPolicy[] }, now: Date = new Date()): Promise<TPolicyExplanation> {
  assertDraftsParse(input.policies);
  const activity = await deps.store.activities.findById(input.organizationId, input.activityId);
  if (!activity) throw new AppError('NOT_FOUND', `activity not found: ${input.activityId}`, { activityId: input.activityId });
  const def = deps.registry.byType(activity.type);
  if (!def) throw new AppError('BAD_REQUEST', `no policy governs activities of type ${activity.type}`, { activityId: input.activityId });

  const request = requestOf(activity, def, deps.registry);
  const drafts: Policy[] = input.policies.map((p, i) => ({
    id: draftId(i),
    organizationId: activity.organizationId,
    name: p.policyName,
    effect: p.effect,
    condition: p.condition ?? '',
    consensus: p.consensus ?? '',
    notes: '',
    createdAt: now,
    updatedAt: now,
  }));
  // The drafts stand in for the stored policies; everything else is read as the engine reads it.
  const db = { ...deps.store, policies: { ...deps.store.policies, list: async () => drafts } } as TStore;
  const approvers = await approversOf(deps.store, activity);
  // No approver ids: the root-quorum step is skipped so the policies are what decides (see the header).
  const policiesOnly: TApprovers = { userIds: [], details: async () => approvers };
  const decision = await (deps.policy ?? createPolicyEvaluator()).evaluate(request, db, policiesOnly, (needs) => conditionContext(db, request, now, def, needs));

  const members = new Set((await deps.store.organizations.rootQuorumMembers(activity.organizationId)).map((m) => m.userId));
  const org = await deps.store.organizations.findById(activity.organizationId);
  const rootApprovals = new Set(approvers.map((a) => a.userId).filter((id) => members.has(id))).size;

  const named = (text: string) => input.policies.reduce((t, p, i) => t.replaceAll(draftId(i), JSON.stringify(p.policyName)), text);
  const deciding = new Set(decision.decidingPolicyIds);
  const outcome: TDryRunOutcome =
    decision.outcome === 'OUTCOME_DENY_EXPLICIT' ? 'DENY'
    : decision.outcome === 'OUTCOME_REQUIRES_CONSENSUS' && deciding.size > 0 ? 'REQUIRES_CONSENSUS'
    : decision.outcome === 'OUTCOME_ALLOW' && deciding.size > 0 ? 'ALLOW'
    : 'NO_MATCH';
  return {
    activity: { id: activity.id, type: activity.type, status: activity.status, createdByUserId: activity.createdByUserId },
    outcome,
    reason: named(decision.reason),
    policies: input.policies.map((p, i) => {
      const e = decision.evaluations.find((x) => x.policyId === draftId(i));
      const o = e?.outcome ?? 'OUTCOME_DENY_IMPLICIT';
      return {
        index: i,
        policyName: p.policyName,
        effect: p.effect,
        outcome: o,
        matched: o === 'OUTCOME_ALLOW' || o === 'OUTCOME_DENY_EXPLICIT' || o === 'OUTCOME_REQUIRES_CONSENSUS',
        deciding: deciding.has(draftId(i)),
        ...(e?.error ? { error: named(e.error) } : {}),
      };
    }),
    rootQuorumBypass: org !== null && rootApprovals >= org.rootQuorumThreshold,
  };
}
