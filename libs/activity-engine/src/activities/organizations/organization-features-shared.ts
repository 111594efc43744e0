/**
 * set_organization_feature / remove_organization_feature — switch an organization's features
 * (`FEATURE_NAME_*`: webhook URL, e-mail auth and recovery, SMS and OTP e-mail auth, WebAuthn
 * origins…). The result lists every feature now set.
 */
import { AppError, type TFeature, type TOrganizationFeaturesResult, type TSetOrganizationFeatureIntent } from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';

export async function currentFeatures(tx: TRepositories, organizationId: string): Promise<TOrganizationFeaturesResult> {
  const rows = await tx.organizations.features(organizationId);
  return { features: rows.map((f) => ({ name: f.name as TFeature['name'], value: f.value })) };
}

/** Features whose value is a URL (or a list of them) must hold one. */
export function validateFeatureValue(p: TSetOrganizationFeatureIntent): void {
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
