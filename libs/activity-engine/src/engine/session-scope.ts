/**
 * The scope of a session profile (issue 16 §4): what a session issued under the profile may
 * submit. Three forms, told apart by their shape, parsed once when the profile is created (a 400
 * naming `scope`) and again, from the stored text, when a request stamped by one of its session
 * keys is authenticated:
 *
 * - `read-only` — no activity at all; queries only.
 * - a list of `RESOURCE:ACTION` pairs, comma-separated (`WALLET:CREATE, PRIVATE_KEY:SIGN`), with
 *   the resource and action names of the policy table (`activity.resource` / `activity.action`);
 *   `RESOURCE:*` allows every action on a resource. Exactly the listed pairs are allowed.
 * - anything else is a condition in the policy language (`activity.resource == 'WALLET'`), as
 *   Turnkey documents profiles: evaluated over the activity's condition context (`activity`,
 *   `wallet`, `eth.tx`, … as a policy condition sees it). `true` allows; `false` or an
 *   evaluation error (a field the activity does not have) refuses — a scope fails closed.
 *
 * Queries (`/public/v1/query/*`) are allowed under every scope: a scope limits what a session may
 * do, not what it may read (its organization's policies never limit reads either). Votes
 * (approve/reject_activity) have no resource in the policy table, so only a condition that allows
 * them by `activity.type` lets a scoped session vote.
 */
import { AppError, fromZodIssues } from '@latchkey/domain';
import type { TRepositories, TSessionProfileRow, TStore } from '@latchkey/persistence';
import { ACTIVITY_POLICY_TABLE, PolicyParseError, activityKind, createConditionContext, evaluatePolicyExpression, parsePolicyExpression } from '@latchkey/policy';
import { isVote, type TSubmittable } from './activity-definition.js';
import { conditionContext } from './policy-context.js';
import type { TPolicyRequest } from './policy-decision.js';
import type { TPrincipal, TSessionProfileRef, TSessionScope } from './principal.js';

export type { TSessionProfileRef, TSessionScope };

/** What a scope is asked about: an activity's type and its policy-table resource and action. */
export interface TScopedActivity {
  type: string;
  resource?: string | undefined;
  action?: string | undefined;
}

const READ_ONLY = 'read-only';
const LIST_SHAPE = /^\s*[A-Za-z_]+\s*:/;
const PAIR = /^([A-Z_]+):([A-Z_]+|\*)$/;

const RESOURCES: ReadonlySet<string> = new Set(Object.values(ACTIVITY_POLICY_TABLE).map((e) => e.resource));
const ACTIONS: ReadonlySet<string> = new Set(Object.values(ACTIVITY_POLICY_TABLE).map((e) => e.action));

const invalid = (why: string) => new AppError('BAD_REQUEST', `scope: ${why}`, { field: 'scope' });

/**
 * Parses a scope.
 * @throws AppError BAD_REQUEST naming `scope`: an unknown resource or action, a malformed pair, a condition that does not parse
 */
export function parseSessionScope(text: string): TSessionScope {
  const scope = text.trim();
  if (scope === READ_ONLY) return { kind: 'read-only' };
  if (LIST_SHAPE.test(scope)) {
    const pairs = scope.split(',').map((raw, i) => {
      const entry = raw.trim();
      const m = PAIR.exec(entry);
      if (!m) throw invalid(`entry ${i} ("${entry.slice(0, 64)}") is not RESOURCE:ACTION (e.g. WALLET:CREATE, or WALLET:* for every action)`);
      const [, resource, action] = m as unknown as [string, string, string];
      if (!RESOURCES.has(resource)) throw invalid(`entry ${i}: unknown resource ${resource}; expected one of ${[...RESOURCES].sort().join(', ')}`);
      if (action !== '*' && !ACTIONS.has(action)) throw invalid(`entry ${i}: unknown action ${action}; expected * or one of ${[...ACTIONS].sort().join(', ')}`);
      return { resource, action };
    });
    return { kind: 'list', pairs };
  }
  try {
    return { kind: 'condition', expr: parsePolicyExpression(scope) };
  } catch (e) {
    if (e instanceof PolicyParseError) {
      throw invalid(`not "read-only", not a RESOURCE:ACTION list, and not a policy condition: ${e.message}`);
    }
    throw e;
  }
}

