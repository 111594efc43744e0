/** Overview: the organization's counts, its sub-organizations (searched, paged) and activities per hour by status. */
import { Alert, Card, Group, Loader, Pagination, SimpleGrid, Table, Text, TextInput, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useCall } from '../lib/api';

const ActivityChart = lazy(() => import('./ActivityChart'));

export default function Overview() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const { data, error } = useCall((s) => s.client.overview.summary.query({ organizationId: s.organizationId, search, page, pageSize: 10 }), [search, page]);
  return (
    <>
      <Title order={2} mb="md">Overview</Title>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      {!data ? (
        <Loader aria-label="loading" />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md">
            {([['Users', data.organization.users], ['Wallets', data.organization.wallets], ['Activities (24 h)', data.organization.activities24h]] as const).map(([label, n]) => (
              <Card withBorder key={label}>
                <Text size="sm" c="dark.6">{label}</Text>
                <Text size="xl" fw={700}>{n}</Text>
              </Card>
            ))}
          </SimpleGrid>
          <Card withBorder mb="md">
            <Title order={3} size="h5" mb="sm">Activities per hour by status</Title>
            <Suspense fallback={<Loader aria-label="loading chart" />}>
              <ActivityChart buckets={data.activitiesPerHour} />
            </Suspense>
          </Card>
          <Card withBorder>
            <Group justify="space-between" mb="sm">
              <Title order={3} size="h5">Sub-organizations ({data.subOrganizations.total})</Title>
              <TextInput aria-label="search sub-organizations" placeholder="name, id or e-mail" value={search} onChange={(e) => (setSearch(e.currentTarget.value), setPage(0))} />
            </Group>
            <Table striped>
              <Table.Thead>
                <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Id</Table.Th><Table.Th>Users</Table.Th><Table.Th>Wallets</Table.Th><Table.Th>Activities (24 h)</Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.subOrganizations.rows.map((r) => (
                  <Table.Tr key={r.organizationId}>
                    <Table.Td>{r.name}</Table.Td><Table.Td><Text size="xs" ff="monospace">{r.organizationId}</Text></Table.Td>
                    <Table.Td>{r.users}</Table.Td><Table.Td>{r.wallets}</Table.Td><Table.Td>{r.activities24h}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {data.subOrganizations.total > 10 && <Pagination mt="sm" total={Math.ceil(data.subOrganizations.total / 10)} value={page + 1} onChange={(p) => setPage(p - 1)} />}
          </Card>
        </>
      )}
    </>
  );
}
