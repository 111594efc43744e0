/**
 * create_invitations — one invitation per receiver, open for 7 days, each mailed to its receiver
 * through the message port (the e-mail names the organization and the sender and carries the
 * invitation id). Every sender must be a user of the organization and every receiver tag one of
 * its user tags (404 naming `invitations.<i>.<field>`); all are checked before anything is
 * written or sent, and a mail that cannot be delivered fails the whole activity (503, nothing kept).
 */
import { newId } from '@latchkey/crypto';
import { AppError, CREATE_INVITATIONS_ACTIVITY, ZCreateInvitationsIntentSchema, type TCreateInvitationsIntent, type TCreateInvitationsResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { sendEmail } from '../../identity/email-events.js';

/** How long an invitation can be accepted. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const createInvitations: TActivityDefinition<TCreateInvitationsIntent, TCreateInvitationsResult> = {
  ...CREATE_INVITATIONS_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateInvitationsIntentSchema,
  validate(p) {
    const seen = new Set<string>();
    p.invitations.forEach((inv, i) => {
      const email = inv.receiverUserEmail.toLowerCase();
      if (seen.has(email)) throw new AppError('BAD_REQUEST', `invitations.${i}.receiverUserEmail: ${inv.receiverUserEmail} is invited twice in this request`, { field: `invitations.${i}.receiverUserEmail` });
      seen.add(email);
    });
  },
  async handle(ctx, p) {
    const org = await ctx.tx.organizations.findById(ctx.organizationId);
    if (!org) throw new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${ctx.organizationId}`);
    const senderNames: string[] = [];
    for (const [i, inv] of p.invitations.entries()) {
      const sender = await ctx.tx.users.findById(ctx.organizationId, inv.senderUserId);
      if (!sender) throw new AppError('NOT_FOUND', `invitations.${i}.senderUserId: user not found: ${inv.senderUserId}`, { field: `invitations.${i}.senderUserId` });
      senderNames.push(sender.userName);
      const tagIds = [...new Set(inv.receiverUserTags)];
      const found = await ctx.tx.users.findTags(ctx.organizationId, tagIds);
      const missing = tagIds.filter((id) => !found.some((t) => t.id === id));
      if (missing.length) throw new AppError('NOT_FOUND', `invitations.${i}.receiverUserTags: user tags not found: ${missing.join(', ')}`, { field: `invitations.${i}.receiverUserTags`, userTagIds: missing });
    }
    const invitationIds: string[] = [];
    for (const inv of p.invitations) {
      const id = newId();
      await ctx.tx.invitations.create({
        id,
        organizationId: ctx.organizationId,
        senderUserId: inv.senderUserId,
        receiverUserName: inv.receiverUserName,
        receiverEmail: inv.receiverUserEmail,
        receiverUserTags: [...new Set(inv.receiverUserTags)],
        accessType: inv.accessType,
        expiresAt: new Date(ctx.now.getTime() + INVITATION_TTL_MS),
        createdAt: ctx.now,
      });
      invitationIds.push(id);
    }
    for (const [i, inv] of p.invitations.entries()) {
      await sendEmail(ctx, inv.receiverUserEmail, () =>
        ctx.services.messages.invitation(inv.receiverUserEmail, {
          invitationId: invitationIds[i]!,
          organizationName: org.name,
          senderUserName: senderNames[i]!,
          receiverUserName: inv.receiverUserName,
        }),
      );
    }
    return { invitationIds };
  },
};
