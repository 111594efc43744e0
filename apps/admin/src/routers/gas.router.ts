/**
 * Gas sponsorship (issue 15 §2): `usage` — the organization's window, its usage against the limit
 * that applies to it and the usage over the window for the chart (read-models/gas-usage.ts), the
 * engine's `get_gas_usage` first, so the read is authorized exactly as on the public API — and
 * `configure`, `upsert_gas_usage_config` as an activity of the signed-in user.
 */
import { UPSERT_GAS_USAGE_CONFIG_ACTIVITY, ZGetGasUsageRequestSchema, ZUpsertGasUsageConfigIntentSchema, type TGetGasUsageResponse } from '@latchkey/domain';
import { gasUsageView } from '../read-models/gas-usage.js';
import { engineSubmit } from '../trpc/engine-calls.js';
import { router, stampedProcedure } from '../trpc/init.js';

export const gasRouter = router({
  usage: stampedProcedure.input(ZGetGasUsageRequestSchema).query(async ({ ctx, input }) => {
    const usage = (await ctx.services.engine.query('get_gas_usage', ctx.headers, ctx.raw)) as TGetGasUsageResponse;
    return gasUsageView(ctx.services.gas, input.organizationId, usage);
  }),
  configure: engineSubmit(UPSERT_GAS_USAGE_CONFIG_ACTIVITY, ZUpsertGasUsageConfigIntentSchema),
});
