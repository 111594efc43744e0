/**
 * reject_activity: the signer rejects a waiting activity of its organization. The initiator's
 * rejection cancels it; another user's rejects it when approval is no longer possible.
 */
import { REJECT_ACTIVITY_ACTIVITY, ZVoteIntentSchema } from '@latchkey/domain';
import type { TVoteDefinition } from '../../engine/activity-definition.js';

export const rejectActivity: TVoteDefinition = { ...REJECT_ACTIVITY_ACTIVITY, vote: 'VOTE_SELECTION_REJECTED', params: ZVoteIntentSchema };
