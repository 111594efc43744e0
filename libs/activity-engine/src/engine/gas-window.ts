/**
 * The gas window: how much sponsored gas (USD) an organization may use over a sliding window, as
 * its billing organization configured it (upsert_gas_usage_config). A billing organization has
 * `orgWindowLimitUsd`; each of its sub-organizations `subOrgWindowLimitUsd`, and a sub-organization's
 * usage also counts against its parent's window. Micro-dollar bigints throughout.
 */
import type { TRepositories } from '@latchkey/persistence';

export interface TGasWindow {
  /** The organization whose window this is. */
  organizationId: string;
  billingOrganizationId: string;
  windowDurationMinutes: number;
  limitMicros: bigint;
  usageMicros: bigint;
  enabled: boolean;
}

/**
 * The windows a sponsored send by `organizationId` must fit in: its own and, for a
 * sub-organization, its parent's. Empty: no configuration (sponsorship is off).
 */
export async function gasWindowsOf(db: Pick<TRepositories, 'organizations' | 'gas'>, organizationId: string): Promise<TGasWindow[]> {
  const org = await db.organizations.findById(organizationId);
  const billing = org?.parentOrganizationId ?? organizationId;
  const config = await db.gas.findConfig(billing);
  if (!config) return [];
  const minutes = config.windowDurationMinutes;
  const own: TGasWindow = {
    organizationId,
    billingOrganizationId: billing,
    windowDurationMinutes: minutes,
    limitMicros: billing === organizationId ? config.orgWindowLimitMicros : config.subOrgWindowLimitMicros,
    usageMicros: await db.gas.usageMicros(organizationId, minutes),
    enabled: config.enabled,
  };
  if (billing === organizationId) return [own];
  return [own, { organizationId: billing, billingOrganizationId: billing, windowDurationMinutes: minutes, limitMicros: config.orgWindowLimitMicros, usageMicros: await db.gas.usageMicros(billing, minutes), enabled: config.enabled }];
}

/** `ceil(wei × priceUsd / 10^18)` in micro-dollars, exactly: `priceUsd` a decimal string (LATCHKEY_GAS_PRICE_USD). */
export function weiToUsdMicros(wei: bigint, priceUsd: string): bigint {
  const [whole, frac = ''] = priceUsd.split('.');
  const scale = 10n ** BigInt(frac.length);
  const price = BigInt(whole!) * scale + BigInt(frac === '' ? '0' : frac);
  // micro-dollars = wei × price / scale / 10^18 × 10^6
  const num = wei * price;
  const den = scale * 10n ** 12n;
  return (num + den - 1n) / den;
}
