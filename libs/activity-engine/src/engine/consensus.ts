/**
 * Consensus: activities that wait in ACTIVITY_STATUS_CONSENSUS_NEEDED until enough users approve.
 *
 * - The initiator's submission is the first approval (its vote carries the request's stamp).
 * - approve_activity / reject_activity (by fingerprint) lock the activity, record the vote and
 *   re-evaluate the policies with the new approver set. Once allowed, the handler runs in the same
 *   transaction that records the deciding vote, so two approvals racing cannot run it twice.
 * - A rejection by a user whose approval would count (`canReject`: a root-quorum member, or one
 *   whose "yes" some applicable policy's consensus would count) makes the activity REJECTED at
 *   once, and nothing runs — as in any approval system, a required approver's "no" stops the
 *   request. So does the initiator's (a cancel). Anyone else's rejection is recorded and the
 *   activity keeps waiting.
 * - `canApprove` / `canReject` are computed for the caller: true only while the activity waits,
 *   the caller has not voted, and its approval would count (see `votingState`).
 * - A vote records the credential that cast it (id, type, a passkey's credential id), so each
 *   re-evaluation sees the approvers' `credentials` exactly as the submission did.
 * - Approvals lapse: a waiting activity's votes count for `approvalWindowMs` from the first
 *   (LATCHKEY_APPROVAL_WINDOW_SECONDS, 24 h by default, as Turnkey documents). After that the
 *   activity still waits, with no votes, and must be approved again (see `liveVotes`).
 */
import { newId, type TKeyVault } from '@latchkey/crypto';
import { AppError, fromZodIssues, toTimestamp, ZActivityRequestSchema, ZVoteIntentSchema, type TActivity, type TActivityStatus, type TVote } from '@latchkey/domain';
import type { Activity, TRepositories, TStore, Vote } from '@latchkey/persistence';
import { wireUsers } from './serialize.js';
import type { TActivityRegistry } from '../registry.js';
import { activityKind } from '@latchkey/policy';
import { announcing, type TRegisteredActivity, type TVoteDefinition } from './activity-definition.js';
import { approversFrom, type TApprover, type TApprovers, type TCandidate, type TPolicyDecision, type TPolicyEvaluator, type TPolicyRequest } from './policy-decision.js';
import { conditionContext } from './policy-context.js';
import type { TPrincipal } from './principal.js';
import { activityToWire } from './serialize.js';
import type { TEngineServices } from './services.js';
import { nextStatus } from './status-machine.js';

type TSelection = TVoteDefinition['vote'];

const WEBAUTHN_TYPE = 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR';
const CREDENTIAL_TYPE_OF_KIND = { 'api-key': '', webauthn: WEBAUTHN_TYPE, attested: 'CREDENTIAL_TYPE_LOGIN', 'read-only-session': '' } as const;

/** The consensus facts of the credential that signed a request (`credentials[]` of the context). */
function credentialOf(c: TPrincipal['credential']): TApprover['credential'] {
  return {
    id: c.kind === 'api-key' ? c.apiKeyId : c.kind === 'webauthn' ? c.authenticatorId : '',
    type: c.kind === 'api-key' ? c.credentialType : CREDENTIAL_TYPE_OF_KIND[c.kind],
    ...(c.kind === 'webauthn' ? { credentialId: c.credentialId } : {}),
    publicKey: c.publicKey,
  };
}

/** An approver's user facts: its row (none for a user deleted since) and its tags. */
function userFactsOf(userId: string, user: { userEmail: string | null; userName: string } | null | undefined, tags: ReadonlyMap<string, string[]>): Omit<TApprover, 'credential'> {
  return { userId, email: user?.userEmail ?? null, name: user?.userName ?? '', tags: tags.get(userId) ?? [] };
}

/**
 * The votes that still count on a waiting activity. They lapse together, `windowMs` after the
 * first: an approval given long ago says nothing about whether the request is still wanted, and a
 * quorum assembled a vote a day must not run a forgotten request. Lapsed votes are marked when the
 * next vote comes (`lapseVotes`, under the activity's lock); until then every reader filters them
 * here, so the window holds whether or not anyone votes again. The unmarked votes always begin in
 * one window: a vote cast after the window marks the earlier ones first.
 */
