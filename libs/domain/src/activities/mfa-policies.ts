/**
 * Wire schemas of MFA policies (issue 16 §3): create_mfa_policy, update_mfa_policy,
 * delete_mfa_policy and the get_mfa_policy / get_mfa_policies / get_mfa_status queries, with the
 * names of `@turnkey/sdk-types` 1.10's `v1…MfaPolic…` / `v1GetMfaStatus…` types. The condition's
 * grammar is checked where it is evaluated (the engine parses it with `@latchkey/policy`); here
 * only its size.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema, type TTimestamp } from '../common.js';
import { AUTHENTICATION_TYPES } from '../enums.js';

/** A condition is one expression; the policy language's own limits are far above this. */
export const MAX_MFA_CONDITION_LENGTH = 4096;
/** Steps of one policy, and alternatives of one step: a handful in practice. */
export const MAX_MFA_STEPS = 8;

/** `v1AuthenticationMethodParams`: a type, optionally one credential of it (an authenticator or API key id). */
export const ZAuthenticationMethodSchema = z.object({
  type: z.enum(AUTHENTICATION_TYPES, { error: `must be one of ${AUTHENTICATION_TYPES.join(', ')}` }),
  id: ZIdentifierSchema.optional(),
});
export type TAuthenticationMethod = z.output<typeof ZAuthenticationMethodSchema>;

/** `v1RequiredAuthenticationMethodParams`: one step, satisfied by any one of its methods. */
export const ZRequiredAuthenticationMethodSchema = z.object({
  any: z.array(ZAuthenticationMethodSchema).min(1, 'a step needs at least one method').max(MAX_MFA_STEPS, `at most ${MAX_MFA_STEPS} methods per step`),
});
export type TRequiredAuthenticationMethod = z.output<typeof ZRequiredAuthenticationMethodSchema>;

const ZStepsSchema = z.array(ZRequiredAuthenticationMethodSchema).min(1, 'at least one step is required').max(MAX_MFA_STEPS, `at most ${MAX_MFA_STEPS} steps`);
const ZNameSchema = z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const ZConditionSchema = z.string().trim().min(1, 'must not be empty').max(MAX_MFA_CONDITION_LENGTH, `must be at most ${MAX_MFA_CONDITION_LENGTH} characters`);
const ZOrderSchema = z.number().int('must be an integer').min(0, 'must be at least 0').max(1_000_000, 'must be at most 1000000');
const ZNotesSchema = z.string().max(1024, 'must be at most 1024 characters');

/** `v1CreateMfaPolicyIntent`. */
export const ZCreateMfaPolicyIntentSchema = z.object({
  userId: ZIdentifierSchema,
  mfaPolicyName: ZNameSchema,
  condition: ZConditionSchema,
  requiredAuthenticationMethods: ZStepsSchema,
  order: ZOrderSchema,
  notes: ZNotesSchema.optional(),
});
export type TCreateMfaPolicyIntent = z.output<typeof ZCreateMfaPolicyIntentSchema>;

/** `v1UpdateMfaPolicyIntent`: what is given replaces what was. */
export const ZUpdateMfaPolicyIntentSchema = z.object({
  userId: ZIdentifierSchema,
  mfaPolicyId: ZIdentifierSchema,
  mfaPolicyName: ZNameSchema.optional(),
  condition: ZConditionSchema.optional(),
  requiredAuthenticationMethods: ZStepsSchema.optional(),
  order: ZOrderSchema.optional(),
  notes: ZNotesSchema.optional(),
});
export type TUpdateMfaPolicyIntent = z.output<typeof ZUpdateMfaPolicyIntentSchema>;

/** `v1DeleteMfaPolicyIntent`. */
export const ZDeleteMfaPolicyIntentSchema = z.object({ userId: ZIdentifierSchema, mfaPolicyId: ZIdentifierSchema });
export type TDeleteMfaPolicyIntent = z.output<typeof ZDeleteMfaPolicyIntentSchema>;

/** `v1CreateMfaPolicyResult`, `v1UpdateMfaPolicyResult`, `v1DeleteMfaPolicyResult`. */
export type TMfaPolicyResult = { mfaPolicyId: string };

/** `v1GetMfaPolicyRequest`. */
export const ZGetMfaPolicyRequestSchema = z.object({ organizationId: ZIdentifierSchema, userId: ZIdentifierSchema, mfaPolicyId: ZIdentifierSchema });
export type TGetMfaPolicyRequest = z.output<typeof ZGetMfaPolicyRequestSchema>;

/** `v1GetMfaPoliciesRequest`. */
export const ZGetMfaPoliciesRequestSchema = z.object({ organizationId: ZIdentifierSchema, userId: ZIdentifierSchema });
export type TGetMfaPoliciesRequest = z.output<typeof ZGetMfaPoliciesRequestSchema>;

/** `v1GetMfaStatusRequest`. */
export const ZGetMfaStatusRequestSchema = z.object({ organizationId: ZIdentifierSchema, activityId: ZIdentifierSchema, userId: ZIdentifierSchema.optional() });
export type TGetMfaStatusRequest = z.output<typeof ZGetMfaStatusRequestSchema>;

/** `v1MfaPolicy`. */
export interface TMfaPolicyWire {
  mfaPolicyId: string;
  mfaPolicyName: string;
  condition: string;
  requiredAuthenticationMethods: TRequiredAuthenticationMethod[];
  order: number;
  notes?: string;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
}

/** `v1MfaStatus`. */
export interface TMfaStatusWire {
  mfaPolicyId: string;
  userId: string;
  satisfied: boolean;
  satisfiedMethods: TAuthenticationMethod[];
  requiredMethods: TRequiredAuthenticationMethod[];
}

/** Wire names of `create_mfa_policy`. */
export const CREATE_MFA_POLICY_ACTIVITY = defineActivityWire('create_mfa_policy', [
  { type: 'ACTIVITY_TYPE_CREATE_MFA_POLICY', intentKey: 'createMfaPolicyIntent', resultKey: 'createMfaPolicyResult' },
]);

/** Wire names of `update_mfa_policy`. */
export const UPDATE_MFA_POLICY_ACTIVITY = defineActivityWire('update_mfa_policy', [
  { type: 'ACTIVITY_TYPE_UPDATE_MFA_POLICY', intentKey: 'updateMfaPolicyIntent', resultKey: 'updateMfaPolicyResult' },
]);

/** Wire names of `delete_mfa_policy`. */
export const DELETE_MFA_POLICY_ACTIVITY = defineActivityWire('delete_mfa_policy', [
  { type: 'ACTIVITY_TYPE_DELETE_MFA_POLICY', intentKey: 'deleteMfaPolicyIntent', resultKey: 'deleteMfaPolicyResult' },
]);
