/**
 * Wire schemas of policies and approvals: create_policy (V3), create_policies, update_policy (V2),
 * delete_policy, delete_policies, update_root_quorum, approve_activity / reject_activity, and the
 * queries get_policy, list_policies and get_policy_evaluations. Expressions are parsed by the
 * engine (the language lives in @latchkey/activity-engine's policy/), not here.
 */
import { z } from 'zod';
import { ZIdentifierSchema } from '../common.js';
import { ZEffectSchema } from '../enums.js';
import { defineActivityWire } from '../activity.js';

const name = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const expression = z.string().max(4096, 'must be at most 4096 characters');
const ids = (what: string) => z.array(ZIdentifierSchema).min(1, `must list at least one ${what}`).max(100, `must list at most 100 ${what}s`);

export const POLICY_OUTCOMES = [
  'OUTCOME_ALLOW',
  'OUTCOME_DENY_EXPLICIT',
  'OUTCOME_DENY_IMPLICIT',
  'OUTCOME_REQUIRES_CONSENSUS',
  'OUTCOME_REJECTED',
  'OUTCOME_ERROR',
  'OUTCOME_REQUIRES_AUTHENTICATORS',
  'OUTCOME_TIME_INACTIVE',
] as const;
export type TPolicyOutcomeName = (typeof POLICY_OUTCOMES)[number];

export const ZCreatePolicyIntentSchema = z.object({
  policyName: name,
  effect: ZEffectSchema,
  condition: expression.optional(),
  consensus: expression.optional(),
  notes: z.string().max(4096, 'must be at most 4096 characters').default(''),
});
export type TCreatePolicyIntent = z.output<typeof ZCreatePolicyIntentSchema>;

export const ZCreatePoliciesIntentSchema = z.object({ policies: z.array(ZCreatePolicyIntentSchema).min(1, 'must hold at least one policy').max(100, 'must hold at most 100 policies') });
export type TCreatePoliciesIntent = z.output<typeof ZCreatePoliciesIntentSchema>;

export const ZUpdatePolicyIntentSchema = z.object({
  policyId: ZIdentifierSchema,
  policyName: name.optional(),
  policyEffect: ZEffectSchema.optional(),
  policyCondition: expression.optional(),
  policyConsensus: expression.optional(),
  policyNotes: z.string().max(4096).optional(),
});
export type TUpdatePolicyIntent = z.output<typeof ZUpdatePolicyIntentSchema>;

export const ZDeletePolicyIntentSchema = z.object({ policyId: ZIdentifierSchema });
export type TDeletePolicyIntent = z.output<typeof ZDeletePolicyIntentSchema>;
export const ZDeletePoliciesIntentSchema = z.object({ policyIds: ids('policy id') });
export type TDeletePoliciesIntent = z.output<typeof ZDeletePoliciesIntentSchema>;

export const ZUpdateRootQuorumIntentSchema = z.object({
  threshold: z.number().int('must be an integer').min(1, 'must be at least 1'),
  userIds: ids('user id'),
});
export type TUpdateRootQuorumIntent = z.output<typeof ZUpdateRootQuorumIntentSchema>;

export const ZVoteIntentSchema = z.object({ fingerprint: z.string().min(1, 'must not be empty').max(128) });
export type TVoteIntent = z.output<typeof ZVoteIntentSchema>;

export const ZGetPolicyRequestSchema = z.object({ organizationId: ZIdentifierSchema, policyId: ZIdentifierSchema });
export const ZListPoliciesRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export const ZGetPolicyEvaluationsRequestSchema = z.object({ organizationId: ZIdentifierSchema, activityId: ZIdentifierSchema });

/** One policy's outcome in an evaluation, with Latchkey's extra `error` for evaluation errors. */
export interface TPolicyOutcomeRecord {
  policyId: string;
  outcome: TPolicyOutcomeName;
  error?: string;
}

/** Wire names of `update_root_quorum`: every accepted `type`, with its intent and result keys. */
export const UPDATE_ROOT_QUORUM_ACTIVITY = defineActivityWire('update_root_quorum', [{ type: 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', intentKey: 'updateRootQuorumIntent', resultKey: 'updateRootQuorumResult' }]);

/** Wire names of `create_policies`: every accepted `type`, with its intent and result keys. */
export const CREATE_POLICIES_ACTIVITY = defineActivityWire('create_policies', [{ type: 'ACTIVITY_TYPE_CREATE_POLICIES', intentKey: 'createPoliciesIntent', resultKey: 'createPoliciesResult' }]);

/** Wire names of `create_policy`: every accepted `type`, with its intent and result keys. */
export const CREATE_POLICY_ACTIVITY = defineActivityWire('create_policy', [{ type: 'ACTIVITY_TYPE_CREATE_POLICY_V3', intentKey: 'createPolicyIntentV3', resultKey: 'createPolicyResult' }]);

/** Wire names of `delete_policies`: every accepted `type`, with its intent and result keys. */
export const DELETE_POLICIES_ACTIVITY = defineActivityWire('delete_policies', [{ type: 'ACTIVITY_TYPE_DELETE_POLICIES', intentKey: 'deletePoliciesIntent', resultKey: 'deletePoliciesResult' }]);

/** Wire names of `delete_policy`: every accepted `type`, with its intent and result keys. */
export const DELETE_POLICY_ACTIVITY = defineActivityWire('delete_policy', [{ type: 'ACTIVITY_TYPE_DELETE_POLICY', intentKey: 'deletePolicyIntent', resultKey: 'deletePolicyResult' }]);

/** Wire names of `update_policy`: every accepted `type`, with its intent and result keys. */
export const UPDATE_POLICY_ACTIVITY = defineActivityWire('update_policy', [{ type: 'ACTIVITY_TYPE_UPDATE_POLICY_V2', intentKey: 'updatePolicyIntentV2', resultKey: 'updatePolicyResultV2' }]);

/** Wire names of `approve_activity`: a vote for a waiting activity, found by its fingerprint. */
export const APPROVE_ACTIVITY_ACTIVITY = defineActivityWire('approve_activity', [{ type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY', intentKey: 'approveActivityIntent', resultKey: 'approveActivityResult' }]);

/** Wire names of `reject_activity`: a vote against a waiting activity (its initiator's cancels it). */
export const REJECT_ACTIVITY_ACTIVITY = defineActivityWire('reject_activity', [{ type: 'ACTIVITY_TYPE_REJECT_ACTIVITY', intentKey: 'rejectActivityIntent', resultKey: 'rejectActivityResult' }]);