export function liveVotes<V extends Pick<Vote, 'createdAt'>>(votes: readonly V[], now: Date, windowMs: number): readonly V[] {
  if (votes.length === 0) return votes;
  const first = Math.min(...votes.map((v) => v.createdAt.getTime()));
  return now.getTime() - first >= windowMs ? [] : votes;
}

/** A locked activity's live votes; lapsed ones are marked so that their users may vote again. */
async function liveVotesLocked(tx: TRepositories, organizationId: string, activityId: string, now: Date, windowMs: number): Promise<readonly Vote[]> {
  const recorded = await tx.activities.votes(organizationId, activityId);
  const live = liveVotes(recorded, now, windowMs);
  if (live.length < recorded.length) await tx.activities.lapseVotes(organizationId, activityId, now);
  return live;
}

/** Computes once, on first use. */
function memo<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}

/** The approver a principal is, for the consensus context (`approvers`, `credentials`). */
export async function approverOf(db: TRepositories, principal: TPrincipal): Promise<TApprover> {
  const [user, tags] = await Promise.all([db.users.findById(principal.organizationId, principal.userId), db.users.tagIdsByUser(principal.organizationId, [principal.userId])]);
  return { ...userFactsOf(principal.userId, user, tags), credential: credentialOf(principal.credential) };
}

/** The live credentials of some users, as consensus facts (expired API keys left out: they cannot sign). */
async function credentialsOfUsers(db: TRepositories, organizationId: string, userIds: readonly string[], now: Date): Promise<{ userId: string; credential: TApprover['credential'] }[]> {
  const [keys, passkeys] = await Promise.all([db.credentials.listApiKeysByOrganization(organizationId, userIds), db.credentials.listAuthenticatorsByOrganization(organizationId, userIds)]);
  return [
    ...keys.filter((k) => !k.expiresAt || k.expiresAt > now).map((k) => ({ userId: k.userId, credential: { id: k.id, type: k.credentialType, publicKey: k.publicKey } })),
    ...passkeys.map((a) => ({ userId: a.userId, credential: { id: a.id, type: WEBAUTHN_TYPE, credentialId: a.credentialId, publicKey: a.publicKey } })),
  ];
}

/**
 * The credential a vote was cast with, as it was when cast. Votes from before migration 0011 did
 * not record it: the user's credential with that public key stands in (API key first, then passkey).
 */
function votedCredential(v: Vote, legacy: readonly { userId: string; credential: TApprover['credential'] }[]): TApprover['credential'] {
  if (v.credentialType !== null) {
    return { id: v.credentialId ?? '', type: v.credentialType, ...(v.webauthnCredentialId ? { credentialId: v.webauthnCredentialId } : {}), publicKey: v.publicKey };
  }
  return legacy.find((c) => c.userId === v.userId && c.credential.publicKey === v.publicKey)?.credential ?? { id: '', type: '', publicKey: v.publicKey };
}

/** Approvers from recorded votes (approvals only), each with the credential it approved with. */
async function approversFromVotes(db: TRepositories, organizationId: string, votes: readonly Vote[], now: Date): Promise<TApprover[]> {
  const approvals = votes.filter((v) => v.selection === 'VOTE_SELECTION_APPROVED');
  if (approvals.length === 0) return [];
  const ids = approvals.map((v) => v.userId);
  const unrecorded = approvals.filter((v) => v.credentialType === null).map((v) => v.userId);
  const [users, tags, legacy] = await Promise.all([
    db.users.findByIds(organizationId, ids),
    db.users.tagIdsByUser(organizationId, ids),
    unrecorded.length > 0 ? credentialsOfUsers(db, organizationId, unrecorded, now) : [],
  ]);
  return approvals.map((v) => ({ ...userFactsOf(v.userId, users.find((x) => x.id === v.userId), tags), credential: votedCredential(v, legacy) }));
}


/** The approvals a waiting activity has so far, read lazily. */
function approvedSoFar(db: TRepositories, organizationId: string, votes: readonly Vote[], now: Date): TApprovers {
  const approvals = votes.filter((v) => v.selection === 'VOTE_SELECTION_APPROVED');
  return { userIds: approvals.map((v) => v.userId), details: memo(() => approversFromVotes(db, organizationId, approvals, now)) };
}

