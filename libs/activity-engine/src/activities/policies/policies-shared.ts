/**
 * Policies: create_policy (V3), create_policies, update_policy (V2), delete_policy,
 * delete_policies. `condition` and `consensus` are parsed when the policy is written — a parse
 * error is a 400 "invalid policy condition" / "invalid policy consensus" naming the position, so a
 * stored policy never fails to parse at evaluation. Names are unique per organization ("policy
 * label must be unique").
 */
import { newId } from '@latchkey/crypto';
import { AppError, type TCreatePolicyIntent } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityContext } from '../../engine/activity-definition.js';
import { PolicyParseError, parsePolicyExpression } from '@latchkey/policy';

/** @throws AppError 400 "invalid policy condition|consensus: …" naming the position */
export function assertPolicyExpression(kind: 'condition' | 'consensus', source: string | undefined, field: string): void {
  if (source === undefined || source.trim() === '') return;
  try {
    parsePolicyExpression(source);
  } catch (e) {
    if (e instanceof PolicyParseError) throw new AppError('BAD_REQUEST', `invalid policy ${kind}: ${e.message}`, { field, position: e.position });
    throw e;
  }
}

export const nameTaken = (name: string) => new AppError('BAD_REQUEST', `policy label must be unique: ${JSON.stringify(name)} already exists`, { field: 'policyName' });

export async function storePolicy(ctx: TActivityContext, p: TCreatePolicyIntent): Promise<string> {
  const id = newId();
  try {
    await ctx.tx.policies.create({
      id,
      organizationId: ctx.organizationId,
      name: p.policyName,
      effect: p.effect,
      condition: p.condition ?? '',
      consensus: p.consensus ?? '',
      notes: p.notes,
      createdAt: ctx.now,
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(p.policyName);
    throw e;
  }
  return id;
}

export function validatePolicy(p: TCreatePolicyIntent, at = ''): void {
  assertPolicyExpression('condition', p.condition, `${at}condition`);
  assertPolicyExpression('consensus', p.consensus, `${at}consensus`);
}

export async function deleteExisting(ctx: TActivityContext, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids)];
  const deleted = await ctx.tx.policies.delete(ctx.organizationId, wanted);
  const missing = wanted.filter((id) => !deleted.includes(id));
  if (missing.length) throw new AppError('NOT_FOUND', `policies not found: ${missing.join(', ')}`, { policyIds: missing });
  return wanted;
}
