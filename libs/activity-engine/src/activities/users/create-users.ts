/**
 * create_users (V3, V4), update_user and delete_users. New users get their API keys and user tags
 * in the same transaction. A root quorum member cannot be deleted (the quorum would lose a voter
 * behind its back); deleting a user deletes its credentials, and every process's auth cache hears
 * of it.
 */
import { newId } from '@latchkey/crypto';
import { ZCreateUsersIntentSchema, type TCreateUsersIntent, type TCreateUsersResult, CREATE_USERS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { addApiKeys, assertApiKeysUnused } from '../../identity/api-keys.js';
import { assertApiKeysWellFormed } from '../../identity/add-user-credentials.js';
import { checkCredentials, writeCredentials } from '../../identity/add-user-credentials.js';
import { assertOidcClaimsAllowed } from '../../identity/oidc-claims.js';
import { apiKeysOf, assertUserTagsExist } from './users-shared.js';

export const createUsers: TActivityDefinition<TCreateUsersIntent, TCreateUsersResult> = {
  ...CREATE_USERS_ACTIVITY,
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
