/**
 * create_users (V3, V4), update_user and delete_users. New users get their API keys and user tags
 * in the same transaction. A root quorum member cannot be deleted (the quorum would lose a voter
 * behind its back); deleting a user deletes its credentials, and every process's auth cache hears
 * of it. Policy: USER / CREATE, UPDATE, DELETE.
 */
import { newId } from '@latchkey/crypto';
import {
  AppError,
  ZCreateUsersIntentSchema,
  ZDeleteUsersIntentSchema,
  ZUpdateUserIntentSchema,
  type TCreateUsersIntent,
  type TCreateUsersResult,
  type TDeleteUsersIntent,
  type TDeleteUsersResult,
  type TUpdateUserIntent,
  type TUpdateUserResult,
} from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';
import { addApiKeys, assertApiKeysUnused, assertApiKeysWellFormed, assertUserExists, type TLocatedApiKey } from '../api-keys/api-keys.js';
import { checkCredentials, writeCredentials } from '../credentials/add-user-credentials.js';
import { assertOidcClaimsAllowed } from '../oauth-providers/oauth-providers.js';

/** @throws AppError 404 naming the user tags that do not exist in the organization */
export async function assertUserTagsExist(ctx: TActivityContext, tagIds: readonly string[]): Promise<void> {
  const found = await ctx.tx.users.findTags(ctx.organizationId, [...tagIds]);
  const missing = tagIds.filter((id) => !found.some((t) => t.id === id));
  if (missing.length) throw new AppError('NOT_FOUND', `user tags not found: ${missing.join(', ')}`, { userTagIds: missing });
}

/** @throws AppError 404 naming the users that do not exist in the organization */
export async function assertUsersExist(ctx: TActivityContext, userIds: readonly string[]): Promise<void> {
  const found = await ctx.tx.users.findByIds(ctx.organizationId, [...userIds]);
  const missing = userIds.filter((id) => !found.some((u) => u.id === id));
  if (missing.length) throw new AppError('NOT_FOUND', `users not found: ${missing.join(', ')}`, { userIds: missing });
}

const apiKeysOf = (p: TCreateUsersIntent): TLocatedApiKey[] =>
  p.users.flatMap((u, i) => u.apiKeys.map((params, j) => ({ path: `users[${i}].apiKeys[${j}]`, params })));

export const createUsers: TActivityDefinition<TCreateUsersIntent, TCreateUsersResult> = {
  path: 'create_users',
  versions: [
    { type: 'ACTIVITY_TYPE_CREATE_USERS_V4', intentKey: 'createUsersIntentV4', resultKey: 'createUsersResult' },
    { type: 'ACTIVITY_TYPE_CREATE_USERS_V3', intentKey: 'createUsersIntentV3', resultKey: 'createUsersResult' },
  ],
  resource: 'USER',
  action: 'CREATE',
  params: ZCreateUsersIntentSchema,
  validate(p) {
    assertApiKeysWellFormed(apiKeysOf(p));
  },
  async handle(ctx, p) {
    await assertUserTagsExist(ctx, [...new Set(p.users.flatMap((u) => u.userTags))]);
    await assertApiKeysUnused(ctx, apiKeysOf(p));
    // Passkey attestations and OIDC tokens are verified for every user before any user is written.
    const org = await ctx.tx.organizations.findById(ctx.organizationId);
    const originOrgs = org?.parentOrganizationId ? [ctx.organizationId, org.parentOrganizationId] : [ctx.organizationId];
    const others = [];
    for (const [i, u] of p.users.entries()) {
      others.push(await checkCredentials(ctx, { authenticators: u.authenticators, oauthProviders: u.oauthProviders }, (kind, j) => `users[${i}].${kind}[${j}]`, originOrgs));
      await assertOidcClaimsAllowed(ctx, u.oauthProviders, others[i]!.oauthProviders, (j) => `users[${i}].oauthProviders[${j}]`);
    }
    const userIds: string[] = [];
    for (const [i, u] of p.users.entries()) {
      const userId = newId();
      await ctx.tx.users.create({ id: userId, organizationId: ctx.organizationId, userName: u.userName, userEmail: u.userEmail ?? null, userPhoneNumber: u.userPhoneNumber ?? null, createdAt: ctx.now });
      await ctx.tx.users.setUserTags(ctx.organizationId, userId, [...new Set(u.userTags)]);
      await addApiKeys(ctx, userId, u.apiKeys.map((params, j) => ({ path: `users[${i}].apiKeys[${j}]`, params })));
      await writeCredentials(ctx.tx, ctx.organizationId, userId, others[i]!);
      userIds.push(userId);
    }
    return { userIds };
  },
};

export const updateUser: TActivityDefinition<TUpdateUserIntent, TUpdateUserResult> = {
  path: 'update_user',
  versions: [{ type: 'ACTIVITY_TYPE_UPDATE_USER', intentKey: 'updateUserIntent', resultKey: 'updateUserResult' }],
  resource: 'USER',
  action: 'UPDATE',
  params: ZUpdateUserIntentSchema,
  async handle(ctx, p) {
    await assertUserExists(ctx, p.userId);
    const tagIds = [...new Set(p.userTagIds)];
    await assertUserTagsExist(ctx, tagIds);
    const changes: Parameters<TRepositories['users']['update']>[2] = {};
    if (p.userName !== undefined) changes.userName = p.userName;
    if (p.userEmail !== undefined) changes.userEmail = p.userEmail === '' ? null : p.userEmail;
    if (p.userPhoneNumber !== undefined) changes.userPhoneNumber = p.userPhoneNumber === '' ? null : p.userPhoneNumber;
    await ctx.tx.users.update(ctx.organizationId, p.userId, changes, ctx.now);
    if (tagIds.length) await ctx.tx.users.setUserTags(ctx.organizationId, p.userId, tagIds);
    // whoami answers from the cached user row; the name may have changed.
    await ctx.tx.notifyChange('user', p.userId);
    return { userId: p.userId };
  },
};

export const deleteUsers: TActivityDefinition<TDeleteUsersIntent, TDeleteUsersResult> = {
  path: 'delete_users',
  versions: [{ type: 'ACTIVITY_TYPE_DELETE_USERS', intentKey: 'deleteUsersIntent', resultKey: 'deleteUsersResult' }],
  resource: 'USER',
  action: 'DELETE',
  params: ZDeleteUsersIntentSchema,
  async handle(ctx, p) {
    const userIds = [...new Set(p.userIds)];
    await assertUsersExist(ctx, userIds);
    const quorum = new Set((await ctx.tx.organizations.rootQuorumMembers(ctx.organizationId)).map((m) => m.userId));
    const roots = userIds.filter((id) => quorum.has(id));
    if (roots.length) {
      throw new AppError('BAD_REQUEST', `a root quorum member cannot be deleted: ${roots.join(', ')}; take them out of the root quorum first (update_root_quorum)`, { userIds: roots });
    }
    await ctx.tx.users.softDelete(ctx.organizationId, userIds, ctx.now);
    await ctx.tx.credentials.deleteCredentialsOfUsers(ctx.organizationId, userIds, ctx.now);
    for (const id of userIds) {
      await ctx.tx.notifyChange('user', id);
      await ctx.tx.notifyChange('credential', id);
    }
    return { userIds };
  },
};
