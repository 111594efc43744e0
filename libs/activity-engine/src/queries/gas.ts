/**
 * get_gas_usage: an organization's gas window as `v1GetGasUsageResponse` — the window's length,
 * the organization's limit (a billing organization's own, or its parent's `subOrgWindowLimitUsd`
 * for a sub-organization) and its sponsored usage over the window, USD as decimal strings. No
 * configuration: a zero window (nothing can be sponsored).
 */
import { ZGetGasUsageRequestSchema, type TGetGasUsageRequest, type TGetGasUsageResponse } from '@latchkey/domain';
import { formatUsdMicros } from '@latchkey/persistence';
import { gasWindowsOf } from '../engine/gas-window.js';
import type { TQueryDefinition } from './query-definition.js';

export const getGasUsage: TQueryDefinition<TGetGasUsageRequest, TGetGasUsageResponse> = {
  path: 'get_gas_usage',
  request: ZGetGasUsageRequestSchema,
  async handle(ctx, req) {
    void req;
    const [own] = await gasWindowsOf(ctx.store, ctx.organization.id);
    if (!own) return { windowDurationMinutes: 0, windowLimitUsd: '0', usageUsd: '0' };
    return { windowDurationMinutes: own.windowDurationMinutes, windowLimitUsd: formatUsdMicros(own.limitMicros), usageUsd: formatUsdMicros(own.usageMicros) };
  },
};
