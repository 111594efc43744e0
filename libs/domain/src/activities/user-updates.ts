/**
 * Wire schemas of the single-field user updates (issue 16 §7): update_user_name, with the names of
 * `@turnkey/sdk-types` 1.10's `v1UpdateUserName…` types. (update_user_email and
 * update_user_phone_number, with their verification-token rule, are not served yet.)
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema } from '../common.js';
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
