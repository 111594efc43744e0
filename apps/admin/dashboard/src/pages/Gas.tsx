/**
 * Gas: an organization's sponsorship window (its own or a sub-organization's, picked like the
 * activity filter), the usage against the limit that applies to it as a chart, and — for the
 * billing organization — the window's settings, saved as upsert_gas_usage_config (validated with
 * the API's own schema).
 */
import { Alert, Button, Card, Group, Loader, Progress, Select, SimpleGrid, Switch, Text, TextInput, Title } from '@mantine/core';
import { ZUpsertGasUsageConfigIntentSchema } from '@latchkey/domain';
import { lazy, Suspense, useEffect, useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

const GasChart = lazy(() => import('./GasChart'));

export default function Gas() {
  const s = useSession();
  const [orgId, setOrgId] = useState(s.organizationId);
  const { data, error, reload } = useCall((c) => c.client.gas.usage.query({ organizationId: orgId }), [orgId]);
  const orgs = useCall((c) => c.client.overview.summary.query({ organizationId: c.organizationId, pageSize: 100 }), []);
  const orgOptions = orgs.data
    ? [{ value: orgs.data.organization.organizationId, label: `${orgs.data.organization.name} (this organization)` }, ...orgs.data.subOrganizations.rows.map((r) => ({ value: r.organizationId, label: r.name }))]
    : [{ value: s.organizationId, label: 'this organization' }];
  const [form, setForm] = useState({ orgWindowLimitUsd: '', subOrgWindowLimitUsd: '', windowDurationMinutes: '60', enabled: true });
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  useEffect(() => {
    if (data?.config) setForm({ orgWindowLimitUsd: data.config.orgWindowLimitUsd, subOrgWindowLimitUsd: data.config.subOrgWindowLimitUsd, windowDurationMinutes: String(data.config.windowDurationMinutes), enabled: data.config.enabled });
  }, [data?.config]);
  const parsed = ZUpsertGasUsageConfigIntentSchema.safeParse(form);
  const fieldError = (f: string) => (parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === f)?.message);
  const save = async () => {
    try {
      const { activity } = await s.client.gas.configure.mutate(envelope('ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG', s.organizationId, form));
      setMessage({ ok: activity.status === 'ACTIVITY_STATUS_COMPLETED', text: `upsert_gas_usage_config: ${activity.status.replace('ACTIVITY_STATUS_', '')}` });
      reload();
    } catch (e) {
      setMessage({ ok: false, text: s.report(e) });
    }
  };
  const limit = Number(data?.windowLimitUsd ?? 0);
  const used = Number(data?.usageUsd ?? 0);
  return (
    <>
      <Title order={2} mb="md">Gas</Title>
      <Select mb="md" w={360} label="Organization" searchable allowDeselect={false} value={orgId} data={orgOptions} onDropdownOpen={orgs.reload} onChange={(v) => setOrgId(v ?? s.organizationId)} />
      {error && <Alert color="red" role="alert">{error}</Alert>}
      {!data ? (
        !error && <Loader aria-label="loading" />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md">
            <Card withBorder><Text size="sm" c="dark.6">Used in the window</Text><Text size="xl" fw={700} data-testid="gas-used">{data.usageUsd} USD</Text></Card>
            <Card withBorder><Text size="sm" c="dark.6">Window limit</Text><Text size="xl" fw={700} data-testid="gas-limit">{data.windowLimitUsd} USD</Text></Card>
            <Card withBorder><Text size="sm" c="dark.6">Window</Text><Text size="xl" fw={700}>{data.windowDurationMinutes ? `${data.windowDurationMinutes} min` : 'not configured'}</Text></Card>
          </SimpleGrid>
          <Card withBorder mb="md">
            <Title order={3} size="h5" mb="sm">Usage against the window limit</Title>
            {data.windowDurationMinutes === 0 ? (
              <Text size="sm">No gas window is configured: nothing can be sponsored. The billing organization sets one below.</Text>
            ) : (
              <>
                <Progress.Root size="lg" mb="sm">
                  <Progress.Section value={limit > 0 ? Math.min(100, (used / limit) * 100) : 100} color={used >= limit ? 'red.9' : 'indigo.8'} aria-label={`${data.usageUsd} of ${data.windowLimitUsd} USD used`} />
                </Progress.Root>
                <Suspense fallback={<Loader aria-label="loading chart" />}>
                  <GasChart series={data.series} limitUsd={data.windowLimitUsd} />
                </Suspense>
              </>
            )}
          </Card>
        </>
      )}
      {orgId === s.organizationId && (
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">Window settings (billing organization)</Title>
          <Group align="end">
            <TextInput label="Organization limit (USD)" value={form.orgWindowLimitUsd} error={form.orgWindowLimitUsd && fieldError('orgWindowLimitUsd')} onChange={(e) => setForm({ ...form, orgWindowLimitUsd: e.currentTarget.value })} />
            <TextInput label="Each sub-organization's limit (USD)" value={form.subOrgWindowLimitUsd} error={form.subOrgWindowLimitUsd && fieldError('subOrgWindowLimitUsd')} onChange={(e) => setForm({ ...form, subOrgWindowLimitUsd: e.currentTarget.value })} />
            <TextInput label="Window (minutes)" value={form.windowDurationMinutes} error={fieldError('windowDurationMinutes')} onChange={(e) => setForm({ ...form, windowDurationMinutes: e.currentTarget.value })} />
            <Switch label="Sponsorship enabled" checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })} />
            <Button onClick={() => void save()} disabled={!parsed.success}>Save window</Button>
          </Group>
          {message && <Alert color={message.ok ? 'teal' : 'red'} role="status" mt="md">{message.text}</Alert>}
        </Card>
      )}
    </>
  );
}
