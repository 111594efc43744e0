/**
 * Wire schemas of session profiles and read-only sessions (issue 16 §4): create_session_profile,
 * the get_session_profile / get_session_profiles queries and create_read_only_session, with the
 * names of `@turnkey/sdk-types` 1.10's `v1…SessionProfile…` / `v1CreateReadOnlySession…` types.
 * Turnkey's profiles are immutable: there is no update or delete activity. The scope's grammar is
 * checked where it is enforced (the engine's `session-scope.ts`); here only its size.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema, type TTimestamp } from '../common.js';
import { ZExpirationSecondsSchema } from './credentials.js';

/** A scope is a short expression or list; the policy language's own limit is far above this. */
export const MAX_SESSION_SCOPE_LENGTH = 4096;

/** `v1CreateSessionProfileIntent`. */
export const ZCreateSessionProfileIntentSchema = z.object({
  sessionProfileName: z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  scope: z.string().trim().min(1, 'must not be empty').max(MAX_SESSION_SCOPE_LENGTH, `must be at most ${MAX_SESSION_SCOPE_LENGTH} characters`),
  expirationSeconds: ZExpirationSecondsSchema.refine((s) => Number(s) <= 31_536_000, 'must be at most 31536000 (one year)').optional(),
  notes: z.string().max(1024, 'must be at most 1024 characters').optional(),
});
export type TCreateSessionProfileIntent = z.output<typeof ZCreateSessionProfileIntentSchema>;

/** `v1CreateSessionProfileResult`. */
export type TCreateSessionProfileResult = {
  sessionProfileId: string;
};

/** `v1CreateReadOnlySessionIntent`: empty. */
export const ZCreateReadOnlySessionIntentSchema = z.object({});
export type TCreateReadOnlySessionIntent = z.output<typeof ZCreateReadOnlySessionIntentSchema>;

/** `v1CreateReadOnlySessionResult`: `sessionExpiry` in seconds since the epoch, as a string. */
export type TCreateReadOnlySessionResult = {
  organizationId: string;
  organizationName: string;
  userId: string;
  username: string;
  session: string;
  sessionExpiry: string;
};

/** `v1GetSessionProfileRequest`. */
export const ZGetSessionProfileRequestSchema = z.object({ organizationId: ZIdentifierSchema, sessionProfileId: ZIdentifierSchema });
export type TGetSessionProfileRequest = z.output<typeof ZGetSessionProfileRequestSchema>;

/** `v1GetSessionProfilesRequest`. */
export const ZGetSessionProfilesRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TGetSessionProfilesRequest = z.output<typeof ZGetSessionProfilesRequestSchema>;

/** `v1SessionProfile`. */
export interface TSessionProfileWire {
  sessionProfileId: string;
  sessionProfileName: string;
  scope: string;
  expirationSeconds?: string;
  notes?: string;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
}

/** Wire names of `create_session_profile`. */
export const CREATE_SESSION_PROFILE_ACTIVITY = defineActivityWire('create_session_profile', [
  { type: 'ACTIVITY_TYPE_CREATE_SESSION_PROFILE', intentKey: 'createSessionProfileIntent', resultKey: 'createSessionProfileResult' },
]);

/** Wire names of `create_read_only_session`. */
export const CREATE_READ_ONLY_SESSION_ACTIVITY = defineActivityWire('create_read_only_session', [
  { type: 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION', intentKey: 'createReadOnlySessionIntent', resultKey: 'createReadOnlySessionResult' },
]);
