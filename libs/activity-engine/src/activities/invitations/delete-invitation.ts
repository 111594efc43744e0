/**
 * delete_invitation — revokes an open invitation (INVITATION_STATUS_REVOKED): it can no longer be
 * accepted. An unknown invitation is a 404; one already accepted or revoked is a 400.
 */
import { AppError, DELETE_INVITATION_ACTIVITY, ZDeleteInvitationIntentSchema, type TDeleteInvitationIntent, type TDeleteInvitationResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const deleteInvitation: TActivityDefinition<TDeleteInvitationIntent, TDeleteInvitationResult> = {
  ...DELETE_INVITATION_ACTIVITY,
  onFailure: 'reject',
  params: ZDeleteInvitationIntentSchema,
  async handle(ctx, p) {
    const inv = await ctx.tx.invitations.find(ctx.organizationId, p.invitationId);
    if (!inv) throw new AppError('NOT_FOUND', `invitation not found: ${p.invitationId}`, { field: 'invitationId' });
    if (!(await ctx.tx.invitations.close(ctx.organizationId, inv.id, 'INVITATION_STATUS_REVOKED', ctx.now))) {
      throw new AppError('BAD_REQUEST', `invitationId: the invitation is ${inv.status === 'INVITATION_STATUS_ACCEPTED' ? 'already accepted' : 'already deleted'}`, { field: 'invitationId' });
    }
    return { invitationId: inv.id };
  },
};
