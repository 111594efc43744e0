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
import { ROOT_QUORUM_ACTIVITY_TYPES, childrenOf, conditionNeeds, evaluatePolicyExpression, isEmptyExpression, parsePolicyExpression, type TConditionNeeds, type TExpr } from '@latchkey/policy';
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

/**
 * A user who has not voted yet, as the approver it would be: its details and every live
 * credential it could approve with (which one it will use is not known before it votes).
 */
export interface TCandidate {
  userId: string;
  details(): Promise<{ approver: Omit<TApprover, 'credential'>; credentials: readonly TApprover['credential'][] }>;
}

export interface TPolicyEvaluator {
  /**
   * @param approvers who has approved so far (at submission: the initiator)
   * @param condition builds the condition context (activity, wallet, eth.tx, time.now…); called
   *   only when the organization has policies to evaluate, with what their conditions read
   *   (`conditionNeeds`), so a costly lookup no condition reads is skipped
   */
  evaluate(request: TPolicyRequest, db: TRepositories, approvers: TApprovers, condition: (needs: TConditionNeeds) => Promise<Record<string, unknown>>): Promise<TPolicyDecision>;
  /**
   * Whether `candidate`'s approval would count toward what a waiting activity still needs (its
   * `canApprove`): the candidate is a member of the root quorum, or — no applicable EFFECT_DENY
   * standing in the way — it takes part in the consensus of an applicable EFFECT_ALLOW policy. See
   * `candidateProbe` for the exact test; one evaluation per applicable allow policy.
   */
  approvalCounts(request: TPolicyRequest, db: TRepositories, approvers: TApprovers, candidate: TCandidate, condition: (needs: TConditionNeeds) => Promise<Record<string, unknown>>): Promise<boolean>;
}

type TUserFacts = Omit<TApprover, 'credential'>;
const userFacts = (a: TUserFacts) => ({ id: a.userId, tags: a.tags, email: a.email ?? '', alias: a.name });
const credentialFacts = (userId: string, c: TApprover['credential']) => ({ id: c.id, user_id: userId, type: c.type, credential_id: c.credentialId ?? '', public_key: c.publicKey });

/**
 * The consensus context: `approvers` and the `credentials` they approved with. A user listed more
 * than once (a hypothetical approver set holding each of a user's credentials: the rejection's
 * best case in consensus.ts) is one approver with several credentials; real votes are one per user.
 */
