import { describe, expect, it } from 'vitest';
import { gasUsageView, type TGasReads } from './gas-usage.js';

/** A ledger as (micro-dollars, minutes ago); `usageMicros` sums what is younger than the window, as the SQL does. */
const ledger = (entries: [bigint, number][], config: Awaited<ReturnType<TGasReads['findConfig']>> = null): TGasReads & { sums: number[] } => {
  const sums: number[] = [];
  return {
    sums,
    findConfig: async () => config,
    usageMicros: async (_org, minutes) => (sums.push(minutes), entries.filter(([, ago]) => ago < minutes).reduce((a, [m]) => a + m, 0n)),
  };
};

describe('gasUsageView', () => {
  it('has no series without a window', async () => {
    const gas = ledger([[5n, 1]]);
    expect(await gasUsageView(gas, 'o', { windowDurationMinutes: 0, windowLimitUsd: '0', usageUsd: '0' })).toEqual({ windowDurationMinutes: 0, windowLimitUsd: '0', usageUsd: '0', config: null, series: [] });
    expect(gas.sums).toEqual([]);
  });

  it('is cumulative from the window start (0) to now (the total), in at most 12 steps', async () => {
    const gas = ledger([[1_250_000n, 30], [500_000n, 7], [3_000_000n, 120]]);
    const v = await gasUsageView(gas, 'o', { windowDurationMinutes: 60, windowLimitUsd: '10', usageUsd: '1.75' });
    expect(v.series.map((p) => p.minutesAgo)).toEqual([60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5, 0]);
    expect(v.series.map((p) => p.usedUsd)).toEqual(['0', '0', '0', '0', '0', '0', '1.25', '1.25', '1.25', '1.25', '1.25', '1.75', '1.75']);
    // One sum for the window, one per inner point: the ends need none.
    expect(gas.sums).toHaveLength(12);
  });

  it('uses one-minute steps for a short window, and shows the configuration as USD strings', async () => {
    const config = { id: 'c', organizationId: 'o', orgWindowLimitMicros: 10_000_000n, subOrgWindowLimitMicros: 2_500_000n, windowDurationMinutes: 3, enabled: false };
    const v = await gasUsageView(ledger([[1n, 0]], config), 'o', { windowDurationMinutes: 3, windowLimitUsd: '10', usageUsd: '0.000001' });
    expect(v.series).toEqual([{ minutesAgo: 3, usedUsd: '0' }, { minutesAgo: 2, usedUsd: '0' }, { minutesAgo: 1, usedUsd: '0' }, { minutesAgo: 0, usedUsd: '0.000001' }]);
    expect(v.config).toEqual({ orgWindowLimitUsd: '10', subOrgWindowLimitUsd: '2.5', windowDurationMinutes: 3, enabled: false });
  });
});
