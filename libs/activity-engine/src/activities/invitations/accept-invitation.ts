/**
 * accept_invitation (ACCEPT_INVITATION_V2) — makes an open, unexpired invitation's receiver a user
 * of the organization: the invited name, e-mail and user tags, and the receiver's passkey (the
 * intent's `authenticator`, attestation verified like create_authenticators'). The invitee has no
 * credential to stamp with yet, so the acceptance is submitted by the organization's own backend
 * (a user a policy allows, INVITATION / UPDATE), which names itself as `userId`; the invitation
 * then becomes INVITATION_STATUS_ACCEPTED. Accepting twice, or a revoked or expired invitation, is a
 * 400 naming `invitationId`; nothing is written.
 */
import { newId } from '@latchkey/crypto';
import { AppError, ACCEPT_INVITATION_ACTIVITY, ZAcceptInvitationIntentV2Schema, type TAcceptInvitationIntentV2, type TAcceptInvitationResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { checkCredentials, writeCredentials } from '../../identity/add-user-credentials.js';

export const acceptInvitation: TActivityDefinition<TAcceptInvitationIntentV2, TAcceptInvitationResult> = {
  ...ACCEPT_INVITATION_ACTIVITY,
  onFailure: 'reject',
  params: ZAcceptInvitationIntentV2Schema,
  async handle(ctx, p) {
    if (p.userId !== ctx.principal.userId) {
      throw new AppError('BAD_REQUEST', 'userId must be the user submitting the acceptance', { field: 'userId' });
    }
    const inv = await ctx.tx.invitations.find(ctx.organizationId, p.invitationId);
    if (!inv) throw new AppError('NOT_FOUND', `invitation not found: ${p.invitationId}`, { field: 'invitationId' });
    if (inv.status !== 'INVITATION_STATUS_CREATED') {
      throw new AppError('BAD_REQUEST', `invitationId: the invitation is ${inv.status === 'INVITATION_STATUS_ACCEPTED' ? 'already accepted' : 'deleted'}`, { field: 'invitationId' });
    }
    if (inv.expiresAt.getTime() <= ctx.now.getTime()) throw new AppError('BAD_REQUEST', 'invitationId: the invitation has expired; send a new one', { field: 'invitationId' });
    const org = await ctx.tx.organizations.findById(ctx.organizationId);
    const originOrgs = org?.parentOrganizationId ? [ctx.organizationId, org.parentOrganizationId] : [ctx.organizationId];
    const checked = await checkCredentials(ctx, { authenticators: [p.authenticator] }, () => 'authenticator', originOrgs);
    // Tags deleted since the invitation was sent are dropped, not resurrected.
    const tags = (await ctx.tx.users.findTags(ctx.organizationId, inv.receiverUserTags)).map((t) => t.id);
    const userId = newId();
    await ctx.tx.users.create({ id: userId, organizationId: ctx.organizationId, userName: inv.receiverUserName, userEmail: inv.receiverEmail, userPhoneNumber: null, createdAt: ctx.now });
    await ctx.tx.users.setUserTags(ctx.organizationId, userId, tags);
    await writeCredentials(ctx.tx, ctx.organizationId, userId, checked);
    if (!(await ctx.tx.invitations.close(ctx.organizationId, inv.id, 'INVITATION_STATUS_ACCEPTED', ctx.now, userId))) {
      throw new AppError('CONFLICT', 'invitationId: the invitation was just accepted or deleted by another request', { field: 'invitationId' });
    }
    await ctx.tx.notifyChange('credential-added', userId);
    return { invitationId: inv.id, userId };
  },
};
