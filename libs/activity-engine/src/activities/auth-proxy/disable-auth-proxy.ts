/**
 * disable_auth_proxy — the config stops answering (the proxy answers 404 naming it) and the proxy
 * user's API key is deleted, with its sealed private key; every process's auth cache hears of it.
 * The proxy user, its policy and the settings stay for a later enable_auth_proxy.
 */
import { DISABLE_AUTH_PROXY_ACTIVITY, ZDisableAuthProxyIntentSchema, type TDisableAuthProxyIntent, type TDisableAuthProxyResult, AppError } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { notEnabled } from './auth-proxy-shared.js';

export const disableAuthProxy: TActivityDefinition<TDisableAuthProxyIntent, TDisableAuthProxyResult> = {
  ...DISABLE_AUTH_PROXY_ACTIVITY,
  onFailure: 'reject',
  params: ZDisableAuthProxyIntentSchema,
  async handle(ctx) {
    const row = await ctx.tx.authProxyConfigs.findByOrganization(ctx.organizationId);
    if (!row) throw notEnabled(ctx.organizationId);
    if (!row.enabled) throw new AppError('BAD_REQUEST', `the auth proxy is already disabled (config ${row.id})`, { configId: row.id });
    if (row.proxyUserId && row.proxyApiKeyId) {
      await ctx.tx.credentials.deleteApiKeys(ctx.organizationId, row.proxyUserId, [row.proxyApiKeyId], ctx.now);
      await ctx.tx.notifyChange('credential', row.proxyUserId);
    }
    await ctx.tx.authProxyConfigs.disable(ctx.organizationId, ctx.now);
    return {};
  },
};
