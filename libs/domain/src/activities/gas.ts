/**
 * Wire schemas of gas sponsorship (issue 15 §2): upsert_gas_usage_config
 * (`v1UpsertGasUsageConfigIntent`; sdk-server has no method for it, so it is sent raw) and the
 * get_gas_usage query (`v1GetGasUsageRequest` / `…Response`). USD amounts are decimal strings with
 * at most 6 decimals, read into micro-dollar bigints (`parseUsdMicros`): no float ever holds money.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema } from '../common.js';

/** sdk-types: the window "can't exceed 30 days (43200 minutes)". */
export const MAX_GAS_WINDOW_MINUTES = 43_200;

const USD = /^(0|[1-9][0-9]{0,13})(\.[0-9]{1,6})?$/;

/** "12.5" → 12_500_000n micro-dollars. @throws Error for anything but a non-negative decimal with at most 6 decimals */
export function parseUsdMicros(s: string): bigint {
  if (!USD.test(s)) throw new Error(`${s} is not a USD amount (a non-negative decimal with at most 6 decimals)`);
  const [whole, frac = ''] = s.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(frac.padEnd(6, '0'));
}

const usd = z
  .string()
  .trim()
  .regex(USD, 'must be a USD amount: a non-negative decimal string with at most 6 decimals and 14 digits before the point, e.g. "25.50"');

/** `v1UpsertGasUsageConfigIntent`. */
export const ZUpsertGasUsageConfigIntentSchema = z.object({
  orgWindowLimitUsd: usd,
  subOrgWindowLimitUsd: usd,
  windowDurationMinutes: z
    .string()
    .trim()
    .regex(/^[1-9][0-9]{0,4}$/, 'must be a whole number of minutes as a string, e.g. "60"')
    .refine((s) => Number(s) <= MAX_GAS_WINDOW_MINUTES, `must be at most ${MAX_GAS_WINDOW_MINUTES} (30 days)`),
  enabled: z.boolean().optional(),
  /** Latchkey sponsors no Solana transactions: present, it is refused (the handler says so). */
  solanaConfig: z.unknown().optional(),
});
export type TUpsertGasUsageConfigIntent = z.output<typeof ZUpsertGasUsageConfigIntentSchema>;

export interface TUpsertGasUsageConfigResult extends Record<string, unknown> {
  gasUsageConfigId: string;
}

export const UPSERT_GAS_USAGE_CONFIG_ACTIVITY = defineActivityWire('upsert_gas_usage_config', [
  { type: 'ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', intentKey: 'upsertGasUsageConfigIntent', resultKey: 'upsertGasUsageConfigResult' },
]);

/** `v1GetGasUsageRequest`. */
export const ZGetGasUsageRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TGetGasUsageRequest = z.output<typeof ZGetGasUsageRequestSchema>;

/** `v1GetGasUsageResponse`. */
export interface TGetGasUsageResponse {
  windowDurationMinutes: number;
  windowLimitUsd: string;
  usageUsd: string;
}
