/**
 * email_auth (V3) — logs a user in by e-mail: a credential bundle (a fresh P-256 API key of type
 * EMAIL_AUTH, 15 minutes by default, encrypted to `targetPublicKey`) is mailed to the user's
 * address, never returned. Needs FEATURE_NAME_EMAIL_AUTH on a sub-organization.
 */
import { ZEmailAuthIntentSchema, type TEmailAuthIntent, EMAIL_AUTH_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { issueCredentialBundle, sessionSeconds } from '../../../identity/issue-session.js';
import { assertLoginFeature, resolveUserByContact } from '../../../engine/resolve-login-user.js';
import { senderFields } from '../../../identity/sender-fields.js';
import { sendEmail } from '../../../identity/email-events.js';

export const emailAuth: TActivityDefinition<TEmailAuthIntent, { userId: string; apiKeyId: string }> = {
  ...EMAIL_AUTH_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZEmailAuthIntentSchema,
  async handle(ctx, p) {
    const who = await resolveUserByContact(ctx.tx, ctx.organizationId, 'OTP_TYPE_EMAIL', p.email);
    await assertLoginFeature(ctx.tx, who.organizationId, 'FEATURE_NAME_EMAIL_AUTH');
    const { apiKeyId, credentialBundle } = await issueCredentialBundle({ ...ctx, organizationId: who.organizationId }, {
      userId: who.userId,
      targetPublicKey: p.targetPublicKey,
      credentialType: 'CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256',
      apiKeyName: p.apiKeyName ?? `Email Auth - ${ctx.now.getTime()}`,
      expirationSeconds: p.expirationSeconds,
      invalidateExisting: p.invalidateExisting,
    });
    await sendEmail(ctx, p.email, () => ctx.services.messages.emailAuth(p.email, { credentialBundle, expiresInSeconds: sessionSeconds(p.expirationSeconds), emailCustomization: p.emailCustomization, ...senderFields(p) }));
    return { userId: who.userId, apiKeyId };
  },
};
