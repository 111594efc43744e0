/**
 * approve_activity: the signer approves a waiting activity of its organization. Counted by the
 * policies that made it wait; the one that completes the consensus runs the activity's handler.
 */
import { APPROVE_ACTIVITY_ACTIVITY, ZVoteIntentSchema } from '@latchkey/domain';
import type { TVoteDefinition } from '../../engine/activity-definition.js';

export const approveActivity: TVoteDefinition = { ...APPROVE_ACTIVITY_ACTIVITY, vote: 'VOTE_SELECTION_APPROVED', params: ZVoteIntentSchema };
