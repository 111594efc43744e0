/**
 * Account recovery by e-mail. init_user_email_recovery (V2): a credential bundle holding a
 * recovery key (type RECOVER_USER, 15 minutes by default) is mailed to the user; that key can do
 * one thing — recover_user, which adds a new passkey to its own user and spends the key. Needs
 * FEATURE_NAME_EMAIL_RECOVERY on a sub-organization.
 */
import { ZInitUserEmailRecoveryIntentSchema, type TInitUserEmailRecoveryIntent, INIT_USER_EMAIL_RECOVERY_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { senderFields } from '../../../identity/sender-fields.js';
import { sendEmail } from '../../../identity/email-events.js';
import { issueCredentialBundle, sessionSeconds } from '../../../identity/issue-session.js';
import { assertLoginFeature, resolveUserByContact } from '../../../engine/resolve-login-user.js';
import { RECOVERY_CREDENTIAL_TYPE } from './recovery-shared.js';

export const initUserEmailRecovery: TActivityDefinition<TInitUserEmailRecoveryIntent, { userId: string }> = {
  ...INIT_USER_EMAIL_RECOVERY_ACTIVITY,
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
    await sendEmail(ctx, p.email, () => ctx.services.messages.recovery(p.email, { credentialBundle, expiresInSeconds: sessionSeconds(p.expirationSeconds), emailCustomization: p.emailCustomization, ...senderFields(p) }));
    return { userId: who.userId };
  },
};
