/**
 * The Gas page's view of one organization's sponsorship window: `get_gas_usage` as the engine
 * answers it (the window, the limit that applies to this organization, its usage), the window's
 * configuration when the organization is the billing one that set it, and the usage as a series
 * over the window for the chart — cumulative sponsored USD from the window's start to each point,
 * to be drawn against the limit. The series is read from the ledger the receipt watcher writes
 * (migration 0020), with the repository's own window sum: usage up to a point = the window's total
 * minus what came after the point. A window's worth of points costs as many indexed sums.
 */
import type { TGetGasUsageResponse } from '@latchkey/domain';
import { formatUsdMicros, type TGasUsageConfigRow } from '@latchkey/persistence';

/** The two gas-repository reads this view needs. */
export interface TGasReads {
  findConfig(organizationId: string): Promise<TGasUsageConfigRow | null>;
  /** Sponsored gas of the organization over the last `minutes`, in micro-dollars. */
  usageMicros(organizationId: string, minutes: number): Promise<bigint>;
}

export interface TGasUsagePoint {
  /** Minutes before now (the window's start is `windowDurationMinutes`, now is 0). */
  minutesAgo: number;
  /** Sponsored USD from the window's start up to this point (decimal string). */
  usedUsd: string;
}

export interface TGasUsageView extends TGetGasUsageResponse {
  /** The window as set by upsert_gas_usage_config, when this organization is the billing one that set it. */
  config: { orgWindowLimitUsd: string; subOrgWindowLimitUsd: string; windowDurationMinutes: number; enabled: boolean } | null;
  series: TGasUsagePoint[];
}

/** Points on the chart: at most this many intervals, never shorter than a minute. */
const MAX_INTERVALS = 12;

export async function gasUsageView(gas: TGasReads, organizationId: string, usage: TGetGasUsageResponse): Promise<TGasUsageView> {
  const row = await gas.findConfig(organizationId);
  const config = row
    ? { orgWindowLimitUsd: formatUsdMicros(row.orgWindowLimitMicros), subOrgWindowLimitUsd: formatUsdMicros(row.subOrgWindowLimitMicros), windowDurationMinutes: row.windowDurationMinutes, enabled: row.enabled }
    : null;
  const window = usage.windowDurationMinutes;
  const series: TGasUsagePoint[] = [];
  if (window > 0) {
    const intervals = Math.min(MAX_INTERVALS, window);
    const total = await gas.usageMicros(organizationId, window);
    for (let i = 0; i <= intervals; i++) {
      const minutesAgo = window - Math.round((i * window) / intervals);
      const after = minutesAgo === 0 ? 0n : minutesAgo === window ? total : await gas.usageMicros(organizationId, minutesAgo);
      const used = total - after;
      series.push({ minutesAgo, usedUsd: formatUsdMicros(used < 0n ? 0n : used) });
    }
  }
  return { ...usage, config, series };
}
