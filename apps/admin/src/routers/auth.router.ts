/**
 * The dashboard's AUTH section: the organization's auth proxy, enabled, configured and disabled as
 * activities, and `preview`: the OTP e-mail and SMS its settings would send (nothing is sent).
 */
import {
  DISABLE_AUTH_PROXY_ACTIVITY,
  ENABLE_AUTH_PROXY_ACTIVITY,
  UPDATE_AUTH_PROXY_CONFIG_ACTIVITY,
  ZDisableAuthProxyIntentSchema,
  ZEnableAuthProxyIntentSchema,
  ZGetAuthProxyConfigRequestSchema,
  ZUpdateAuthProxyConfigIntentSchema,
  type TAuthProxyConfigWire,
} from '@latchkey/domain';
import { engineQuery, engineSubmit, orgScoped } from '../trpc/engine-calls.js';
import { router, stampedProcedure } from '../trpc/init.js';
import { previewAuthMessages } from './preview-auth-messages.js';

const ZPreviewSettingsSchema = ZUpdateAuthProxyConfigIntentSchema.pick({
  emailCustomizationParams: true,
  smsCustomizationParams: true,
  sendFromEmailAddress: true,
  sendFromEmailSenderName: true,
  replyToEmailAddress: true,
  otpLength: true,
  otpAlphanumeric: true,
  otpExpirationSeconds: true,
});

export const authRouter = router({
  config: engineQuery<{ authProxyConfig: TAuthProxyConfigWire }, typeof ZGetAuthProxyConfigRequestSchema>('get_auth_proxy_config', ZGetAuthProxyConfigRequestSchema),
  enable: engineSubmit(ENABLE_AUTH_PROXY_ACTIVITY, ZEnableAuthProxyIntentSchema),
  update: engineSubmit(UPDATE_AUTH_PROXY_CONFIG_ACTIVITY, ZUpdateAuthProxyConfigIntentSchema),
  disable: engineSubmit(DISABLE_AUTH_PROXY_ACTIVITY, ZDisableAuthProxyIntentSchema),
  preview: stampedProcedure.input(orgScoped(ZPreviewSettingsSchema.shape)).query(async ({ ctx, input }) => {
    await ctx.services.engine.authorizeRead(ctx.headers, ctx.raw);
    return previewAuthMessages(input);
  }),
});
