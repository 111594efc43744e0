/**
 * User tags: create_user_tag, update_user_tag (rename, add and remove users) and delete_user_tags
 * (whose result also lists the users that carried the tags). Tag names are unique in an
 * organization.
 */
import { AppError } from '@latchkey/domain';

export const uniqueName = (name: string) => new AppError('BAD_REQUEST', `user tag name must be unique: ${JSON.stringify(name)} already exists`, { field: 'userTagName' });
