/**
 * Approving an activity that waits in ACTIVITY_STATUS_AUTHENTICATORS_NEEDED (issue 16 §3, rules
 * in `mfa.ts`). Under the activity's lock, an approve_activity by the MFA's user stamped with the
 * next step's method counts as that step (the wrong user, method or order is a 400 and nothing is
 * counted); the one that does the last step sends the activity on through the organization's
 * policies, as if just submitted with the initiator's approval — allowed: the handler runs in this
 * transaction; consensus needed: it waits in CONSENSUS_NEEDED with that approval as its first
 * vote; denied: REJECTED. A reject_activity by the initiator cancels it (REJECTED).
 */
import { AppError, type TActivity, type TActivityStatus } from '@latchkey/domain';
import type { Activity, TRepositories, Vote } from '@latchkey/persistence';
import { activityKind } from '@latchkey/policy';
import { announcing, type TRegisteredActivity, type TVoteDefinition } from './activity-definition.js';
import { activityForCaller, activityWithVotes, approverOf, recordEvaluation, voteOf, type TConsensusDeps } from './consensus.js';
import { mfaSatisfied, nextMfaSteps } from './mfa.js';
import { conditionContext } from './policy-context.js';
import { approversFrom, type TPolicyRequest } from './policy-decision.js';
import type { TPrincipal } from './principal.js';
import { nextStatus } from './status-machine.js';

/** A handler's refusal after the last step: the step is recorded with a FAILED activity. */
class HandlerRefused extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
  }
}

/**
 * A vote on an activity waiting for authenticators.
 * @throws AppError 400 (not waiting for authenticators, not the MFA's user, wrong method or order), 404 (no such activity)
 */
