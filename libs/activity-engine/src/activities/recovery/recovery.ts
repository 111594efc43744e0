/**
 * Account recovery by e-mail. init_user_email_recovery (V2): a credential bundle holding a
 * recovery key (type RECOVER_USER, 15 minutes by default) is mailed to the user; that key can do
 * one thing — recover_user, which adds a new passkey to its own user and spends the key. Needs
 * FEATURE_NAME_EMAIL_RECOVERY on a sub-organization. Policy: RECOVERY / CREATE, and
 * CREDENTIAL / CREATE for recover_user (implicit for the recovering user).
 */
import {
  AppError,
  ZInitUserEmailRecoveryIntentSchema,
  ZRecoverUserIntentSchema,
  type TInitUserEmailRecoveryIntent,
  type TRecoverUserIntent,
} from '@latchkey/domain';
import { renderRecoveryEmail, type TSenderCustomization } from '../../delivery/templates.js';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { checkCredentials, writeCredentials } from '../credentials/add-user-credentials.js';
import { deliveryFailed } from '../otp/otp-flow.js';
import { issueCredentialBundle, sessionSeconds } from '../sessions/issue-session.js';
import { assertLoginFeature, resolveUserByContact } from '../sessions/resolve-login-user.js';

/** The credential type a recovery key has; authentication lets it submit recover_user only. */
export const RECOVERY_CREDENTIAL_TYPE = 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256';

export function senderFields(p: TSenderCustomization): TSenderCustomization {
  return {
    ...(p.sendFromEmailAddress ? { sendFromEmailAddress: p.sendFromEmailAddress } : {}),
    ...(p.sendFromEmailSenderName ? { sendFromEmailSenderName: p.sendFromEmailSenderName } : {}),
    ...(p.replyToEmailAddress ? { replyToEmailAddress: p.replyToEmailAddress } : {}),
  };
}

export const initUserEmailRecovery: TActivityDefinition<TInitUserEmailRecoveryIntent, { userId: string }> = {
  path: 'init_user_email_recovery',
  versions: [{ type: 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2', intentKey: 'initUserEmailRecoveryIntentV2', resultKey: 'initUserEmailRecoveryResult' }],
  resource: 'RECOVERY',
  action: 'CREATE',
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZInitUserEmailRecoveryIntentSchema,
  async handle(ctx, p) {
    const who = await resolveUserByContact(ctx.tx, ctx.organizationId, 'OTP_TYPE_EMAIL', p.email);
    await assertLoginFeature(ctx.tx, who.organizationId, 'FEATURE_NAME_EMAIL_RECOVERY');
    const { credentialBundle } = await issueCredentialBundle({ ...ctx, organizationId: who.organizationId }, {
      userId: who.userId,
      targetPublicKey: p.targetPublicKey,
      credentialType: RECOVERY_CREDENTIAL_TYPE,
      apiKeyName: `Recovery - ${ctx.now.getTime()}`,
      expirationSeconds: p.expirationSeconds,
      invalidateExisting: true,
    });
    try {
      const mail = renderRecoveryEmail({ credentialBundle, expiresInSeconds: sessionSeconds(p.expirationSeconds), emailCustomization: p.emailCustomization, ...senderFields(p) });
      await ctx.services.mail.send({ to: p.email, subject: mail.subject, text: mail.text, html: mail.html, ...(mail.from ? { from: mail.from } : {}), ...(mail.replyTo ? { replyTo: mail.replyTo } : {}) });
    } catch (e) {
      deliveryFailed(e);
    }
    return { userId: who.userId };
  },
};

export const recoverUser: TActivityDefinition<TRecoverUserIntent, { authenticatorId: string[] }> = {
  path: 'recover_user',
  versions: [{ type: 'ACTIVITY_TYPE_RECOVER_USER', intentKey: 'recoverUserIntent', resultKey: 'recoverUserResult' }],
  resource: 'CREDENTIAL',
  action: 'CREATE',
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
