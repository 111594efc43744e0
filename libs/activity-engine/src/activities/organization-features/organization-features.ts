/**
 * set_organization_feature / remove_organization_feature — switch an organization's features
 * (`FEATURE_NAME_*`: webhook URL, e-mail auth and recovery, SMS and OTP e-mail auth, WebAuthn
 * origins…). The result lists every feature now set. Policy: ORGANIZATION / UPDATE.
 */
import {
  AppError,
  ZRemoveOrganizationFeatureIntentSchema,
  ZSetOrganizationFeatureIntentSchema,
  type TFeature,
  type TOrganizationFeaturesResult,
  type TRemoveOrganizationFeatureIntent,
  type TSetOrganizationFeatureIntent,
} from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

async function currentFeatures(tx: TRepositories, organizationId: string): Promise<TOrganizationFeaturesResult> {
  const rows = await tx.organizations.features(organizationId);
  return { features: rows.map((f) => ({ name: f.name as TFeature['name'], value: f.value })) };
}

/** Features whose value is a URL (or a list of them) must hold one. */
function validateFeatureValue(p: TSetOrganizationFeatureIntent): void {
  const urls = p.name === 'FEATURE_NAME_WEBHOOK' ? [p.value] : p.name === 'FEATURE_NAME_WEBAUTHN_ORIGINS' ? p.value.split(',').map((v) => v.trim()).filter(Boolean) : [];
  for (const u of urls) {
    let ok = false;
    try {
      const url = new URL(u);
      ok = url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      ok = false;
    }
    if (!ok) throw new AppError('BAD_REQUEST', `value: ${p.name} needs an http(s) URL, got ${JSON.stringify(u.slice(0, 200))}`, { field: 'value' });
  }
}

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

export const removeOrganizationFeature: TActivityDefinition<TRemoveOrganizationFeatureIntent, TOrganizationFeaturesResult> = {
  path: 'remove_organization_feature',
  versions: [{ type: 'ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE', intentKey: 'removeOrganizationFeatureIntent', resultKey: 'removeOrganizationFeatureResult' }],
  resource: 'ORGANIZATION',
  action: 'UPDATE',
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