/** A user whose approval is being weighed, with the live credentials it could approve with. */
function candidateOf(db: TRepositories, organizationId: string, userId: string, now: Date): TCandidate {
  return {
    userId,
    details: async () => {
      const [user, tags, credentials] = await Promise.all([db.users.findById(organizationId, userId), db.users.tagIdsByUser(organizationId, [userId]), credentialsOfUsers(db, organizationId, [userId], now)]);
      return { approver: userFactsOf(userId, user, tags), credentials: credentials.map((c) => c.credential) };
    },
  };
}

/** What a waiting activity's policy request was (its initiator and stored intent). */
function requestOf(activity: Activity, def: TRegisteredActivity, params: unknown): TPolicyRequest {
  return {
    principal: { organizationId: activity.organizationId, userId: activity.createdByUserId ?? '', credential: { kind: 'attested', publicKey: '', scheme: '', signature: '' } },
    organizationId: activity.organizationId,
    activity: { type: activity.type, kind: activityKind(activity.type), resource: def.resource, action: def.action, params, selfService: def.access?.selfService === true },
  };
}

function intentParams(activity: Activity, registry: TActivityRegistry): unknown {
  const version = registry.versionOfType(activity.type);
  return version ? (activity.intent as Record<string, unknown>)[version.intentKey] : undefined;
}

/** The vote a principal casts by signing a request: its stamp, as received, and the credential that signed it. */
export function voteOf(principal: TPrincipal, organizationId: string, activityId: string, selection: TSelection, message: string, at: Date) {
  const credential = credentialOf(principal.credential);
  return {
    id: newId(),
    organizationId,
    activityId,
    userId: principal.userId,
    selection,
    message,
    publicKey: principal.credential.publicKey,
    signature: principal.credential.signature,
    scheme: principal.credential.scheme,
    credentialId: credential.id,
    credentialType: credential.type,
    webauthnCredentialId: credential.credentialId ?? null,
    createdAt: at,
  };
}

export async function recordEvaluation(tx: TRepositories, organizationId: string, activityId: string, decision: TPolicyDecision, at: Date, voteId?: string): Promise<void> {
  await tx.policies.recordEvaluation({ id: newId(), organizationId, activityId, voteId: voteId ?? null, outcome: decision.outcome, evaluations: decision.evaluations as object[], createdAt: at });
}

export interface TConsensusDeps {
  store: TStore;
  vault: TKeyVault;
  registry: TActivityRegistry;
  policy: TPolicyEvaluator;
  services: TEngineServices;
  timestampWindowMs: number;
  /** How long a waiting activity's votes count, from the first (LATCHKEY_APPROVAL_WINDOW_SECONDS). */
  approvalWindowMs: number;
  now: () => number;
  onCommitted?: (message: string) => void;
}

/**
 * The caller's `canApprove` / `canReject` on an activity. While it waits and the caller has not
 * voted:
 *   canApprove = the caller's approval would count: the caller is a member of the root quorum,
 *     or — no applicable EFFECT_DENY standing in the way — for some applicable EFFECT_ALLOW
 *     policy with a consensus, that consensus evaluated over the approvers so far plus the caller
 *     (with every live credential of the caller) is met, or the caller or one of its credentials
 *     passes one of the consensus' per-approver tests (the predicate of an `approvers.any|all|
 *     filter(…)` or `credentials.…(…)`), or the consensus counts approvers unfiltered
 *     (`policy-decision.ts` `candidateProbe`: one evaluation per applicable allow policy);
 *   canReject = canApprove, or the caller is the initiator (its rejection cancels).
 * Once the caller has voted it can do nothing more, except the initiator, who may still withdraw
 * its approval by rejecting. A finished activity answers false to both. `votes` are the live ones
 * (`liveVotes`): after the window lapsed everyone may approve again.
 */
export async function votingState(deps: Pick<TConsensusDeps, 'store' | 'registry' | 'policy'>, activity: Activity, votes: readonly Vote[], userId: string, now: Date) {
  const none = { canApprove: false, canReject: false };
  if (activity.status !== 'ACTIVITY_STATUS_CONSENSUS_NEEDED') return none;
  const own = votes.find((v) => v.userId === userId);
  if (own) return { canApprove: false, canReject: activity.createdByUserId === userId && own.selection === 'VOTE_SELECTION_APPROVED' };
  const def = deps.registry.byType(activity.type);
  if (!def) return none;
  const db = deps.store;
  const org = activity.organizationId;
  const request = requestOf(activity, def, intentParams(activity, deps.registry));
  const canApprove = await deps.policy.approvalCounts(request, db, approvedSoFar(db, org, votes, now), candidateOf(db, org, userId, now), memo(() => conditionContext(db, request, now, def)));
  return { canApprove, canReject: canApprove || activity.createdByUserId === userId };
}

