/**
 * The activity envelope (what `POST /public/v1/submit/<name>` receives) and the activity object
 * (what every activity endpoint, `get_activity` and `list_activities` return).
 */
import { z } from 'zod';
import { ZIdentifierSchema, ZTimestampSchema, ZUserSchema } from './common.js';
import { ZActivityStatusSchema, ZAppProofSchemeSchema, ZSignatureSchemeSchema, ZVoteSelectionSchema } from './enums.js';

// ---------------------------------------------------------------------------------------------
// Request envelope
// ---------------------------------------------------------------------------------------------

/** Activity types are `ACTIVITY_TYPE_*` strings; which ones a path accepts is decided per kind. */
export const ZActivityTypeSchema = z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters');
export type TActivityType = z.infer<typeof ZActivityTypeSchema>;

/** `timestampMs`: epoch milliseconds written as a decimal string (a JSON number is rejected). */
export const ZTimestampMsSchema = z
  .string()
  .regex(/^[0-9]{1,20}$/, 'must be a string of decimal digits (epoch milliseconds)');

/**
 * The envelope of every activity request. Unknown top-level keys are ignored, as Turnkey's
 * gateway does: newer clients may add optional fields, and rejecting them would break them.
 * `parameters` stays opaque here; each activity kind parses it with its own intent schema.
 */
export const ZActivityRequestSchema = z.object({
  type: ZActivityTypeSchema,
  timestampMs: ZTimestampMsSchema,
  organizationId: ZIdentifierSchema,
  parameters: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }),
  generateAppProofs: z.boolean().optional(),
});
export type TActivityRequest = z.infer<typeof ZActivityRequestSchema>;

/**
 * Builds the envelope schema of one activity kind: `type` pinned to the kind's accepted versions,
 * `parameters` parsed by the kind's intent schema.
 */
export function createActivityRequestSchema<
  const TTypes extends readonly [string, ...string[]],
  TIntent extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>(types: TTypes, intent: TIntent) {
  return ZActivityRequestSchema.extend({
    type: z.enum(types, { error: `must be one of ${types.join(', ')}` }),
    parameters: intent,
  });
}

// ---------------------------------------------------------------------------------------------
// Activity object
// ---------------------------------------------------------------------------------------------

/** A user's approval or rejection of an activity that needed consensus. */
export const ZVoteSchema = z.object({
  id: ZIdentifierSchema,
  userId: ZIdentifierSchema,
  user: ZUserSchema,
  activityId: ZIdentifierSchema,
  selection: ZVoteSelectionSchema,
  /** The raw message that was signed (the approved activity's request body). */
  message: z.string(),
  publicKey: z.string(),
  signature: z.string(),
  scheme: ZSignatureSchemeSchema,
  createdAt: ZTimestampSchema,
});
export type TVote = z.infer<typeof ZVoteSchema>;

/** An `rpcStatus` (`{code, message, details}`), as carried in `activity.failure`. */
export const ZActivityFailureSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  /** `google.protobuf.Any` values: an optional `@type` URL plus the message's own fields. */
  details: z.array(z.object({ '@type': z.string().optional() }).catchall(z.unknown())),
});
export type TActivityFailure = z.infer<typeof ZActivityFailureSchema>;

export const ZAppProofSchema = z.object({
  scheme: ZAppProofSchemeSchema,
  publicKey: z.string(),
  proofPayload: z.string(),
  signature: z.string(),
});
export type TAppProof = z.infer<typeof ZAppProofSchema>;

/**
 * The activity object. `intent` holds one key (e.g. `createWalletIntent`) echoing the parameters;
 * `result` holds one key (e.g. `createWalletResult`), or is `{}` until the activity completes.
 */
export const ZActivitySchema = z.object({
  id: ZIdentifierSchema,
  organizationId: ZIdentifierSchema,
  status: ZActivityStatusSchema,
  type: ZActivityTypeSchema,
  intent: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()),
  votes: z.array(ZVoteSchema),
  fingerprint: z.string(),
  canApprove: z.boolean(),
  canReject: z.boolean(),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
  failure: ZActivityFailureSchema.optional(),
  appProofs: z.array(ZAppProofSchema).optional(),
});
export type TActivity = z.infer<typeof ZActivitySchema>;

export const ZActivityResponseSchema = z.object({ activity: ZActivitySchema });
export type TActivityResponse = z.infer<typeof ZActivityResponseSchema>;

/** One accepted `type` of an activity kind, with the keys its intent and result travel under. */
export interface TActivityVersion {
  type: string;
  intentKey: string;
  resultKey: string;
}

/** The wire names of an activity kind: its path after `/public/v1/submit/` and every accepted version. */
export interface TActivityWire {
  path: string;
  versions: readonly [TActivityVersion, ...TActivityVersion[]];
}

/** Declares a kind's wire names next to its schema, so the engine's definition only refers to them. */
export function defineActivityWire(path: string, versions: readonly [TActivityVersion, ...TActivityVersion[]]): TActivityWire {
  return { path, versions };
}