export async function mfaVoteOnActivity(
  deps: TConsensusDeps,
  s: { selection: TVoteDefinition['vote']; principal: TPrincipal; organizationId: string; fingerprint: string; message: string; clientAddress?: string | undefined },
): Promise<TActivity> {
  const { organizationId, fingerprint, principal } = s;
  const changes: string[] = [];

  const locked = async (tx: TRepositories) => {
    const activity = await tx.activities.lockByFingerprint(organizationId, fingerprint);
    if (!activity) throw new AppError('NOT_FOUND', `activity not found for fingerprint ${fingerprint}`, { fingerprint });
    if (activity.status !== 'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED') {
      throw new AppError('BAD_REQUEST', `activity ${activity.id} is not awaiting authenticators (status ${activity.status})`, { activityId: activity.id, status: activity.status });
    }
    const def = deps.registry.byType(activity.type);
    const version = deps.registry.versionOfType(activity.type);
    if (!def || !version) throw new Error(`no definition for stored activity type ${activity.type}`);
    const mfa = (await tx.mfaPolicies.forActivity(organizationId, activity.id))[0];
    if (!mfa) throw new Error(`activity ${activity.id} waits for authenticators but has no MFA recorded`);
    return { activity, def, version, mfa, params: (activity.intent as Record<string, unknown>)[version.intentKey] };
  };

  const attempt = () =>
    deps.store.transaction(async (tx) => {
      const now = new Date(deps.now());
      const { activity, def, mfa, params, version } = await locked(tx);
      if (s.selection === 'VOTE_SELECTION_REJECTED') {
        if (principal.userId !== activity.createdByUserId) {
          throw new AppError('BAD_REQUEST', `activity ${activity.id} waits for the MFA of its initiator; only the initiator can reject (cancel) it now`, { activityId: activity.id });
        }
        const vote = await tx.activities.addVote(voteOf(principal, organizationId, activity.id, 'VOTE_SELECTION_REJECTED', s.message, now));
        const updated = await tx.activities.finish(organizationId, activity.id, { status: nextStatus('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED', 'REJECTED'), at: now });
        await tx.outbox.append({ organizationId, eventType: 'ACTIVITY_UPDATES', payload: { activity: await activityWithVotes(tx, updated, [vote]) } as object });
        return { activity: updated, votes: [vote] };
      }
      const satisfied = nextMfaSteps(mfa, principal, now);
      await tx.mfaPolicies.setSatisfied(organizationId, activity.id, mfa.mfaPolicyId, satisfied, now);
      if (!mfaSatisfied({ ...mfa, satisfiedMethods: satisfied })) {
        // Still waiting: the step is recorded, the activity is unchanged.
        return { activity, votes: [] as Vote[] };
      }
      return proceed(tx, activity, def, version.resultKey, params, now);
    });

  /** Every step done: the organization's policies decide, as at submission, with this approval as the initiator's. */
  const proceed = async (tx: TRepositories, activity: Activity, def: TRegisteredActivity, resultKey: string, params: unknown, now: Date) => {
    const request: TPolicyRequest = {
      principal,
      organizationId,
      activity: { type: activity.type, kind: activityKind(activity.type), resource: def.resource, action: def.action, params, selfService: def.access?.selfService === true },
    };
    const decision = await deps.policy.evaluate(request, tx, approversFrom([await approverOf(tx, principal)]), (needs) => conditionContext(tx, request, now, def, needs));
    const from = activity.status as TActivityStatus;
    let updated: Activity;
    let votes: Vote[] = [];
    switch (decision.outcome) {
      case 'OUTCOME_DENY_EXPLICIT':
      case 'OUTCOME_DENY_IMPLICIT':
        if (decision.evaluations.length > 0) await recordEvaluation(tx, organizationId, activity.id, decision, now);
        updated = await tx.activities.finish(organizationId, activity.id, { status: nextStatus(from, 'REJECTED'), failure: new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: ${decision.outcome}: ${decision.reason}`, { outcome: decision.outcome, policyIds: decision.decidingPolicyIds }).toBody() as unknown as object, at: now });
        break;
      case 'OUTCOME_REQUIRES_CONSENSUS': {
        const vote = await tx.activities.addVote(voteOf(principal, organizationId, activity.id, 'VOTE_SELECTION_APPROVED', s.message, now));
        votes = [vote];
        await recordEvaluation(tx, organizationId, activity.id, decision, now, vote.id);
        updated = await tx.activities.finish(organizationId, activity.id, { status: nextStatus(from, 'CONSENSUS_REQUIRED'), at: now });
        break;
      }
      case 'OUTCOME_ALLOW': {
        if (decision.evaluations.length > 0) await recordEvaluation(tx, organizationId, activity.id, decision, now);
        const pending = nextStatus(from, 'POLICY_ALLOWED');
        let result: unknown;
        try {
          result = await def.handle({ tx: announcing(tx, changes), vault: deps.vault, organizationId, activityId: activity.id, principal, now, services: deps.services, detached: deps.store, clientAddress: s.clientAddress }, params);
        } catch (e) {
          if (e instanceof AppError) throw new HandlerRefused(e);
          throw e;
        }
        updated = await tx.activities.finish(organizationId, activity.id, { status: nextStatus(pending, 'EXECUTED'), result: { [resultKey]: result } as object, at: now });
        break;
      }
    }
    await tx.outbox.append({ organizationId, eventType: 'ACTIVITY_UPDATES', payload: { activity: await activityWithVotes(tx, updated, votes) } as object });
    return { activity: updated, votes };
  };

  let outcome: { activity: Activity; votes: Vote[] };
  try {
    outcome = await attempt();
    for (const m of changes) deps.onCommitted?.(m);
  } catch (refused) {
    if (!(refused instanceof HandlerRefused)) throw refused;
    // The handler refused after the last step: its effects rolled back; record the step and a FAILED activity.
    outcome = await deps.store.transaction(async (tx) => {
      const now = new Date(deps.now());
      const { activity, mfa } = await locked(tx);
      await tx.mfaPolicies.setSatisfied(organizationId, activity.id, mfa.mfaPolicyId, nextMfaSteps(mfa, principal, now), now);
      const status = nextStatus(nextStatus('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED', 'POLICY_ALLOWED'), 'EXECUTION_FAILED');
      const updated = await tx.activities.finish(organizationId, activity.id, { status, failure: refused.error.toBody() as unknown as object, at: now });
      await tx.outbox.append({ organizationId, eventType: 'ACTIVITY_UPDATES', payload: { activity: await activityWithVotes(tx, updated, []) } as object });
      return { activity: updated, votes: [] };
    });
  }
  return activityForCaller(deps, outcome.activity, principal.userId, new Date(deps.now()), outcome.votes);
}