export function consensusContext(approvers: readonly TApprover[]): Record<string, unknown> {
  const users = new Map<string, TApprover>();
  for (const a of approvers) if (!users.has(a.userId)) users.set(a.userId, a);
  return { approvers: [...users.values()].map(userFacts), credentials: approvers.map((a) => credentialFacts(a.userId, a.credential)) };
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

/** Where the candidate sits in a probe's context; not an identifier the parser accepts, so no policy can name it. */
const CANDIDATE_LISTS = { approvers: '#candidate approvers', credentials: '#candidate credentials' } as const;
type TConsensusList = keyof typeof CANDIDATE_LISTS;
const consensusList = (e: TExpr, bound: ReadonlySet<string>): TConsensusList | undefined =>
  e.kind === 'var' && (e.name === 'approvers' || e.name === 'credentials') && !bound.has(e.name) ? e.name : undefined;

/** The variables an expression reads that `bound` does not bind (context keywords and outer lambda items). */
function freeVars(e: TExpr, bound: ReadonlySet<string>, out: Set<string> = new Set()): Set<string> {
  if (e.kind === 'var' && !bound.has(e.name)) out.add(e.name);
  if (e.kind === 'lambda') {
    freeVars(e.target, bound, out);
    freeVars(e.body, new Set([...bound, e.param]), out);
  } else {
    for (const child of childrenOf(e)) freeVars(child, bound, out);
  }
  return out;
}

/**
 * The per-approver tests of a consensus expression: every `approvers.any|all|filter(x, P)` and
 * `credentials.any|all|filter(c, P)` whose predicate P reads nothing of an enclosing lambda's item
 * (so P can be asked of one candidate on its own). `countsEveryone` when the expression counts
 * `approvers` or `credentials` unfiltered (`approvers.count() >= 3`): every approval counts there.
 */
function perApproverTests(e: TExpr): { tests: Extract<TExpr, { kind: 'lambda' }>[]; countsEveryone: boolean } {
  const tests: Extract<TExpr, { kind: 'lambda' }>[] = [];
  let countsEveryone = false;
  const visit = (x: TExpr, bound: ReadonlySet<string>): void => {
    if (x.kind === 'lambda') {
      const reads = freeVars(x.body, new Set([x.param]));
      if (consensusList(x.target, bound) && ![...reads].some((v) => bound.has(v))) tests.push(x);
      visit(x.target, bound);
      visit(x.body, new Set([...bound, x.param]));
      return;
    }
    if (x.kind === 'count' && consensusList(x.target, bound)) countsEveryone = true;
    for (const child of childrenOf(x)) visit(child, bound);
  };
  visit(e, new Set());
  return { tests, countsEveryone };
}

/**
 * The one expression that tells whether a candidate's approval counts toward a consensus, or
 * `true` when every approval does. Evaluated over the approvers so far plus the candidate (and
 * all its credentials), it is
 *
 *   consensus || #candidate.any(x, P1) || #candidate-credentials.any(c, P2) || …
 *
 * for the per-approver tests P of the consensus: the candidate's approval would meet the
 * consensus now, or the candidate (or one of its credentials) passes a test that picks the
 * approvers the consensus counts — so the 2nd of three approvers a rule needs counts, though its
 * approval alone meets nothing yet. An evaluation error (the language does not short-circuit)
 * means it does not count.
 */
export function candidateProbe(consensus: TExpr): TExpr | true {
  const { tests, countsEveryone } = perApproverTests(consensus);
  if (countsEveryone) return true;
  return tests.reduce<TExpr>(
    (probe, t) => ({ kind: 'logical', op: '||', left: probe, right: { ...t, method: 'any', target: { kind: 'var', name: CANDIDATE_LISTS[(t.target as { name: TConsensusList }).name] } } }),
    consensus,
  );
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
        const [conditionCtx, consensusCtx] = await Promise.all([condition(conditionNeeds(policies.map((p) => p.condition))), approvers.details().then(consensusContext)]);
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

    async approvalCounts(req, db, approvers, candidate, condition) {
      const orgId = req.principal.organizationId;
      // A root member's approval always counts toward the quorum, which bypasses every policy.
      if ((await db.organizations.rootQuorumMembers(orgId)).some((m) => m.userId === candidate.userId)) return true;
      if (isRootQuorumOnly(req.activity.type)) return false;
      const policies = await db.policies.list(orgId);
      if (policies.length === 0) return false;
      const conditionCtx = await condition(conditionNeeds(policies.map((p) => p.condition)));
      const applicable = policies.filter((p) => {
        const c = run(p.condition, conditionCtx);
        return !('error' in c) && c.value;
      });
      // An applicable deny leaves only the root quorum.
      if (applicable.some((p) => p.effect === 'EFFECT_DENY')) return false;
      const allows = applicable.filter((p) => p.effect === 'EFFECT_ALLOW' && !isEmptyExpression(p.consensus));
      if (allows.length === 0) return false;
      const [current, who] = await Promise.all([approvers.details(), candidate.details()]);
      const base = consensusContext(current);
      const mine = who.credentials.map((c) => credentialFacts(candidate.userId, c));
      const context = {
        approvers: [...(base['approvers'] as object[]), userFacts(who.approver)],
        credentials: [...(base['credentials'] as object[]), ...mine],
        [CANDIDATE_LISTS.approvers]: [userFacts(who.approver)],
        [CANDIDATE_LISTS.credentials]: mine,
      };
      return allows.some((p) => {
        let expr: TExpr;
        try {
          expr = parsePolicyExpression(p.consensus);
        } catch {
          return false; // Stored policies were parsed when written; see `run`.
        }
        const probe = candidateProbe(expr);
        if (probe === true) return true;
        const r = evaluatePolicyExpression(probe, context);
        return r.ok && r.value;
      });
    },
  };
}
