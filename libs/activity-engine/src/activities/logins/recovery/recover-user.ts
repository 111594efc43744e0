/**
 * Account recovery by e-mail. init_user_email_recovery (V2): a credential bundle holding a
 * recovery key (type RECOVER_USER, 15 minutes by default) is mailed to the user; that key can do
 * one thing — recover_user, which adds a new passkey to its own user and spends the key. Needs
 * FEATURE_NAME_EMAIL_RECOVERY on a sub-organization.
 */
import { AppError, ZRecoverUserIntentSchema, type TRecoverUserIntent, RECOVER_USER_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { checkCredentials, writeCredentials } from '../../../identity/add-user-credentials.js';
import { RECOVERY_CREDENTIAL_TYPE } from './recovery-shared.js';

export const recoverUser: TActivityDefinition<TRecoverUserIntent, { authenticatorId: string[] }> = {
  ...RECOVER_USER_ACTIVITY,
  access: { selfService: true },
  onFailure: 'reject',
  params: ZRecoverUserIntentSchema,
  async handle(ctx, p) {
    if (p.userId !== ctx.principal.userId) {
      throw new AppError('REQUEST_NOT_AUTHORIZED', 'request not authorized: a user can only recover itself', { userId: p.userId });
    }
    const checked = await checkCredentials(ctx, { authenticators: [p.authenticator] }, () => 'authenticator', [ctx.organizationId]);
    const { authenticatorIds } = await writeCredentials(ctx.tx, ctx.organizationId, p.userId, checked);
    // The recovery key has done its one job.
    if (ctx.principal.credential.kind === 'api-key' && ctx.principal.credential.credentialType === RECOVERY_CREDENTIAL_TYPE) {
      await ctx.tx.logins.deleteUserKeysOfTypes(ctx.organizationId, p.userId, [RECOVERY_CREDENTIAL_TYPE], ctx.now);
      await ctx.tx.notifyChange('credential', p.userId);
    }
    return { authenticatorId: authenticatorIds };
  },
};
