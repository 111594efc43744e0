/**
 * set_organization_feature / remove_organization_feature — switch an organization's features
 * (`FEATURE_NAME_*`: webhook URL, e-mail auth and recovery, SMS and OTP e-mail auth, WebAuthn
 * origins…). The result lists every feature now set.
 */
import { ZSetOrganizationFeatureIntentSchema, type TOrganizationFeaturesResult, type TSetOrganizationFeatureIntent, SET_ORGANIZATION_FEATURE_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { currentFeatures, validateFeatureValue } from './organization-features-shared.js';

export const setOrganizationFeature: TActivityDefinition<TSetOrganizationFeatureIntent, TOrganizationFeaturesResult> = {
  ...SET_ORGANIZATION_FEATURE_ACTIVITY,
  onFailure: 'reject',
  params: ZSetOrganizationFeatureIntentSchema,
  validate: validateFeatureValue,
  async handle(ctx, p) {
    await ctx.tx.organizations.setFeature(ctx.organizationId, p.name, p.value, ctx.now);
    await ctx.tx.notifyChange('organization', ctx.organizationId);
    return currentFeatures(ctx.tx, ctx.organizationId);
  },
};
