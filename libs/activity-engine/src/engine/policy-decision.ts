/**
 * The policy engine's decision (protocol notes §7), the one place an activity is authorized:
 *
 *   1. a quorum of root users among the approvers → ALLOW, bypassing every policy;
 *   2. else any applicable EFFECT_DENY policy → DENY (explicit) — deny always wins;
 *   3. else an applicable EFFECT_ALLOW policy whose consensus is met → ALLOW; one whose consensus
 *      is not met yet → REQUIRES_CONSENSUS;
 *   4. else the implicit allows → ALLOW: a self-service kind (one's own login, session or
 *      credentials) whose every target user is the caller — the `userId` (and `userIds`) it names,
 *      or the caller when it names none. Another user's credentials are never implicit, not even
 *      for a root user: they take a policy or the root quorum, so one root member cannot add its
 *      key to another and then approve as them;
 *   5. else a root user acting below the quorum threshold → REQUIRES_CONSENSUS;
 *   6. else DENY (implicit).
 *
 * The root quorum's own settings (update_root_quorum, organization features) are decided by the
 * root quorum alone: no policy allows or denies them.
 *
 * A policy applies when its condition is true (an empty condition always applies). A condition or
 * consensus that fails to evaluate (a missing field, a type mismatch) makes that policy not apply,
 * and the error is recorded with its outcome (OUTCOME_ERROR) for get_policy_evaluations.
 */
import type { TPolicyOutcomeName, TPolicyOutcomeRecord } from '@latchkey/domain';
import type { Policy, TRepositories } from '@latchkey/persistence';
import { ROOT_QUORUM_ACTIVITY_TYPES, evaluatePolicyExpression, isEmptyExpression, parsePolicyExpression } from '../policy/index.js';
import type { TPrincipal } from './principal.js';

export type TPolicyOutcome = 'OUTCOME_ALLOW' | 'OUTCOME_REQUIRES_CONSENSUS' | 'OUTCOME_DENY_EXPLICIT' | 'OUTCOME_DENY_IMPLICIT';

export interface TPolicyRequest {
  principal: TPrincipal;
  /** The organization the activity runs in. */
  organizationId: string;
  activity: {
    type: string;
    /** Version-free type, e.g. `CREATE_WALLET`. */
    kind: string;
    resource: string;
    action: string;
    params: unknown;
    /**
     * The kind is one's own login, session or credential: implicitly allowed unless denied, but
     * only while every user it targets (`params.userId`, `params.userIds`) is the caller.
     */
    selfService: boolean;
  };
}

/** A user who approved the activity (the initiator's submission is its first approval). */
export interface TApprover {
  userId: string;
  email: string | null;
  name: string;
  tags: string[];
  credential: { id: string; type: string; credentialId?: string; publicKey: string };
}

export interface TPolicyDecision {
  outcome: TPolicyOutcome;
  /** Human-readable, returned to the caller on denial. */
  reason: string;
  /** The policies that decided it (deny or allow), for the caller and the record. */
  decidingPolicyIds: string[];
  /** Every policy's outcome in this evaluation. */
  evaluations: TPolicyOutcomeRecord[];
}

/**
 * Who has approved so far: their ids at once, their details (tags, credentials) only when a policy
 * needs them — an organization without policies, or a root quorum, never pays for the lookups.
 */
export interface TApprovers {
  userIds: readonly string[];
  details(): Promise<readonly TApprover[]>;
}

export const approversFrom = (list: readonly TApprover[]): TApprovers => ({ userIds: list.map((a) => a.userId), details: async () => list });

export interface TPolicyEvaluator {
  /**
   * @param approvers who has approved so far (at submission: the initiator)
   * @param condition builds the condition context (activity, wallet, eth.tx, time.now…); called
   *   only when the organization has policies to evaluate
   */
  evaluate(request: TPolicyRequest, db: TRepositories, approvers: TApprovers, condition: () => Promise<Record<string, unknown>>): Promise<TPolicyDecision>;
}

/** The consensus context: `approvers` and the `credentials` they approved with. */
export function consensusContext(approvers: readonly TApprover[]): Record<string, unknown> {
  return {
    approvers: approvers.map((a) => ({ id: a.userId, tags: a.tags, email: a.email ?? '', alias: a.name })),
    credentials: approvers.map((a) => ({
      id: a.credential.id,
      user_id: a.userId,
      type: a.credential.type,
      credential_id: a.credential.credentialId ?? '',
      public_key: a.credential.publicKey,
    })),
  };
}

/**
 * True when every user a self-service activity targets is the caller: the `userId` and `userIds`
 * its parameters name (create_api_keys, recover_user, create_read_write_session…), or — naming
 * none (stamp_login) — the caller itself.
 */
export function targetsOnlyCaller(req: TPolicyRequest): boolean {
  const p = (req.activity.params ?? {}) as Record<string, unknown>;
  const named = [p['userId'], ...(Array.isArray(p['userIds']) ? (p['userIds'] as unknown[]) : [])].filter((id) => id !== undefined && id !== null);
  return named.every((id) => id === req.principal.userId);
}

type TExprResult = { value: boolean } | { error: string };

/** An empty expression is true: a policy without a condition always applies, one without a consensus needs none. */
function run(source: string, context: Record<string, unknown>): TExprResult {
  if (isEmptyExpression(source)) return { value: true };
  let expr;
  try {
    expr = parsePolicyExpression(source);
  } catch (e) {
    // Stored policies were parsed when written; this only guards rows from outside the API.
    return { error: `does not parse: ${(e as Error).message}` };
  }
  const r = evaluatePolicyExpression(expr, context);
  return r.ok ? { value: r.value } : { error: r.error.message };
}

