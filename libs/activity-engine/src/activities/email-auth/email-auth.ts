/**
 * email_auth (V3) — logs a user in by e-mail: a credential bundle (a fresh P-256 API key of type
 * EMAIL_AUTH, 15 minutes by default, encrypted to `targetPublicKey`) is mailed to the user's
 * address, never returned. Needs FEATURE_NAME_EMAIL_AUTH on a sub-organization. Policy: AUTH /
 * CREATE.
 */
import { ZEmailAuthIntentSchema, type TEmailAuthIntent } from '@latchkey/domain';
import { renderEmailAuthEmail } from '../../delivery/templates.js';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deliveryFailed } from '../otp/otp-flow.js';
import { issueCredentialBundle, sessionSeconds } from '../sessions/issue-session.js';
import { assertLoginFeature, resolveUserByContact } from '../sessions/resolve-login-user.js';
import { senderFields } from '../recovery/recovery.js';

export const emailAuth: TActivityDefinition<TEmailAuthIntent, { userId: string; apiKeyId: string }> = {
  path: 'email_auth',
  versions: [{ type: 'ACTIVITY_TYPE_EMAIL_AUTH_V3', intentKey: 'emailAuthIntentV3', resultKey: 'emailAuthResult' }],
  resource: 'AUTH',
  action: 'CREATE',
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
    try {
      const mail = renderEmailAuthEmail({ credentialBundle, expiresInSeconds: sessionSeconds(p.expirationSeconds), emailCustomization: p.emailCustomization, ...senderFields(p) });
      await ctx.services.mail.send({ to: p.email, subject: mail.subject, text: mail.text, html: mail.html, ...(mail.from ? { from: mail.from } : {}), ...(mail.replyTo ? { replyTo: mail.replyTo } : {}) });
    } catch (e) {
      deliveryFailed(e);
    }
    return { userId: who.userId, apiKeyId };
  },
};
