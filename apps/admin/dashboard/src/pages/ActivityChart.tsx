/** The overview's chart (its own chunk: recharts loads only with it). */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';

const COLORS: Record<string, string> = {
  ACTIVITY_STATUS_COMPLETED: 'teal.6',
  ACTIVITY_STATUS_FAILED: 'red.6',
  ACTIVITY_STATUS_CONSENSUS_NEEDED: 'yellow.6',
  ACTIVITY_STATUS_REJECTED: 'gray.6',
};

export default function ActivityChart(props: { buckets: { hour: string; status: string; count: number }[] }) {
  const hours = new Map<string, Record<string, number | string>>();
  for (const b of props.buckets) {
    const label = new Date(b.hour).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const row = hours.get(label) ?? { hour: label };
    row[b.status.replace('ACTIVITY_STATUS_', '')] = b.count;
    hours.set(label, row);
  }
  const statuses = [...new Set(props.buckets.map((b) => b.status))];
  return (
    <div role="img" aria-label="activities per hour by status">
    <BarChart
      h={220}
      data={[...hours.values()]}
      dataKey="hour"
      type="stacked"
      series={statuses.map((s) => ({ name: s.replace('ACTIVITY_STATUS_', ''), color: COLORS[s] ?? 'indigo.6' }))}
    />
    </div>
  );
}
