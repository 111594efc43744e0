/**
 * update_user_phone_number — sets (or with `""` removes) one user's phone number (E.164).
 * Verified only with a verification token for that number (SMS); a user changing their own needs
 * one (see `user-contact-shared.ts`). Resource USER, action UPDATE; one's own is self-service.
 */
import { UPDATE_USER_PHONE_NUMBER_ACTIVITY, ZUpdateUserPhoneNumberIntentSchema, type TUpdateUserContactResult, type TUpdateUserPhoneNumberIntent } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { updateUserContact } from './user-contact-shared.js';

export const updateUserPhoneNumber: TActivityDefinition<TUpdateUserPhoneNumberIntent, TUpdateUserContactResult> = {
  ...UPDATE_USER_PHONE_NUMBER_ACTIVITY,
  access: { selfService: true },
  onFailure: 'reject',
  params: ZUpdateUserPhoneNumberIntentSchema,
  policyParams: exposeParams({ userId: 'user_id', userPhoneNumber: 'user_phone_number' }),
  handle: (ctx, p) => updateUserContact(ctx, 'PHONE_NUMBER', { userId: p.userId, contact: p.userPhoneNumber, verificationToken: p.verificationToken }),
};
