/** The Gas page's chart (its own chunk: recharts loads only with it): usage over the window against the limit. */
import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';

export default function GasChart(props: { series: { minutesAgo: number; usedUsd: string }[]; limitUsd: string }) {
  const limit = Number(props.limitUsd);
  const data = props.series.map((p) => ({ when: p.minutesAgo === 0 ? 'now' : `-${p.minutesAgo} min`, used: Number(p.usedUsd) }));
  const top = Math.max(limit, ...data.map((d) => d.used)) * 1.15 || 1;
  return (
    <div role="img" aria-label={`sponsored gas used over the window, USD, against the limit of ${props.limitUsd} USD`}>
      <AreaChart
        h={240}
        data={data}
        dataKey="when"
        unit=" $"
        series={[{ name: 'used', label: 'Used (USD)', color: 'indigo.8' }]}
        yAxisProps={{ domain: [0, top] }}
        referenceLines={[{ y: limit, label: `limit ${props.limitUsd} USD`, color: 'red.9' }]}
        curveType="stepAfter"
      />
    </div>
  );
}