/**
 * The wire activity with its votes (each with its user), as seen by no particular reader
 * (`canApprove`/`canReject` false): what get_activity shows, and what an ACTIVITY_UPDATES event
 * carries. No votes: no query.
 */
export async function activityWithVotes(db: Pick<TRepositories, 'users' | 'credentials'>, activity: Activity, votes: readonly Vote[]): Promise<TActivity> {
  const wire = activityToWire(activity);
  if (votes.length > 0) {
    const users = await db.users.findByIds(activity.organizationId, [...new Set(votes.map((v) => v.userId))]);
    const wired = await wireUsers(db, activity.organizationId, users);
    wire.votes = votes.map(
      (v): TVote => ({
        id: v.id,
        userId: v.userId,
        user: wired.find((u) => u.userId === v.userId)!,
        activityId: v.activityId,
        selection: v.selection as TVote['selection'],
        message: v.message,
        publicKey: v.publicKey,
        signature: v.signature,
        scheme: v.scheme as TVote['scheme'],
        createdAt: toTimestamp(v.createdAt),
      }),
    ).filter((v) => v.user !== undefined);
  }
  return wire;
}

/**
 * The wire activity with its votes (each with its user) and the caller's voting flags. A waiting
 * activity shows only its live votes: once they lapsed it shows none.
 */
export async function activityForCaller(deps: Pick<TConsensusDeps, 'store' | 'registry' | 'policy' | 'approvalWindowMs'>, activity: Activity, callerUserId: string, now: Date, votes?: readonly Vote[]): Promise<TActivity> {
  const recorded = votes ?? (await deps.store.activities.votes(activity.organizationId, activity.id));
  const list = activity.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED' ? liveVotes(recorded, now, deps.approvalWindowMs) : recorded;
  const wire = await activityWithVotes(deps.store, activity, list);
  Object.assign(wire, await votingState(deps, activity, list, callerUserId, now));
  return wire;
}

/**
 * approve_activity / reject_activity (their envelope checked by the submit path): the signer votes
 * on a waiting activity of its organization, found by fingerprint, locked for the vote. Answers
 * the voted-on activity as it now stands.
 * @throws AppError 400 (not waiting, voted before), 404 (no such activity)
 */
