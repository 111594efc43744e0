/**
 * set_organization_feature / remove_organization_feature — switch an organization's features
 * (`FEATURE_NAME_*`: webhook URL, e-mail auth and recovery, SMS and OTP e-mail auth, WebAuthn
 * origins…). The result lists every feature now set. Policy: ORGANIZATION / UPDATE.
 */
import { ZSetOrganizationFeatureIntentSchema, type TOrganizationFeaturesResult, type TSetOrganizationFeatureIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { currentFeatures, validateFeatureValue } from './organization-features-shared.js';

export const setOrganizationFeature: TActivityDefinition<TSetOrganizationFeatureIntent, TOrganizationFeaturesResult> = {
  path: 'set_organization_feature',
  versions: [{ type: 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', intentKey: 'setOrganizationFeatureIntent', resultKey: 'setOrganizationFeatureResult' }],
  resource: 'ORGANIZATION',
  action: 'UPDATE',
  onFailure: 'reject',
  params: ZSetOrganizationFeatureIntentSchema,
  validate: validateFeatureValue,
  async handle(ctx, p) {
    await ctx.tx.organizations.setFeature(ctx.organizationId, p.name, p.value, ctx.now);
    await ctx.tx.notifyChange('organization', ctx.organizationId);
    return currentFeatures(ctx.tx, ctx.organizationId);
  },
};
