/**
 * update_auth_proxy_config — changes the config's settings: each field given replaces the stored
 * one, the others stay. What a field may hold is the schema's (exact origins, the auth-method
 * words rwk reads, otpLength 6–9 …), so a refusal is a 400 naming the field and its allowed values.
 */
import {
  applyAuthProxyUpdate,
  UPDATE_AUTH_PROXY_CONFIG_ACTIVITY,
  ZUpdateAuthProxyConfigIntentSchema,
  type TUpdateAuthProxyConfigIntent,
  type TUpdateAuthProxyConfigResult,
} from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { notEnabled, settingsOf } from './auth-proxy-shared.js';

export const updateAuthProxyConfig: TActivityDefinition<TUpdateAuthProxyConfigIntent, TUpdateAuthProxyConfigResult> = {
  ...UPDATE_AUTH_PROXY_CONFIG_ACTIVITY,
  onFailure: 'reject',
  params: ZUpdateAuthProxyConfigIntentSchema,
  async handle(ctx, p) {
    const row = await ctx.tx.authProxyConfigs.findByOrganization(ctx.organizationId);
    if (!row) throw notEnabled(ctx.organizationId);
    const next = applyAuthProxyUpdate(settingsOf(row), p);
    await ctx.tx.authProxyConfigs.updateSettings(ctx.organizationId, next as unknown as Record<string, unknown>, ctx.now);
    return { configId: row.id };
  },
};
