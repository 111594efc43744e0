/** Session profiles and read-only sessions (scopes enforced by `engine/session-scope.ts`). One file per kind; this list is the folder's whole registration. */
import { createSessionProfile } from './create-session-profile.js';
import { createReadOnlySession } from './create-read-only-session.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const SESSION_PROFILES_ACTIVITIES: readonly TAnyActivityDefinition[] = [createSessionProfile, createReadOnlySession];
