/**
 * upsert_gas_usage_config — sets the gas window of a billing (top-level) organization: its own USD
 * limit, each sub-organization's, the sliding window's length, and whether sponsorship is on. A
 * sub-organization cannot set one (403): its window is its parent's to decide. Refusals are 4xx
 * and write nothing. Policy resource `CONFIG`, action `UPDATE` (Turnkey's table lists no row).
 */
import { newId } from '@latchkey/crypto';
import { AppError, UPSERT_GAS_USAGE_CONFIG_ACTIVITY, ZUpsertGasUsageConfigIntentSchema, parseUsdMicros, type TUpsertGasUsageConfigIntent, type TUpsertGasUsageConfigResult } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const upsertGasUsageConfig: TActivityDefinition<TUpsertGasUsageConfigIntent, TUpsertGasUsageConfigResult> = {
  ...UPSERT_GAS_USAGE_CONFIG_ACTIVITY,
  onFailure: 'reject',
  params: ZUpsertGasUsageConfigIntentSchema,
  policyParams: exposeParams({ enabled: 'enabled', windowDurationMinutes: 'window_duration_minutes' }),
  validate(p) {
    if (p.solanaConfig !== undefined) throw new AppError('BAD_REQUEST', 'solanaConfig: Latchkey sponsors no Solana transactions; omit it', { field: 'solanaConfig' });
  },
  async handle(ctx, p) {
    const org = await ctx.tx.organizations.findById(ctx.organizationId);
    if (org?.parentOrganizationId) {
      throw new AppError('REQUEST_NOT_AUTHORIZED', `organization ${ctx.organizationId} is a sub-organization; its gas window is set by its parent ${org.parentOrganizationId} (subOrgWindowLimitUsd)`, { field: 'organizationId' });
    }
    const existing = await ctx.tx.gas.findConfig(ctx.organizationId);
    const gasUsageConfigId = await ctx.tx.gas.upsertConfig(
      {
        id: existing?.id ?? newId(),
        organizationId: ctx.organizationId,
        orgWindowLimitMicros: parseUsdMicros(p.orgWindowLimitUsd),
        subOrgWindowLimitMicros: parseUsdMicros(p.subOrgWindowLimitUsd),
        windowDurationMinutes: Number(p.windowDurationMinutes),
        enabled: p.enabled ?? existing?.enabled ?? true,
      },
      ctx.now,
    );
    return { gasUsageConfigId };
  },
};
