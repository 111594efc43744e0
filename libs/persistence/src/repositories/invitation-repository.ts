/**
 * Invitations (issue 16 §7): written by create_invitations, revoked by delete_invitation, accepted
 * once, all inside their activity's transaction. A status change is conditional on the invitation
 * still being open, so two racing acceptances (or an acceptance racing a revocation) cannot both win.
 */
import type { TDb } from '../database.js';

export interface TInvitationRow {
  id: string;
  organizationId: string;
  senderUserId: string;
  receiverUserName: string;
  receiverEmail: string;
  receiverUserTags: string[];
  accessType: string;
  status: string;
  acceptedUserId: string | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

const OPEN = 'INVITATION_STATUS_CREATED';

function toRow(r: Omit<TInvitationRow, 'receiverUserTags'> & { receiverUserTags: unknown }): TInvitationRow {
  return { ...r, receiverUserTags: Array.isArray(r.receiverUserTags) ? (r.receiverUserTags as string[]) : [] };
}

export function invitationRepository(db: TDb) {
  return {
    async create(i: Omit<TInvitationRow, 'status' | 'acceptedUserId' | 'updatedAt'>): Promise<void> {
      await db.invitation.create({ data: { ...i, receiverUserTags: i.receiverUserTags, updatedAt: i.createdAt } });
    },
    async find(organizationId: string, id: string): Promise<TInvitationRow | null> {
      const r = await db.invitation.findFirst({ where: { organizationId, id } });
      return r ? toRow(r) : null;
    },
    /** Moves an open invitation to `status`. @returns false when it was no longer open */
    async close(organizationId: string, id: string, status: 'INVITATION_STATUS_ACCEPTED' | 'INVITATION_STATUS_REVOKED', at: Date, acceptedUserId?: string): Promise<boolean> {
      const { count } = await db.invitation.updateMany({ where: { organizationId, id, status: OPEN }, data: { status, updatedAt: at, ...(acceptedUserId ? { acceptedUserId } : {}) } });
      return count === 1;
    },
  };
}
export type TInvitationRepository = ReturnType<typeof invitationRepository>;
