/**
 * get_auth_proxy_config (a Latchkey extension; Turnkey has no read of it): the organization's auth
 * proxy config with every setting and its defaults — never the proxy user's key.
 */
import { ZGetAuthProxyConfigRequestSchema, type TAuthProxyConfigWire, type TGetAuthProxyConfigRequest } from '@latchkey/domain';
import type { TQueryDefinition } from './query-definition.js';
import { configWire, notEnabled } from '../activities/auth-proxy/auth-proxy-shared.js';

export const getAuthProxyConfig: TQueryDefinition<TGetAuthProxyConfigRequest, { authProxyConfig: TAuthProxyConfigWire }> = {
  path: 'get_auth_proxy_config',
  request: ZGetAuthProxyConfigRequestSchema,
  async handle(ctx) {
    const row = await ctx.store.authProxyConfigs.findByOrganization(ctx.organization.id);
    if (!row) throw notEnabled(ctx.organization.id);
    return { authProxyConfig: configWire(row) };
  },
};