interface TPolicyRun {
  policy: Policy;
  outcome: TPolicyOutcomeName;
  applies: boolean;
  consensusMet: boolean;
  error?: string;
}

function runPolicy(policy: Policy, condition: Record<string, unknown>, consensus: Record<string, unknown>): TPolicyRun {
  const c = run(policy.condition, condition);
  if ('error' in c) return { policy, outcome: 'OUTCOME_ERROR', applies: false, consensusMet: false, error: `condition: ${c.error}` };
  if (!c.value) return { policy, outcome: 'OUTCOME_DENY_IMPLICIT', applies: false, consensusMet: false };
  if (policy.effect === 'EFFECT_DENY') return { policy, outcome: 'OUTCOME_DENY_EXPLICIT', applies: true, consensusMet: true };
  const q = run(policy.consensus, consensus);
  if ('error' in q) return { policy, outcome: 'OUTCOME_ERROR', applies: false, consensusMet: false, error: `consensus: ${q.error}` };
  return { policy, outcome: q.value ? 'OUTCOME_ALLOW' : 'OUTCOME_REQUIRES_CONSENSUS', applies: true, consensusMet: q.value };
}

const isRootQuorumOnly = (type: string) => ROOT_QUORUM_ACTIVITY_TYPES.has(type);

export function createPolicyEvaluator(): TPolicyEvaluator {
  return {
    async evaluate(req, db, approvers, condition) {
      // The signer's organization governs its users: its quorum and its policies.
      const orgId = req.principal.organizationId;
      const [org, members] = await Promise.all([db.organizations.findById(orgId), db.organizations.rootQuorumMembers(orgId)]);
      if (!org) return { outcome: 'OUTCOME_DENY_IMPLICIT', reason: 'organization not found', decidingPolicyIds: [], evaluations: [] };
      const memberIds = new Set(members.map((m) => m.userId));
      const rootApprovals = new Set(approvers.userIds.filter((id) => memberIds.has(id))).size;
      if (rootApprovals >= org.rootQuorumThreshold) {
        return { outcome: 'OUTCOME_ALLOW', reason: `root quorum (${rootApprovals} of ${org.rootQuorumThreshold})`, decidingPolicyIds: [], evaluations: [] };
      }

      // The root quorum's own settings (its members, threshold, organization features) are governed by no policy.
      if (isRootQuorumOnly(req.activity.type)) {
        return rootApprovals > 0
          ? { outcome: 'OUTCOME_REQUIRES_CONSENSUS', reason: `root quorum needs ${org.rootQuorumThreshold} approvals, has ${rootApprovals}`, decidingPolicyIds: [], evaluations: [] }
          : { outcome: 'OUTCOME_DENY_IMPLICIT', reason: `only the root quorum may submit ${req.activity.kind}`, decidingPolicyIds: [], evaluations: [] };
      }
      const policies = await db.policies.list(orgId);
      let runs: TPolicyRun[] = [];
      if (policies.length > 0) {
        const [conditionCtx, consensusCtx] = await Promise.all([condition(), approvers.details().then(consensusContext)]);
        runs = policies.map((p) => runPolicy(p, conditionCtx, consensusCtx));
      }
      const evaluations = runs.map((r): TPolicyOutcomeRecord => ({ policyId: r.policy.id, outcome: r.outcome, ...(r.error ? { error: r.error } : {}) }));
      const ids = (rs: TPolicyRun[]) => rs.map((r) => r.policy.id);
      const denies = runs.filter((r) => r.applies && r.policy.effect === 'EFFECT_DENY');
      if (denies.length) return { outcome: 'OUTCOME_DENY_EXPLICIT', reason: `denied by policies ${ids(denies).join(', ')}`, decidingPolicyIds: ids(denies), evaluations };
      const allows = runs.filter((r) => r.applies && r.policy.effect === 'EFFECT_ALLOW');
      const met = allows.filter((r) => r.consensusMet);
      if (met.length) return { outcome: 'OUTCOME_ALLOW', reason: `allowed by policies ${ids(met).join(', ')}`, decidingPolicyIds: ids(met), evaluations };
      if (allows.length) {
        return { outcome: 'OUTCOME_REQUIRES_CONSENSUS', reason: `policies ${ids(allows).join(', ')} need more approvals`, decidingPolicyIds: ids(allows), evaluations };
      }
      if (req.activity.selfService && targetsOnlyCaller(req)) return { outcome: 'OUTCOME_ALLOW', reason: 'implicitly allowed: acting on oneself', decidingPolicyIds: [], evaluations };
      if (rootApprovals > 0) {
        return { outcome: 'OUTCOME_REQUIRES_CONSENSUS', reason: `root quorum needs ${org.rootQuorumThreshold} approvals, has ${rootApprovals}`, decidingPolicyIds: [], evaluations };
      }
      const errored = runs.filter((r) => r.error).map((r) => `${r.policy.id} (${r.error})`);
      return {
        outcome: 'OUTCOME_DENY_IMPLICIT',
        reason: `no policy allows ${req.activity.kind} for user ${req.principal.userId}${errored.length ? `; policies that failed to evaluate: ${errored.join('; ')}` : ''}`,
        decidingPolicyIds: [],
        evaluations,
      };
    },
  };
}
