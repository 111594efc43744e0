/** Users and user tags. One file per kind; this list is the folder's whole registration. */
import { createUsers } from './create-users.js';
import { updateUser } from './update-user.js';
import { updateUserName } from './update-user-name.js';
import { updateUserEmail } from './update-user-email.js';
import { updateUserPhoneNumber } from './update-user-phone-number.js';
import { deleteUsers } from './delete-users.js';
import { createUserTag } from './create-user-tag.js';
import { updateUserTag } from './update-user-tag.js';
import { deleteUserTags } from './delete-user-tags.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const USERS_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  createUsers,
  updateUser,
  updateUserName,
  updateUserEmail,
  updateUserPhoneNumber,
  deleteUsers,
  createUserTag,
  updateUserTag,
  deleteUserTags,
];
