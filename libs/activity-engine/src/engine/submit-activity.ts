/**
 * Submitting an activity: envelope → type check → liveness → organization → idempotency (the
 * fingerprint) → parameters → policy → handler. The activity row, the handler's effects and the
 * outbox event are written in one transaction, so a crash never leaves half an activity. A
 * handler's AppError gives a FAILED activity (HTTP 200), not an HTTP error.
 */
import { activityFingerprint, idTimestamp, newId, type TKeyVault } from '@latchkey/crypto';
import { AppError, fromZodIssues, ZActivityRequestSchema, type TActivity, type TActivityStatus } from '@latchkey/domain';
import { isUniqueViolation, type Activity, type Organization, type TNewActivity, type TRepositories, type TStore, type Vote } from '@latchkey/persistence';
import { activityKind } from '@latchkey/policy';
import { announcing, isVote, type TActivityContext, type TActivityVersion, type TRegisteredActivity, type TSubmittable } from './activity-definition.js';
import { liveVotes, voteOnActivity } from './consensus.js';
import { activityWithVotes, approverOf, recordEvaluation, voteOf } from './consensus.js';
import { conditionContext } from './policy-context.js';
import type { TPolicyDecision, TPolicyEvaluator, TPolicyRequest } from './policy-decision.js';
import type { TPrincipal } from './principal.js';
import { activityToWire } from './serialize.js';
import type { TEngineServices } from './services.js';
import type { TAuthCache } from './auth-cache.js';
import { nextStatus } from './status-machine.js';
import type { TActivityRegistry } from '../registry.js';
import { spendAttestation } from './attestation.js';
import { assertSubmissionInScope } from './session-scope.js';
import { applicableMfaPolicy } from './mfa.js';
import { mfaVoteOnActivity } from './mfa-approval.js';

export interface TSubmitDeps {
  store: TStore;
  vault: TKeyVault;
  registry: TActivityRegistry;
  policy: TPolicyEvaluator;
  timestampWindowMs: number;
  /** How long a waiting activity's votes count, from the first (LATCHKEY_APPROVAL_WINDOW_SECONDS). */
  approvalWindowMs: number;
  now: () => number;
  services: TEngineServices;
  /**
   * Told, after commit, of every change a handler announced with `notifyChange`: this process's
   * caches drop the stale entries at once (other processes hear the change feed a moment later).
   */
  onCommitted?: (message: string) => void;
  /** Cached reads of the organization, its root quorum and signing keys (invalidated by the change feed). */
  cache?: Pick<TAuthCache, 'organization' | 'rootQuorumMembers' | 'signer' | 'mfaPolicies'>;
}

export interface TSubmission {
  path: string;
  principal: TPrincipal;
  organization: Organization;
  /** The sub-organization a login aimed at the parent resolved to (see authenticate.ts). */
  loginOrganization?: Organization | undefined;
  body: Record<string, unknown>;
  raw: Buffer;
  /** The request's client address (IP allowlists: set_ip_allowlist's self-lockout check). */
  clientAddress?: string | undefined;
}

const RECOVERY_KEY_TYPE = 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256';
/** A recovery key (init_user_email_recovery) may only add a passkey to its user: recover_user. */
export const isRecoveryKey = (p: TPrincipal) => p.credential.kind === 'api-key' && p.credential.credentialType === RECOVERY_KEY_TYPE;
export const recoveryKeyRefused = () => new AppError('REQUEST_NOT_AUTHORIZED', 'request not authorized: a recovery credential can only submit recover_user');

/**
 * The organization the activity runs in. Normally the signer's own; a parent's credential may run
 * the login activities of its sub-organizations (`parentMayAct`), and a sub-organization's
 * credential may log in through the parent (`loginViaParent`). Writes elsewhere are refused.
 * @throws AppError ORGANIZATION_MISMATCH
 */
function actingOrganization(def: TSubmittable, s: TSubmission, requested: string): string {
  const mismatch = (signerOrg: string) =>
    new AppError(
      'ORGANIZATION_MISMATCH',
      `organization mismatch: request is targeting organization ${requested}, but the signer is in organization ${signerOrg}`,
    );
  const access = isVote(def) ? undefined : def.access;
  if (s.loginOrganization) {
    if (!access?.loginViaParent) throw mismatch(s.principal.organizationId);
    return s.loginOrganization.id;
  }
  if (s.principal.organizationId === requested) return requested;
  if (access?.parentMayAct && s.organization.parentOrganizationId === s.principal.organizationId) return requested;
  throw mismatch(s.principal.organizationId);
}

