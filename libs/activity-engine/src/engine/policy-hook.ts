/**
 * The policy hook: the single place an activity is authorized. Every submission passes through
 * `evaluate` before its handler runs. Today's evaluator knows only the root quorum: root users
 * are allowed (or need consensus when the quorum threshold is above one) and everyone else is
 * implicitly denied. The policy language (issue #5) replaces this evaluator, not its callers.
 */
import type { TRepositories } from '@latchkey/persistence';
import type { TPrincipal } from './principal.js';

export type TPolicyOutcome = 'OUTCOME_ALLOW' | 'OUTCOME_REQUIRES_CONSENSUS' | 'OUTCOME_DENY_EXPLICIT' | 'OUTCOME_DENY_IMPLICIT';

export interface TPolicyRequest {
  principal: TPrincipal;
  organizationId: string;
  activity: {
    type: string;
    /** Version-free type, e.g. `CREATE_WALLET`. */
    kind: string;
    resource: string;
    action: string;
    params: unknown;
    /** The kind is one's own login or session: implicitly allowed (issue #5 lets a policy deny it). */
    selfService: boolean;
  };
}

export interface TPolicyDecision {
  outcome: TPolicyOutcome;
  /** Human-readable reason, returned to the caller on denial. */
  reason: string;
}

export interface TPolicyEvaluator {
  evaluate(request: TPolicyRequest, db: TRepositories): Promise<TPolicyDecision>;
}

/**
 * Self-service activities (one's own login) are implicitly allowed; otherwise root users of the
 * signer's organization may act (alone when the threshold is 1; a parent's root users when they
 * run a sub-organization's login flow) and every other user is implicitly denied.
 */
export function createRootQuorumEvaluator(): TPolicyEvaluator {
  return {
    async evaluate(req, db) {
      if (req.activity.selfService) return { outcome: 'OUTCOME_ALLOW', reason: 'implicit: acting on oneself' };
      const org = await db.organizations.findById(req.principal.organizationId);
      if (!org) return { outcome: 'OUTCOME_DENY_IMPLICIT', reason: 'organization not found' };
      const members = await db.organizations.rootQuorumMembers(req.principal.organizationId);
      const isRoot = members.some((m) => m.userId === req.principal.userId);
      if (!isRoot) return { outcome: 'OUTCOME_DENY_IMPLICIT', reason: `no policy allows ${req.activity.kind} for user ${req.principal.userId}` };
      if (org.rootQuorumThreshold <= 1) return { outcome: 'OUTCOME_ALLOW', reason: 'root quorum' };
      return { outcome: 'OUTCOME_REQUIRES_CONSENSUS', reason: `root quorum needs ${org.rootQuorumThreshold} approvals` };
    },
  };
}