const refused = (profile: TSessionProfileRef, activity: TScopedActivity, why: string) =>
  new AppError(
    'REQUEST_NOT_AUTHORIZED',
    `request not authorized: this session was issued under session profile "${profile.name}" (${profile.id}), whose scope ${why}; ${activity.type} is outside it`,
    { sessionProfileId: profile.id, activityType: activity.type },
  );

/**
 * Checks that a scoped session may submit an activity. `context` builds the activity's condition
 * context; it is called only for a condition scope.
 * @throws AppError REQUEST_NOT_AUTHORIZED (403) naming the profile
 */
export async function assertWithinSessionScope(profile: TSessionProfileRef, activity: TScopedActivity, context: () => Promise<object>): Promise<void> {
  const scope = profile.scope;
  switch (scope.kind) {
    case 'read-only':
      throw refused(profile, activity, 'is read-only (queries only)');
    case 'list': {
      const ok = scope.pairs.some((p) => p.resource === activity.resource && (p.action === '*' || p.action === activity.action));
      if (!ok) {
        const pair = activity.resource ? `${activity.resource}:${activity.action}` : 'an activity with no policy resource';
        throw refused(profile, activity, `allows ${scope.pairs.map((p) => `${p.resource}:${p.action}`).join(', ')}, not ${pair}`);
      }
      return;
    }
    case 'condition': {
      const result = evaluatePolicyExpression(scope.expr, await context());
      if (result.ok && result.value) return;
      throw refused(profile, activity, result.ok ? 'condition is false for this request' : `condition could not be evaluated for this request (${result.error.message})`);
    }
  }
}

/** Profiles cached by id: they never change, so an entry is good until the process ends (bounded). */
const MAX_CACHED_PROFILES = 10_000;

/**
 * The profile of a session key, for authentication: found in the key's organization or its
 * parent (a sub-organization's login may name its parent's profile), parsed once per process.
 */
export function createSessionProfileCache(store: Pick<TStore, 'sessionProfiles'>) {
  const cached = new Map<string, { organizationId: string; ref: TSessionProfileRef }>();
  return async function sessionProfileOf(organizationIds: readonly string[], id: string): Promise<TSessionProfileRef | undefined> {
    const hit = cached.get(id);
    if (hit && organizationIds.includes(hit.organizationId)) return hit.ref;
    const row = await store.sessionProfiles.findById(organizationIds, id);
    if (!row) return undefined;
    const ref = profileRef(row);
    if (cached.size >= MAX_CACHED_PROFILES) cached.clear();
    cached.set(id, { organizationId: row.organizationId, ref });
    return ref;
  };
}

/** @throws AppError BAD_REQUEST when the stored scope no longer parses (never for one written through create_session_profile) */
export const profileRef = (row: Pick<TSessionProfileRow, 'id' | 'name' | 'scope'>): TSessionProfileRef => ({ id: row.id, name: row.name, scope: parseSessionScope(row.scope) });

/**
 * The scope check of a submission by a session key with a profile: right after the envelope, before
 * the idempotency lookup and anything written. A condition scope sees the activity's condition
 * context, so its parameters are parsed here (the same 400 the submission would give).
 * @throws AppError REQUEST_NOT_AUTHORIZED (403) naming the profile; BAD_REQUEST for parameters a condition cannot be evaluated over
 */
export async function assertSubmissionInScope(
  db: TRepositories,
  profile: TSessionProfileRef,
  def: TSubmittable,
  s: { principal: TPrincipal; type: string; organizationId: string; parameters: unknown; now: Date },
): Promise<void> {
  if (isVote(def)) {
    await assertWithinSessionScope(profile, { type: s.type }, async () => createConditionContext({ type: s.type, params: {}, now: s.now }));
    return;
  }
  await assertWithinSessionScope(profile, { type: s.type, resource: def.resource, action: def.action }, async () => {
    const parsed = def.params.safeParse(s.parameters);
    if (!parsed.success) throw fromZodIssues('parameters', parsed.error.issues);
    const request: TPolicyRequest = {
      principal: s.principal,
      organizationId: s.organizationId,
      activity: { type: s.type, kind: activityKind(s.type), resource: def.resource, action: def.action, params: parsed.data, selfService: def.access?.selfService === true },
    };
    return conditionContext(db, request, s.now, def);
  });
}
