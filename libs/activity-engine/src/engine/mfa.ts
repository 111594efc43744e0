/**
 * MFA policies (issue 16 §3): which activities of a user wait in
 * ACTIVITY_STATUS_AUTHENTICATORS_NEEDED, and what counts as the next step of their MFA.
 *
 * - A user's MFA policies are evaluated in `order` (then the older first); the first whose
 *   condition is true for the submitted activity applies, and no other. A condition that cannot be
 *   evaluated for the activity (a field it does not have) applies too: MFA fails closed, as a
 *   scope does — a typo must not switch a user's second factor off.
 * - The condition is in the policy language, over the context a policy condition sees (`activity`,
 *   `wallet`, `eth.tx`, …); it is parsed when the policy is written (a 400 naming `condition`).
 * - Each step of the policy is satisfied by an approve_activity of that user stamped with a
 *   credential of one of the step's methods, and the steps are taken in order. Which credential
 *   is which method: `AUTHENTICATION_TYPES_OF_CREDENTIAL` below.
 * - Votes themselves are never subject to MFA (they are how MFA is given).
 */
import { AppError, type TAuthenticationType } from '@latchkey/domain';
import type { TActivityMfaRow, TMfaPolicyRow, TMfaSatisfiedRow, TMfaStepRow } from '@latchkey/persistence';
import { PolicyParseError, evaluatePolicyExpression, parsePolicyExpression, type TExpr } from '@latchkey/policy';
import type { TPrincipal } from './principal.js';

/**
 * The authentication method each stamping credential is. An OTP session key cannot tell an
 * e-mailed code from a texted one, so it counts as either; session keys of the other logins are
 * AUTHENTICATION_TYPE_SESSION.
 */
const AUTHENTICATION_TYPES_OF_CREDENTIAL: Readonly<Record<string, readonly TAuthenticationType[]>> = {
  CREDENTIAL_TYPE_API_KEY_P256: ['AUTHENTICATION_TYPE_API_KEY'],
  CREDENTIAL_TYPE_API_KEY_SECP256K1: ['AUTHENTICATION_TYPE_API_KEY'],
  CREDENTIAL_TYPE_API_KEY_ED25519: ['AUTHENTICATION_TYPE_API_KEY'],
  CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR: ['AUTHENTICATION_TYPE_PASSKEY'],
  CREDENTIAL_TYPE_OTP_AUTH_KEY_P256: ['AUTHENTICATION_TYPE_EMAIL_OTP', 'AUTHENTICATION_TYPE_SMS_OTP'],
  CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256: ['AUTHENTICATION_TYPE_EMAIL_OTP'],
  CREDENTIAL_TYPE_OAUTH_KEY_P256: ['AUTHENTICATION_TYPE_OAUTH'],
  CREDENTIAL_TYPE_LOGIN: ['AUTHENTICATION_TYPE_SESSION'],
  CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256: ['AUTHENTICATION_TYPE_SESSION'],
};

/** The credential that stamped a request: what it is (its methods) and its id. */
export function stampingMethod(c: TPrincipal['credential']): { types: readonly TAuthenticationType[]; id: string; credentialType: string } {
  if (c.kind === 'webauthn') return { types: ['AUTHENTICATION_TYPE_PASSKEY'], id: c.authenticatorId, credentialType: 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR' };
  if (c.kind === 'api-key') return { types: AUTHENTICATION_TYPES_OF_CREDENTIAL[c.credentialType] ?? [], id: c.apiKeyId, credentialType: c.credentialType };
  return { types: [], id: '', credentialType: c.kind };
}

/**
 * Parses an MFA policy's condition.
 * @throws AppError BAD_REQUEST naming `condition` when it is not a policy-language expression
 */
export function parseMfaCondition(text: string): TExpr {
  try {
    return parsePolicyExpression(text);
  } catch (e) {
    if (e instanceof PolicyParseError) throw new AppError('BAD_REQUEST', `condition: not a policy-language condition: ${e.message}`, { field: 'condition' });
    throw e;
  }
}

/** Parsed conditions by text: a policy's condition is parsed once per process. */
const parsed = new Map<string, TExpr>();
const MAX_PARSED = 10_000;
function conditionOf(text: string): TExpr {
  let expr = parsed.get(text);
  if (!expr) {
    expr = parseMfaCondition(text);
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(text, expr);
  }
  return expr;
}

/**
 * The MFA policy that applies to an activity of `userId`, if any: the first of the user's (in
 * evaluation order) whose condition is true, or cannot be evaluated. `context` builds the
 * activity's condition context; it is called only when the user has a policy.
 */
export async function applicableMfaPolicy(policies: readonly TMfaPolicyRow[], userId: string, context: () => Promise<object>): Promise<TMfaPolicyRow | undefined> {
  const own = policies.filter((p) => p.userId === userId);
  if (own.length === 0) return undefined;
  const ctx = await context();
  for (const p of own) {
    let expr: TExpr;
    try {
      expr = conditionOf(p.condition);
    } catch {
      return p; // a stored condition that no longer parses: fail closed
    }
    const r = evaluatePolicyExpression(expr, ctx);
    if (!r.ok || r.value === true) return p;
  }
  return undefined;
}

const describeStep = (step: TMfaStepRow) => step.any.map((m) => (m.id ? `${m.type} (${m.id})` : m.type)).join(' or ');

/**
 * The steps done after `principal`'s approval of an activity waiting for `mfa`, or a refusal naming
 * the method the next step expects.
 * @throws AppError BAD_REQUEST: not the MFA's user, nothing left to do, or the wrong method for the next step
 */
export function nextMfaSteps(mfa: TActivityMfaRow, principal: TPrincipal, at: Date): TMfaSatisfiedRow[] {
  if (principal.userId !== mfa.userId) {
    throw new AppError('BAD_REQUEST', `activity ${mfa.activityId} waits for the MFA of user ${mfa.userId}; only that user can approve it now`, { activityId: mfa.activityId, userId: mfa.userId });
  }
  const done = mfa.satisfiedMethods;
  const index = done.length;
  const step = mfa.requiredMethods[index];
  if (!step) throw new AppError('BAD_REQUEST', `activity ${mfa.activityId}: every MFA step is already done`, { activityId: mfa.activityId });
  const method = stampingMethod(principal.credential);
  const match = step.any.find((m) => method.types.includes(m.type as TAuthenticationType) && (m.id === undefined || m.id === method.id || m.id === principal.sessionProfile?.id));
  if (!match) {
    throw new AppError(
      'BAD_REQUEST',
      `MFA step ${index + 1} of ${mfa.requiredMethods.length} (MFA policy ${mfa.mfaPolicyId}) expects ${describeStep(step)}; this approval was stamped with ${method.credentialType}${method.types.length > 0 ? ` (${method.types.join(' or ')})` : ''}. Nothing was counted`,
      { field: 'stamp', activityId: mfa.activityId, mfaPolicyId: mfa.mfaPolicyId, step: index + 1, expected: step.any },
    );
  }
  return [...done, { type: match.type, id: method.id, at: at.toISOString() }];
}

/** Whether every step of an activity's MFA is done. */
export const mfaSatisfied = (mfa: Pick<TActivityMfaRow, 'requiredMethods' | 'satisfiedMethods'>): boolean => mfa.satisfiedMethods.length >= mfa.requiredMethods.length;
