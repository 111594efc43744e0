/**
 * What the auth-proxy activities and the get_auth_proxy_config query share: the config as the wire
 * shows it (never a secret), the activity types the proxy user forwards (and its policy allows),
 * and the refusals naming the config.
 */
import { AppError, authProxySettingsOf, type TAuthProxyConfigWire, type TAuthProxySettings } from '@latchkey/domain';
import type { TAuthProxyConfigRow } from '@latchkey/persistence';

/**
 * The activities the proxy submits as its user (notes §A3). Its policy allows exactly these, so a
 * leaked proxy key cannot create wallets or sign, and a DENY policy on the proxy user still wins.
 */
export const AUTH_PROXY_FORWARDED_TYPES = [
  'ACTIVITY_TYPE_INIT_OTP_V3',
  'ACTIVITY_TYPE_VERIFY_OTP_V2',
  'ACTIVITY_TYPE_OTP_LOGIN_V2',
  'ACTIVITY_TYPE_OAUTH_LOGIN',
  'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE',
  'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
] as const;

/** The policy condition and consensus that let the proxy user run the forwarded types. */
export function proxyPolicy(proxyUserId: string): { condition: string; consensus: string } {
  return {
    condition: `activity.type in [${AUTH_PROXY_FORWARDED_TYPES.map((t) => `'${t}'`).join(', ')}]`,
    consensus: `approvers.any(user, user.id == '${proxyUserId}')`,
  };
}

export const settingsOf = (row: TAuthProxyConfigRow): TAuthProxySettings => authProxySettingsOf(row.settings as Partial<TAuthProxySettings>);

export function configWire(row: TAuthProxyConfigRow): TAuthProxyConfigWire {
  return { configId: row.id, organizationId: row.organizationId, enabled: row.enabled, proxyUserId: row.proxyUserId ?? '', ...settingsOf(row) };
}

/** @throws AppError NOT_FOUND when the organization has never enabled the proxy */
export function notEnabled(organizationId: string): AppError {
  return new AppError('NOT_FOUND', `the auth proxy is not enabled for organization ${organizationId}; submit enable_auth_proxy first`, { organizationId });
}
