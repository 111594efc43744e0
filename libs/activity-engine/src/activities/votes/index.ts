/** Votes on waiting activities (consensus). One file per kind; this list is the folder's whole registration. */
import { approveActivity } from './approve-activity.js';
import { rejectActivity } from './reject-activity.js';
import type { TVoteDefinition } from '../../engine/activity-definition.js';

export const VOTES_ACTIVITIES: readonly TVoteDefinition[] = [approveActivity, rejectActivity];
