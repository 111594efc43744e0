/**
 * get_mfa_policy / get_mfa_policies: a user's MFA policies as `v1MfaPolicy`, in evaluation order;
 * get_mfa_status: the MFA an activity waits (or waited) for, per policy — its steps and those done
 * (`v1MfaStatus`). An activity no MFA policy applied to has none.
 */
import {
  AppError,
  ZGetMfaPoliciesRequestSchema,
  ZGetMfaPolicyRequestSchema,
  ZGetMfaStatusRequestSchema,
  toTimestamp,
  type TAuthenticationType,
  type TGetMfaPoliciesRequest,
  type TGetMfaPolicyRequest,
  type TGetMfaStatusRequest,
  type TMfaPolicyWire,
  type TMfaStatusWire,
  type TRequiredAuthenticationMethod,
} from '@latchkey/domain';
import type { TMfaPolicyRow, TMfaStepRow } from '@latchkey/persistence';
import type { TQueryDefinition } from './query-definition.js';

const steps = (rows: readonly TMfaStepRow[]): TRequiredAuthenticationMethod[] =>
  rows.map((s) => ({ any: s.any.map((m) => ({ type: m.type as TAuthenticationType, ...(m.id !== undefined ? { id: m.id } : {}) })) }));

function toWire(row: TMfaPolicyRow): TMfaPolicyWire {
  return {
    mfaPolicyId: row.id,
    mfaPolicyName: row.name,
    condition: row.condition,
    requiredAuthenticationMethods: steps(row.requiredMethods),
    order: row.order,
    ...(row.notes !== '' ? { notes: row.notes } : {}),
    createdAt: toTimestamp(row.createdAt),
    updatedAt: toTimestamp(row.updatedAt),
  };
}

export const getMfaPolicy: TQueryDefinition<TGetMfaPolicyRequest, { mfaPolicy: TMfaPolicyWire }> = {
  path: 'get_mfa_policy',
  request: ZGetMfaPolicyRequestSchema,
  async handle(ctx, req) {
    const row = await ctx.store.mfaPolicies.findById(ctx.organization.id, req.userId, req.mfaPolicyId);
    if (!row) throw new AppError('NOT_FOUND', `MFA policy ${req.mfaPolicyId} not found for user ${req.userId}`, { field: 'mfaPolicyId' });
    return { mfaPolicy: toWire(row) };
  },
};

export const getMfaPolicies: TQueryDefinition<TGetMfaPoliciesRequest, { mfaPolicies: TMfaPolicyWire[] }> = {
  path: 'get_mfa_policies',
  request: ZGetMfaPoliciesRequestSchema,
  async handle(ctx, req) {
    return { mfaPolicies: (await ctx.store.mfaPolicies.listByUser(ctx.organization.id, req.userId)).map(toWire) };
  },
};

export const getMfaStatus: TQueryDefinition<TGetMfaStatusRequest, { mfaStatuses: TMfaStatusWire[] }> = {
  path: 'get_mfa_status',
  request: ZGetMfaStatusRequestSchema,
  async handle(ctx, req) {
    const activity = await ctx.store.activities.findById(ctx.organization.id, req.activityId);
    if (!activity) throw new AppError('NOT_FOUND', `activity not found: ${req.activityId}`, { field: 'activityId' });
    const rows = await ctx.store.mfaPolicies.forActivity(ctx.organization.id, activity.id);
    return {
      mfaStatuses: rows
        .filter((r) => req.userId === undefined || r.userId === req.userId)
        .map((r) => ({
          mfaPolicyId: r.mfaPolicyId,
          userId: r.userId,
          satisfied: r.satisfiedMethods.length >= r.requiredMethods.length,
          satisfiedMethods: r.satisfiedMethods.map((m) => ({ type: m.type as TAuthenticationType, id: m.id })),
          requiredMethods: steps(r.requiredMethods),
        })),
    };
  },
};
