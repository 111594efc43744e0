/**
 * Wire schemas of invitations (issue 16 §7): create_invitations, delete_invitation and accepting
 * one (ACCEPT_INVITATION_V2), with the names of `@turnkey/sdk-types` 1.10's `v1…Invitation…`
 * types. An invitation names who is invited (name, e-mail, user tags, access type) and who sent it.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema } from '../common.js';
import { emailAddress } from '../email-address.js';
import { ACCESS_TYPES } from '../enums.js';
import { ZAuthenticatorParamsV2Schema } from './credentials.js';
import { ZUserNameSchema } from './users.js';

/** Invitations one create_invitations may send. */
export const MAX_INVITATIONS_PER_REQUEST = 50;

/** `v1InvitationParams`. */
export const ZInvitationParamsSchema = z.object({
  receiverUserName: ZUserNameSchema,
  receiverUserEmail: emailAddress(),
  receiverUserTags: z.array(ZIdentifierSchema).max(100, 'must list at most 100 user tag ids').default([]),
  accessType: z.enum(ACCESS_TYPES, { error: `must be one of ${ACCESS_TYPES.join(', ')}` }),
  senderUserId: ZIdentifierSchema,
});
export type TInvitationParams = z.output<typeof ZInvitationParamsSchema>;

/** `v1CreateInvitationsIntent`. */
export const ZCreateInvitationsIntentSchema = z.object({
  invitations: z
    .array(ZInvitationParamsSchema)
    .min(1, 'must hold at least one invitation')
    .max(MAX_INVITATIONS_PER_REQUEST, `must hold at most ${MAX_INVITATIONS_PER_REQUEST} invitations`),
});
export type TCreateInvitationsIntent = z.output<typeof ZCreateInvitationsIntentSchema>;
/** `v1CreateInvitationsResult`. */
export interface TCreateInvitationsResult extends Record<string, unknown> {
  invitationIds: string[];
}

/** `v1DeleteInvitationIntent`. */
export const ZDeleteInvitationIntentSchema = z.object({ invitationId: ZIdentifierSchema });
export type TDeleteInvitationIntent = z.output<typeof ZDeleteInvitationIntentSchema>;
/** `v1DeleteInvitationResult`. */
export interface TDeleteInvitationResult extends Record<string, unknown> {
  invitationId: string;
}

/** `v1AcceptInvitationIntentV2`: `userId` is the user submitting the acceptance (the caller). */
export const ZAcceptInvitationIntentV2Schema = z.object({
  invitationId: ZIdentifierSchema,
  userId: ZIdentifierSchema,
  authenticator: ZAuthenticatorParamsV2Schema,
});
export type TAcceptInvitationIntentV2 = z.output<typeof ZAcceptInvitationIntentV2Schema>;
/** `v1AcceptInvitationResult`: `userId` is the new user's. */
export interface TAcceptInvitationResult extends Record<string, unknown> {
  invitationId: string;
  userId: string;
}

/** Wire names of `create_invitations`. */
export const CREATE_INVITATIONS_ACTIVITY = defineActivityWire('create_invitations', [
  { type: 'ACTIVITY_TYPE_CREATE_INVITATIONS', intentKey: 'createInvitationsIntent', resultKey: 'createInvitationsResult' },
]);
/** Wire names of `delete_invitation`. */
export const DELETE_INVITATION_ACTIVITY = defineActivityWire('delete_invitation', [
  { type: 'ACTIVITY_TYPE_DELETE_INVITATION', intentKey: 'deleteInvitationIntent', resultKey: 'deleteInvitationResult' },
]);
/**
 * Wire names of accepting an invitation. No Turnkey client has a route for it; Latchkey serves it
 * at `/public/v1/submit/accept_invitation` (V2 only: V1's authenticator shape is retired).
 */
export const ACCEPT_INVITATION_ACTIVITY = defineActivityWire('accept_invitation', [
  { type: 'ACTIVITY_TYPE_ACCEPT_INVITATION_V2', intentKey: 'acceptInvitationIntentV2', resultKey: 'acceptInvitationResult' },
]);