export async function voteOnActivity(
  deps: TConsensusDeps,
  s: { selection: TSelection; principal: TPrincipal; organizationId: string; fingerprint: string; message: string; clientAddress?: string | undefined },
): Promise<TActivity> {
  const { selection, organizationId, fingerprint, message } = s;

  // What the handler announced with notifyChange: after commit this process's caches drop it at
  // once (as submit-activity's `execute` does), so an approved update_root_quorum or deletion
  // holds for the next request here, not only once the change feed comes round.
  const changes: string[] = [];
  const attempt = () =>
    deps.store.transaction(async (tx) => {
      const now = new Date(deps.now());
      const activity = await tx.activities.lockByFingerprint(organizationId, fingerprint);
      if (!activity) throw new AppError('NOT_FOUND', `activity not found for fingerprint ${fingerprint}`, { fingerprint });
      if (activity.status !== 'ACTIVITY_STATUS_CONSENSUS_NEEDED') {
        throw new AppError('BAD_REQUEST', `activity ${activity.id} is not awaiting consensus (status ${activity.status})`, { activityId: activity.id, status: activity.status });
      }
      // Votes older than the approval window no longer count (marked lapsed here).
      const before = await liveVotesLocked(tx, organizationId, activity.id, now, deps.approvalWindowMs);
      const own = before.find((v) => v.userId === s.principal.userId);
      // The initiator approved by submitting; rejecting withdraws that approval (a cancel).
      const withdrawing = own !== undefined && selection === 'VOTE_SELECTION_REJECTED' && own.selection === 'VOTE_SELECTION_APPROVED' && activity.createdByUserId === s.principal.userId;
      if (own && !withdrawing) throw new AppError('BAD_REQUEST', `user ${s.principal.userId} has already voted on activity ${activity.id}`, { activityId: activity.id });
      const def = deps.registry.byType(activity.type);
      if (!def) throw new Error(`no definition for stored activity type ${activity.type}`);
      const cast = voteOf(s.principal, organizationId, activity.id, selection, message, now);
      const vote = withdrawing ? await tx.activities.replaceVote(own.id, cast) : await tx.activities.addVote(cast);
      const votes = [...before.filter((v) => v.id !== own?.id), vote];
      const params = intentParams(activity, deps.registry);
      const request = requestOf(activity, def, params);
      const condition = memo(() => conditionContext(tx, request, now, def));
      const approvers = await approversFromVotes(tx, organizationId, votes, now);
      const decision = await deps.policy.evaluate(request, tx, approversFrom(approvers), condition);
      await recordEvaluation(tx, organizationId, activity.id, decision, now, vote.id);

      let status = activity.status as TActivityStatus;
      let updated = activity;
      if (selection === 'VOTE_SELECTION_REJECTED') {
        // A "no" from someone whose "yes" would count ends the activity; the initiator's cancels it.
        const counts = s.principal.userId === activity.createdByUserId || (await deps.policy.approvalCounts(request, tx, approvedSoFar(tx, organizationId, before, now), candidateOf(tx, organizationId, s.principal.userId, now), condition));
        if (counts) {
          status = nextStatus(status, 'REJECTED');
          updated = await tx.activities.finish(organizationId, activity.id, { status, at: now });
        }
      } else if (decision.outcome === 'OUTCOME_ALLOW') {
        status = nextStatus(status, 'QUORUM_REACHED');
        const version = deps.registry.versionOfType(activity.type)!;
        let result: Record<string, unknown>;
        try {
          result = await def.handle({ tx: announcing(tx, changes), vault: deps.vault, organizationId: activity.organizationId, activityId: activity.id, principal: request.principal, now, services: deps.services, detached: deps.store, clientAddress: s.clientAddress }, params);
        } catch (e) {
          if (e instanceof AppError) throw new HandlerRefused(e);
          throw e;
        }
        updated = await tx.activities.finish(organizationId, activity.id, { status: nextStatus(status, 'EXECUTED'), result: { [version.resultKey]: result } as object, at: now });
      }
      if (updated !== activity) {
        // The event carries the activity as get_activity shows it, the deciding vote included.
        await tx.outbox.append({ organizationId, eventType: 'ACTIVITY_UPDATES', payload: { activity: await activityWithVotes(tx, updated, votes) } as object });
      }
      return { activity: updated, votes };
    });

  let outcome: { activity: Activity; votes: Vote[] };
  try {
    outcome = await attempt();
    for (const m of changes) deps.onCommitted?.(m);
  } catch (refused) {
    if (!(refused instanceof HandlerRefused)) throw refused;
    const e = refused.error;
    // The handler refused after the deciding vote: its effects rolled back; record the vote and a FAILED activity.
    outcome = await deps.store.transaction(async (tx) => {
      const now = new Date(deps.now());
      const activity = await tx.activities.lockByFingerprint(organizationId, fingerprint);
      if (!activity || activity.status !== 'ACTIVITY_STATUS_CONSENSUS_NEEDED') throw new AppError('BAD_REQUEST', 'the activity was decided by another vote meanwhile');
      // The first attempt's marking rolled back with it.
      await liveVotesLocked(tx, organizationId, activity.id, now, deps.approvalWindowMs);
      const vote = await tx.activities.addVote(voteOf(s.principal, organizationId, activity.id, selection, message, now));
      const status = nextStatus(nextStatus('ACTIVITY_STATUS_CONSENSUS_NEEDED', 'QUORUM_REACHED'), 'EXECUTION_FAILED');
      const updated = await tx.activities.finish(organizationId, activity.id, { status, failure: e.toBody() as unknown as object, at: now });
      const votes = [...(await tx.activities.votes(organizationId, activity.id)).filter((v) => v.id !== vote.id), vote];
      await tx.outbox.append({ organizationId, eventType: 'ACTIVITY_UPDATES', payload: { activity: await activityWithVotes(tx, updated, votes) } as object });
      return { activity: updated, votes };
    });
  }
  return activityForCaller(deps, outcome.activity, s.principal.userId, new Date(deps.now()), outcome.votes);
}

/** A handler's refusal, told apart from the vote's own errors (not waiting, voted before…). */
class HandlerRefused extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
  }
}
