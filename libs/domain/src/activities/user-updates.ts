/**
 * Wire schemas of the single-field user updates (issue 16 §7): update_user_name, with the names of
 * `@turnkey/sdk-types` 1.10's `v1UpdateUserName…` types; update_user_email and
 * update_user_phone_number (`v1UpdateUserEmail…`, `v1UpdateUserPhoneNumber…`), whose new contact
 * is verified only by a verification token for it.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema } from '../common.js';
import { emailAddress } from '../email-address.js';
import { ZUserNameSchema } from './users.js';

/** `v1UpdateUserNameIntent`. */
export const ZUpdateUserNameIntentSchema = z.object({ userId: ZIdentifierSchema, userName: ZUserNameSchema });
export type TUpdateUserNameIntent = z.output<typeof ZUpdateUserNameIntentSchema>;

/** `v1UpdateUserNameResult`. */
export interface TUpdateUserNameResult extends Record<string, unknown> {
  userId: string;
}

/** Wire names of `update_user_name`. */
export const UPDATE_USER_NAME_ACTIVITY = defineActivityWire('update_user_name', [
  { type: 'ACTIVITY_TYPE_UPDATE_USER_NAME', intentKey: 'updateUserNameIntent', resultKey: 'updateUserNameResult' },
]);

/** A verify_otp token (an ES256 JWT): its checks are the engine's. */
const verificationToken = z
  .string()
  .max(4096, 'must be at most 4096 characters')
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** `v1UpdateUserEmailIntent`: `userEmail` `""` removes the e-mail. */
export const ZUpdateUserEmailIntentSchema = z.object({
  userId: ZIdentifierSchema,
  userEmail: z.union([z.literal(''), emailAddress('must be an e-mail address, such as alice@example.com, or "" to remove it')], {
    error: 'must be an e-mail address, such as alice@example.com, or "" to remove it',
  }),
  verificationToken,
});
export type TUpdateUserEmailIntent = z.output<typeof ZUpdateUserEmailIntentSchema>;

/** `v1UpdateUserPhoneNumberIntent`: E.164; `""` removes the number. */
export const ZUpdateUserPhoneNumberIntentSchema = z.object({
  userId: ZIdentifierSchema,
  userPhoneNumber: z
    .string({ error: 'must be a phone number in E.164 format, such as +13214567890, or "" to remove it' })
    .regex(/^(\+[1-9][0-9]{6,14})?$/, 'must be a phone number in E.164 format, such as +13214567890, or "" to remove it'),
  verificationToken,
});
export type TUpdateUserPhoneNumberIntent = z.output<typeof ZUpdateUserPhoneNumberIntentSchema>;

/** `v1UpdateUserEmailResult` / `v1UpdateUserPhoneNumberResult`. */
export interface TUpdateUserContactResult extends Record<string, unknown> {
  userId: string;
}

/** Wire names of `update_user_email`. */
export const UPDATE_USER_EMAIL_ACTIVITY = defineActivityWire('update_user_email', [
  { type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', intentKey: 'updateUserEmailIntent', resultKey: 'updateUserEmailResult' },
]);

/** Wire names of `update_user_phone_number`. */
export const UPDATE_USER_PHONE_NUMBER_ACTIVITY = defineActivityWire('update_user_phone_number', [
  { type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER', intentKey: 'updateUserPhoneNumberIntent', resultKey: 'updateUserPhoneNumberResult' },
]);
