/**
 * update_user_email — sets (or with `""` removes) one user's e-mail. Verified only with a
 * verification token for that address; a user changing their own needs one (see
 * `user-contact-shared.ts`). Resource USER, action UPDATE; one's own is self-service.
 */
import { UPDATE_USER_EMAIL_ACTIVITY, ZUpdateUserEmailIntentSchema, type TUpdateUserContactResult, type TUpdateUserEmailIntent } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { updateUserContact } from './user-contact-shared.js';

export const updateUserEmail: TActivityDefinition<TUpdateUserEmailIntent, TUpdateUserContactResult> = {
  ...UPDATE_USER_EMAIL_ACTIVITY,
  access: { selfService: true },
  onFailure: 'reject',
  params: ZUpdateUserEmailIntentSchema,
  policyParams: exposeParams({ userId: 'user_id', userEmail: 'user_email' }),
  handle: (ctx, p) => updateUserContact(ctx, 'EMAIL', { userId: p.userId, contact: p.userEmail, verificationToken: p.verificationToken }),
};