/** The outbox event every activity emits (webhook deliveries are built from it). */
export const ACTIVITY_EVENT_TYPE = 'ACTIVITY_UPDATES';

/**
 * @throws AppError 400 (bad envelope, type, parameters, stale timestamp, organization mismatch),
 *   403 (denied by policy), 404 (unknown path)
 */
export async function submitActivity(deps: TSubmitDeps, s: TSubmission): Promise<TActivity> {
  const def = deps.registry.byPath(s.path);
  if (!def) throw new AppError('NOT_FOUND', `unknown activity endpoint: /public/v1/submit/${s.path}`);

  if (isRecoveryKey(s.principal) && def.path !== 'recover_user') throw recoveryKeyRefused();
  if (s.principal.credential.kind === 'attested' && (isVote(def) || !def.access?.attested)) {
    throw new AppError('REQUEST_NOT_AUTHORIZED', 'request not authorized: an attested stamp can only submit stamp_login');
  }

  const env = ZActivityRequestSchema.safeParse(s.body);
  if (!env.success) throw fromZodIssues('activity request', env.error.issues);
  const { type, timestampMs, organizationId: requestedOrganizationId, parameters } = env.data;

  const version = deps.registry.version(def, type);
  if (!version) {
    throw new AppError('UNKNOWN_ACTIVITY_TYPE', `type ${type} is not accepted on ${s.path}; expected one of ${def.versions.map((v) => v.type).join(', ')}`, {
      field: 'type',
      allowed: def.versions.map((v) => v.type),
    });
  }

  const skew = Number(timestampMs) - deps.now();
  if (!Number.isSafeInteger(Number(timestampMs)) || Math.abs(skew) > deps.timestampWindowMs) {
    throw new AppError(
      'TIMESTAMP_OUT_OF_WINDOW',
      `timestampMs is ${Math.round(Math.abs(skew) / 1000)} s in the ${skew < 0 ? 'past' : 'future'}; requests must be within ${deps.timestampWindowMs / 1000} s of the server's clock`,
      { field: 'timestampMs' },
    );
  }

  // A parent organization may read its sub-organizations but acts in them only for logins.
  const organizationId = actingOrganization(def, s, requestedOrganizationId);
  // A session issued under a session profile submits only what its scope allows (session-scope.ts).
  if (s.principal.sessionProfile) {
    await assertSubmissionInScope(deps.store, s.principal.sessionProfile, def, { principal: s.principal, type, organizationId, parameters, now: new Date(deps.now()) });
  }

  if (isVote(def)) {
    const vote = def.params.safeParse(parameters);
    if (!vote.success) throw fromZodIssues('parameters', vote.error.issues);
    const cast = { selection: def.vote, principal: s.principal, organizationId, fingerprint: vote.data.fingerprint, message: s.raw.toString('utf8'), clientAddress: s.clientAddress };
    // An activity waiting for its initiator's authenticators takes MFA steps, not consensus votes (mfa-approval.ts).
    const target = await deps.store.activities.findByFingerprint(organizationId, vote.data.fingerprint);
    if (target?.status === 'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED') return mfaVoteOnActivity(deps, cast);
    return voteOnActivity(deps, cast);
  }

  const fingerprint = activityFingerprint(s.raw);
  // The idempotency lookup. A read-only or staged activity skips it: its handler writes nothing
  // itself, so a repeat runs harmlessly and finds the original when its insert conflicts (one
  // round trip fewer on the signing and create_wallet paths); only a refusal or a wait looks
  // first, below, so a repeat is never refused where the original went through.
  const existingActivity = async () => {
    const existing = await deps.store.activities.findByFingerprint(organizationId, fingerprint);
    return existing ? activityToWire(existing) : undefined;
  };
  const looksUpFirst = !def.readOnly && !def.stage;
  if (looksUpFirst) {
    const existing = await deps.store.activities.findByFingerprint(organizationId, fingerprint);
    if (existing) return resubmission(deps, existing, s, organizationId);
  }

  const parsed = def.params.safeParse(parameters);
  if (!parsed.success) throw fromZodIssues('parameters', parsed.error.issues);
  const params = parsed.data;
  def.validate?.(params);
  await def.precheck?.(params, deps.services);

  const activityId = newId();
  const request: TPolicyRequest = {
    principal: s.principal,
    organizationId,
    activity: { type, kind: activityKind(type), resource: def.resource, action: def.action, params, selfService: def.access?.selfService === true },
  };
  const now = new Date(deps.now());
  const cache = deps.cache;
  // The policy's first reads (organization, root quorum) come from the cache when warm.
  const reads: TRepositories = cache
    ? { ...deps.store, organizations: { ...deps.store.organizations, findById: (id) => cache.organization(id), rootQuorumMembers: (id) => cache.rootQuorumMembers(id) } }
    : deps.store;
  const decision = await deps.policy.evaluate(
    request,
    reads,
    { userIds: [s.principal.userId], details: async () => [await approverOf(deps.store, s.principal)] },
    (needs) => conditionContext(deps.store, request, now, def, needs),
  );
  const pending: TPending = { activityId, organizationId, type, version, params, fingerprint, principal: s.principal, status: 'ACTIVITY_STATUS_CREATED', decision, message: s.raw.toString('utf8'), clientAddress: s.clientAddress };

  // MFA policies (mfa.ts): an activity the policies would let through (now or after consensus)
  // first waits for its initiator's authenticators when one of the initiator's MFA policies
  // applies. The organization's list comes from the cache: without MFA policies, a map lookup.
  if (decision.outcome === 'OUTCOME_ALLOW' || decision.outcome === 'OUTCOME_REQUIRES_CONSENSUS') {
    const mfaPolicies = cache ? await cache.mfaPolicies(organizationId) : await deps.store.mfaPolicies.listByOrganization(organizationId);
    const mfa = mfaPolicies.length > 0 ? await applicableMfaPolicy(mfaPolicies, s.principal.userId, () => conditionContext(deps.store, request, now, def)) : undefined;
    if (mfa) {
      return record(deps, { ...pending, status: nextStatus(pending.status, 'AUTHENTICATORS_REQUIRED'), result: {} }, undefined, async (tx) => {
        await spendAttestation(tx, s.principal, organizationId);
        await tx.mfaPolicies.requireForActivity({ organizationId, activityId, mfaPolicyId: mfa.id, userId: mfa.userId, requiredMethods: mfa.requiredMethods }, now);
        if (decision.evaluations.length > 0) await recordEvaluation(tx, organizationId, activityId, decision, now);
      });
    }
  }

  switch (decision.outcome) {
    case 'OUTCOME_DENY_EXPLICIT':
    case 'OUTCOME_DENY_IMPLICIT': {
      const existing = looksUpFirst ? undefined : await existingActivity();
      if (existing) return existing;
      // Beyond Turnkey, the refusal names the policies that decided it.
      throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: ${decision.outcome}: ${decision.reason}`, { outcome: decision.outcome, policyIds: decision.decidingPolicyIds });
    }
    case 'OUTCOME_REQUIRES_CONSENSUS': {
      // A kind that skipped the idempotency lookup: a repeat of a waiting one may be a re-approval.
      const waiting = looksUpFirst ? null : await deps.store.activities.findByFingerprint(organizationId, fingerprint);
      if (waiting) return resubmission(deps, waiting, s, organizationId);
      // Nothing runs yet: the activity waits, with the initiator's submission as its first approval
      // (made first, so the CONSENSUS_NEEDED event can carry it as get_activity will show it).
      const approval = voteOf(s.principal, organizationId, activityId, 'VOTE_SELECTION_APPROVED', pending.message, now);
      return record(
        deps,
        { ...pending, status: nextStatus(pending.status, 'CONSENSUS_REQUIRED'), result: {} },
        undefined,
        async (tx) => {
          await spendAttestation(tx, s.principal, organizationId);
          const vote = await tx.activities.addVote(approval);
          await recordEvaluation(tx, organizationId, activityId, decision, now, vote.id);
        },
        [approval as Vote],
      );
    }
    case 'OUTCOME_ALLOW':
      return execute(deps, def, { ...pending, status: nextStatus(pending.status, 'POLICY_ALLOWED') });
  }
}

/**
 * An identical body again answers the activity it made. One case does more: the initiator
 * re-submitting a waiting activity whose approvals lapsed (LATCHKEY_APPROVAL_WINDOW_SECONDS) —
 * the re-submission is the initiator's approval again, a vote like approve_activity's, which may
 * complete the consensus with the approvals given since the lapse.
 */
async function resubmission(deps: TSubmitDeps, existing: Activity, s: TSubmission, organizationId: string): Promise<TActivity> {
  if (existing.status !== 'ACTIVITY_STATUS_CONSENSUS_NEEDED' || existing.createdByUserId !== s.principal.userId) return activityToWire(existing);
  const live = liveVotes(await deps.store.activities.votes(organizationId, existing.id), new Date(deps.now()), deps.approvalWindowMs);
  if (live.some((v) => v.userId === s.principal.userId)) return activityToWire(existing);
  try {
    return await voteOnActivity(deps, { selection: 'VOTE_SELECTION_APPROVED', principal: s.principal, organizationId, fingerprint: existing.fingerprint, message: s.raw.toString('utf8'), clientAddress: s.clientAddress });
  } catch (e) {
    // An identical re-submission racing this one voted first, or a vote decided the activity
    // meanwhile: either way the repeat answers the activity as it now stands.
    if (!(e instanceof AppError) || e.code !== 'BAD_REQUEST') throw e;
    const now = await deps.store.activities.findById(organizationId, existing.id);
    return activityToWire(now ?? existing);
  }
}

interface TPending {
  activityId: string;
  organizationId: string;
  type: string;
  version: TActivityVersion;
  params: unknown;
  fingerprint: string;
  principal: TPrincipal;
  status: TActivityStatus;
  decision: TPolicyDecision;
  /** The signed request body: the initiator's vote records it. */
  message: string;
  clientAddress: string | undefined;
}

/** An identical submission committed first: this one's transaction is rolled back. */
class DuplicateSubmission extends Error {}

/**
 * Writes an activity row plus its outbox event and its policy evaluation (and, via `after`, what
 * else belongs to it: the initiator's vote); a racing identical submission wins gracefully.
 */
async function record(
  deps: TSubmitDeps,
  p: TPending & { result: Record<string, unknown>; failure?: Record<string, unknown> },
  effects?: (tx: TRepositories) => Promise<Record<string, unknown>>,
  after?: (tx: TRepositories) => Promise<void>,
  /** The votes `after` records, for the outbox event (which shows the activity as get_activity will). */
  eventVotes?: readonly Vote[],
): Promise<TActivity> {
  try {
    return await deps.store.transaction(async (tx) => {
      const result = effects ? { [p.version.resultKey]: await effects(tx) } : p.result;
      const row = activityRow({ ...p, result });
      const wire = activityToWire({ ...row, updatedAt: row.createdAt } as Activity);
      const event = eventVotes ? await activityWithVotes(tx, { ...row, updatedAt: row.createdAt } as Activity, eventVotes) : wire;
      // The activity and its outbox event in one statement; a fingerprint conflict rolls back the effects.
      if (!(await tx.activities.insertWithEvent(row, { eventType: ACTIVITY_EVENT_TYPE, payload: { activity: event } as object }))) throw new DuplicateSubmission();
      if (after) await after(tx);
      // Allowed by the root quorum or implicitly, with no policy evaluated: nothing to record.
      else if (p.decision.evaluations.length > 0) await recordEvaluation(tx, p.organizationId, p.activityId, p.decision, row.createdAt);
      return wire;
    });
  } catch (e) {
    if (e instanceof DuplicateSubmission || isUniqueViolation(e)) {
      const winner = await deps.store.activities.findByFingerprint(p.organizationId, p.fingerprint);
      if (winner) return activityToWire(winner);
    }
    throw e;
  }
}

/**
 * A read-only handler (signing): it runs on the store outside any transaction, then the activity
 * and its outbox event go in with one statement. With a policy evaluation to record as well, the
 * write falls back to `record`'s transaction (the handler's work is not repeated).
 */
async function executeReadOnly(deps: TSubmitDeps, def: TRegisteredActivity, p: TPending): Promise<TActivity> {
  let result: Record<string, unknown>;
  try {
    result = { [p.version.resultKey]: await def.handle({ ...outsideTransaction(deps, p), ...(deps.cache ? { signers: deps.cache } : {}) }, p.params) };
  } catch (e) {
    if (!(e instanceof AppError) || def.onFailure === 'reject') throw e;
    return record(deps, { ...p, status: nextStatus(p.status, 'EXECUTION_FAILED'), result: {}, failure: e.toBody() as unknown as Record<string, unknown> });
  }
  const completed = { ...p, status: nextStatus(p.status, 'EXECUTED'), result };
  if (p.decision.evaluations.length > 0) return record(deps, completed);
  const row = activityRow(completed);
  const wire = activityToWire({ ...row, failure: null, updatedAt: row.createdAt } as Activity);
  if (await deps.store.activities.insertWithEvent(row, { eventType: ACTIVITY_EVENT_TYPE, payload: { activity: wire } as object })) return wire;
  return original(deps, p);
}

/** The context of a handler that runs on the store outside any transaction (read-only or staged). */
function outsideTransaction(deps: TSubmitDeps, p: TPending): TActivityContext {
  return { tx: deps.store, vault: deps.vault, organizationId: p.organizationId, activityId: p.activityId, principal: p.principal, now: new Date(deps.now()), services: deps.services, detached: deps.store, clientAddress: p.clientAddress };
}

/** An identical submission inserted its activity first (this one's statement wrote nothing): that activity is the answer. */
async function original(deps: TSubmitDeps, p: TPending): Promise<TActivity> {
  const winner = await deps.store.activities.findByFingerprint(p.organizationId, p.fingerprint);
  if (!winner) throw new Error(`activity ${p.activityId}: neither inserted nor found by its fingerprint`);
  return activityToWire(winner);
}

/**
 * A staged handler (create_wallet): `stage` computes the result and the new rows outside any
 * transaction, then the activity, its outbox event, its audit link and those rows go in with one
 * statement (`insertWithEvent`), or — an identical submission got there first — nothing does and
 * the original answers. A unique violation of the staged rows is the handler's refusal
 * (`stagedConflict`), recorded FAILED by `record`. With a policy evaluation to record, the whole
 * activity runs `handle` in `record`'s transaction instead.
 */
async function executeStaged(deps: TSubmitDeps, def: TRegisteredActivity, stage: NonNullable<TRegisteredActivity['stage']>, p: TPending): Promise<TActivity> {
  const failed = (e: AppError) => record(deps, { ...p, status: nextStatus(p.status, 'EXECUTION_FAILED'), result: {}, failure: e.toBody() as unknown as Record<string, unknown> });
  if (p.decision.evaluations.length > 0) return executeInTransaction(deps, def, p);
  let staged: Awaited<ReturnType<typeof stage>>;
  try {
    staged = await stage(outsideTransaction(deps, p), p.params);
  } catch (e) {
    if (!(e instanceof AppError) || def.onFailure === 'reject') throw e;
    return failed(e);
  }
  const row = activityRow({ ...p, status: nextStatus(p.status, 'EXECUTED'), result: { [p.version.resultKey]: staged.result } });
  const wire = activityToWire({ ...row, failure: null, updatedAt: row.createdAt } as Activity);
  try {
    if (await deps.store.activities.insertWithEvent(row, { eventType: ACTIVITY_EVENT_TYPE, payload: { activity: wire } as object }, staged.rows)) return wire;
  } catch (e) {
    // The fingerprint conflicts quietly (ON CONFLICT DO NOTHING): a unique violation is a staged row's.
    if (isUniqueViolation(e) && def.stagedConflict) return failed(def.stagedConflict(p.params));
    throw e;
  }
  return original(deps, p);
}

/** The row `record` and `executeReadOnly` write for a pending activity. */
function activityRow(p: TPending & { result: Record<string, unknown>; failure?: Record<string, unknown> }): TNewActivity {
  return {
    id: p.activityId,
    organizationId: p.organizationId,
    type: p.type,
    status: p.status,
    intent: { [p.version.intentKey]: p.params } as object,
    result: p.result as object,
    failure: (p.failure as object | undefined) ?? null,
    fingerprint: p.fingerprint,
    createdByUserId: p.principal.userId,
    // From the id's own clock reading: listing by id and by createdAt then always agree.
    createdAt: idTimestamp(p.activityId),
  };
}

async function execute(deps: TSubmitDeps, def: TRegisteredActivity, p: TPending): Promise<TActivity> {
  if (def.readOnly) return executeReadOnly(deps, def, p);
  if (def.stage) return executeStaged(deps, def, def.stage, p);
  return executeInTransaction(deps, def, p);
}

/** The handler and everything it writes, with the activity, in one transaction (`record`). */
async function executeInTransaction(deps: TSubmitDeps, def: TRegisteredActivity, p: TPending): Promise<TActivity> {
  const completed = nextStatus(p.status, 'EXECUTED');
  const changes: string[] = [];
  try {
    const activity = await record(deps, { ...p, status: completed, result: {} }, (tx) =>
      def.handle(
        { tx: announcing(tx, changes), vault: deps.vault, organizationId: p.organizationId, activityId: p.activityId, principal: p.principal, now: new Date(deps.now()), services: deps.services, detached: deps.store, clientAddress: p.clientAddress },
        p.params,
      ),
    );
    for (const m of changes) deps.onCommitted?.(m);
    return activity;
  } catch (e) {
    if (!(e instanceof AppError) || def.onFailure === 'reject') throw e;
    // The handler refused: its effects rolled back; the activity is recorded as FAILED.
    return record(deps, { ...p, status: nextStatus(p.status, 'EXECUTION_FAILED'), result: {}, failure: e.toBody() as unknown as Record<string, unknown> });
  }
}
