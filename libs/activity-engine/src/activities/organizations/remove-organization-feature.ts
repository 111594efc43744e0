/**
 * set_organization_feature / remove_organization_feature — switch an organization's features
 * (`FEATURE_NAME_*`: webhook URL, e-mail auth and recovery, SMS and OTP e-mail auth, WebAuthn
 * origins…). The result lists every feature now set.
 */
import { AppError, ZRemoveOrganizationFeatureIntentSchema, type TOrganizationFeaturesResult, type TRemoveOrganizationFeatureIntent, REMOVE_ORGANIZATION_FEATURE_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { currentFeatures } from './organization-features-shared.js';

export const removeOrganizationFeature: TActivityDefinition<TRemoveOrganizationFeatureIntent, TOrganizationFeaturesResult> = {
  ...REMOVE_ORGANIZATION_FEATURE_ACTIVITY,
  onFailure: 'reject',
  params: ZRemoveOrganizationFeatureIntentSchema,
  async handle(ctx, p) {
    if (!(await ctx.tx.organizations.removeFeature(ctx.organizationId, p.name))) {
      throw new AppError('NOT_FOUND', `feature not set: ${p.name}`, { name: p.name });
    }
    await ctx.tx.notifyChange('organization', ctx.organizationId);
    return currentFeatures(ctx.tx, ctx.organizationId);
  },
};
