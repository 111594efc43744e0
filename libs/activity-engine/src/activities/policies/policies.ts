/**
 * Policies: create_policy (V3), create_policies, update_policy (V2), delete_policy,
 * delete_policies. `condition` and `consensus` are parsed when the policy is written — a parse
 * error is a 400 "invalid policy condition" / "invalid policy consensus" naming the position, so
 * a stored policy never fails to parse at evaluation. Names are unique per organization ("policy
 * label must be unique"). Policy: POLICY / CREATE, UPDATE, DELETE.
 */
import { newId } from '@latchkey/crypto';
import {
  AppError,
  ZCreatePoliciesIntentSchema,
  ZCreatePolicyIntentSchema,
  ZDeletePoliciesIntentSchema,
  ZDeletePolicyIntentSchema,
  ZUpdatePolicyIntentSchema,
  type TCreatePoliciesIntent,
  type TCreatePolicyIntent,
  type TDeletePoliciesIntent,
  type TDeletePolicyIntent,
  type TUpdatePolicyIntent,
} from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';
import { PolicyParseError, parsePolicyExpression } from '../../policy/index.js';

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

const nameTaken = (name: string) => new AppError('BAD_REQUEST', `policy label must be unique: ${JSON.stringify(name)} already exists`, { field: 'policyName' });

async function storePolicy(ctx: TActivityContext, p: TCreatePolicyIntent): Promise<string> {
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

function validatePolicy(p: TCreatePolicyIntent, at = ''): void {
  assertPolicyExpression('condition', p.condition, `${at}condition`);
  assertPolicyExpression('consensus', p.consensus, `${at}consensus`);
}

export const createPolicy: TActivityDefinition<TCreatePolicyIntent, { policyId: string }> = {
  path: 'create_policy',
  versions: [{ type: 'ACTIVITY_TYPE_CREATE_POLICY_V3', intentKey: 'createPolicyIntentV3', resultKey: 'createPolicyResult' }],
  resource: 'POLICY',
  action: 'CREATE',
  onFailure: 'reject',
  params: ZCreatePolicyIntentSchema,
  validate: (p) => validatePolicy(p),
  async handle(ctx, p) {
    return { policyId: await storePolicy(ctx, p) };
  },
};

export const createPolicies: TActivityDefinition<TCreatePoliciesIntent, { policyIds: string[] }> = {
  path: 'create_policies',
  versions: [{ type: 'ACTIVITY_TYPE_CREATE_POLICIES', intentKey: 'createPoliciesIntent', resultKey: 'createPoliciesResult' }],
  resource: 'POLICY',
  action: 'CREATE',
  onFailure: 'reject',
  params: ZCreatePoliciesIntentSchema,
  validate(p) {
    const names = new Set<string>();
    p.policies.forEach((policy, i) => {
      validatePolicy(policy, `policies.${i}.`);
      if (names.has(policy.policyName)) throw nameTaken(policy.policyName);
      names.add(policy.policyName);
    });
  },
  async handle(ctx, p) {
    const policyIds: string[] = [];
    for (const policy of p.policies) policyIds.push(await storePolicy(ctx, policy));
    return { policyIds };
  },
};

export const updatePolicy: TActivityDefinition<TUpdatePolicyIntent, { policyId: string }> = {
  path: 'update_policy',
  versions: [{ type: 'ACTIVITY_TYPE_UPDATE_POLICY_V2', intentKey: 'updatePolicyIntentV2', resultKey: 'updatePolicyResultV2' }],
  resource: 'POLICY',
  action: 'UPDATE',
  onFailure: 'reject',
  params: ZUpdatePolicyIntentSchema,
  validate(p) {
    assertPolicyExpression('condition', p.policyCondition, 'policyCondition');
    assertPolicyExpression('consensus', p.policyConsensus, 'policyConsensus');
  },
  async handle(ctx, p) {
    const changes = {
      ...(p.policyName !== undefined ? { name: p.policyName } : {}),
      ...(p.policyEffect !== undefined ? { effect: p.policyEffect } : {}),
      ...(p.policyCondition !== undefined ? { condition: p.policyCondition } : {}),
      ...(p.policyConsensus !== undefined ? { consensus: p.policyConsensus } : {}),
      ...(p.policyNotes !== undefined ? { notes: p.policyNotes } : {}),
    };
    let found: boolean;
    try {
      found = await ctx.tx.policies.update(ctx.organizationId, p.policyId, changes, ctx.now);
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(p.policyName ?? '');
      throw e;
    }
    if (!found) throw new AppError('NOT_FOUND', `policy not found: ${p.policyId}`, { policyId: p.policyId });
    return { policyId: p.policyId };
  },
};

async function deleteExisting(ctx: TActivityContext, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids)];
  const deleted = await ctx.tx.policies.delete(ctx.organizationId, wanted);
  const missing = wanted.filter((id) => !deleted.includes(id));
  if (missing.length) throw new AppError('NOT_FOUND', `policies not found: ${missing.join(', ')}`, { policyIds: missing });
  return wanted;
}

export const deletePolicy: TActivityDefinition<TDeletePolicyIntent, { policyId: string }> = {
  path: 'delete_policy',
  versions: [{ type: 'ACTIVITY_TYPE_DELETE_POLICY', intentKey: 'deletePolicyIntent', resultKey: 'deletePolicyResult' }],
  resource: 'POLICY',
  action: 'DELETE',
  onFailure: 'reject',
  params: ZDeletePolicyIntentSchema,
  async handle(ctx, p) {
    await deleteExisting(ctx, [p.policyId]);
    return { policyId: p.policyId };
  },
};

export const deletePolicies: TActivityDefinition<TDeletePoliciesIntent, { policyIds: string[] }> = {
  path: 'delete_policies',
  versions: [{ type: 'ACTIVITY_TYPE_DELETE_POLICIES', intentKey: 'deletePoliciesIntent', resultKey: 'deletePoliciesResult' }],
  resource: 'POLICY',
  action: 'DELETE',
  onFailure: 'reject',
  params: ZDeletePoliciesIntentSchema,
  async handle(ctx, p) {
    return { policyIds: await deleteExisting(ctx, p.policyIds) };
  },
};
