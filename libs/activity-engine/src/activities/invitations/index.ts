/** Invitations (issue 16 §7). One file per kind; this list is the folder's whole registration. */
import { createInvitations } from './create-invitations.js';
import { deleteInvitation } from './delete-invitation.js';
import { acceptInvitation } from './accept-invitation.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const INVITATIONS_ACTIVITIES: readonly TAnyActivityDefinition[] = [createInvitations, deleteInvitation, acceptInvitation];
