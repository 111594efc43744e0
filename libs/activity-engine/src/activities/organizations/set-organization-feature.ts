/**
 * set_organization_feature / remove_organization_feature — switch an organization's features
 * (`FEATURE_NAME_*`: webhook URL, e-mail auth and recovery, SMS and OTP e-mail auth, WebAuthn
 * origins…). The result lists every feature now set.
 *
 * `FEATURE_NAME_WEBHOOK`'s URL is an implicit ACTIVITY_UPDATES endpoint with the same signed
 * deliveries, so it obeys the same URL rules as create_webhook_endpoint, checked here as there.
 */
import { resolveWebhookDestination, WebhookUrlError } from '@latchkey/crypto';
import { AppError, ZSetOrganizationFeatureIntentSchema, type TOrganizationFeaturesResult, type TSetOrganizationFeatureIntent, SET_ORGANIZATION_FEATURE_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { currentFeatures, validateFeatureValue } from './organization-features-shared.js';

export const setOrganizationFeature: TActivityDefinition<TSetOrganizationFeatureIntent, TOrganizationFeaturesResult> = {
  ...SET_ORGANIZATION_FEATURE_ACTIVITY,
  onFailure: 'reject',
  params: ZSetOrganizationFeatureIntentSchema,
  validate: validateFeatureValue,
  async handle(ctx, p) {
    if (p.name === 'FEATURE_NAME_WEBHOOK') {
      try {
        await resolveWebhookDestination(p.value, ctx.services.webhookUrls ?? { allowInsecure: false });
      } catch (e) {
        if (e instanceof WebhookUrlError) throw new AppError('BAD_REQUEST', `value: ${e.message}`, { field: 'value', reason: e.reason });
        throw e;
      }
    }
    await ctx.tx.organizations.setFeature(ctx.organizationId, p.name, p.value, ctx.now);
    await ctx.tx.notifyChange('organization', ctx.organizationId);
    return currentFeatures(ctx.tx, ctx.organizationId);
  },
};
