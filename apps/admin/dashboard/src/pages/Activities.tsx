/**
 * Activities: the latest, live (the SSE subscription adds new and changed ones without a reload),
 * filtered by status and type, by sub-organization (the organization the list and the stream are
 * asked for) and by the user who submitted them (the server filters); a detail drawer with intent, result or failure, votes, the policy
 * evaluations that decided it, and Approve / Reject signed by the signed-in user.
 */
import { Alert, Badge, Button, Code, Drawer, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { subscribeLive } from '../../../src/client/admin-client';
import { envelope, useCall, useSession } from '../lib/api';
import { sessionStamp } from '../lib/session-key';

type TActivity = Awaited<ReturnType<ReturnType<typeof useSession>['client']['activities']['list']['query']>>['activities'][number];

/** Shade 9 (outline: coloured text on white) keeps every badge above WCAG AA contrast. */
const STATUS_COLORS: Record<string, string> = { COMPLETED: 'teal.9', FAILED: 'red.9', CONSENSUS_NEEDED: 'grape.9', REJECTED: 'gray.8', CREATED: 'blue.9', PENDING: 'blue.9' };
export const StatusBadge = ({ status }: { status: string }) => {
  const s = status.replace('ACTIVITY_STATUS_', '');
  return <Badge color={STATUS_COLORS[s] ?? 'blue.9'} variant="outline">{s}</Badge>;
};

export default function Activities() {
  const s = useSession();
  const [status, setStatus] = useState<string | null>(null);
  const [type, setType] = useState('');
  const [orgId, setOrgId] = useState(s.organizationId);
  const [userId, setUserId] = useState<string | null>(null);
  const [live, setLive] = useState<Map<string, TActivity>>(new Map());
  const [open, setOpen] = useState<TActivity | null>(null);
  const filter = { organizationId: orgId, ...(userId ? { filterByUserIds: [userId] } : {}), paginationOptions: { limit: '50' } };
  const { data, error, reload } = useCall((c) => c.client.activities.list.query(filter), [orgId, userId]);
  const orgs = useCall((c) => c.client.overview.summary.query({ organizationId: c.organizationId, pageSize: 100 }), []);
  const users = useCall((c) => c.client.users.list.query({ organizationId: orgId }), [orgId]);
  useEffect(() => {
    setLive(new Map());
    return subscribeLive({ baseUrl: '', stamp: sessionStamp(s.session.keyPair, s.session.publicKey) }, filter, {
      onData: (d) => setLive((m) => new Map([...m, ...(d.activities as TActivity[]).map((a) => [a.id, a] as const)])),
      onError: (e) => void s.report(e),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orgId, userId]);
  const orgOptions = orgs.data
    ? [{ value: orgs.data.organization.organizationId, label: `${orgs.data.organization.name} (this organization)` }, ...orgs.data.subOrganizations.rows.map((r) => ({ value: r.organizationId, label: r.name }))]
    : [{ value: s.organizationId, label: 'this organization' }];
  const rows = useMemo(() => {
    const all = new Map((data?.activities ?? []).map((a) => [a.id, a]));
    for (const [id, a] of live) all.set(id, a);
    return [...all.values()]
      .filter((a) => (!status || a.status === status) && (!type || a.type.includes(type.toUpperCase())))
      .sort((a, b) => Number(b.createdAt.seconds) - Number(a.createdAt.seconds) || b.id.localeCompare(a.id));
  }, [data, live, status, type]);
  return (
    <>
      <Title order={2} mb="md">Activities</Title>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <Group mb="sm">
        <Select aria-label="filter by status" placeholder="any status" clearable value={status} onChange={setStatus}
          data={['COMPLETED', 'CONSENSUS_NEEDED', 'FAILED', 'REJECTED'].map((v) => ({ value: `ACTIVITY_STATUS_${v}`, label: v }))} />
        <TextInput aria-label="filter by type" placeholder="type, e.g. CREATE_WALLET" value={type} onChange={(e) => setType(e.currentTarget.value)} />
        <Select aria-label="filter by sub-organization" searchable allowDeselect={false} value={orgId} data={orgOptions} onDropdownOpen={orgs.reload}
          onChange={(v) => (setOrgId(v ?? s.organizationId), setUserId(null))} />
        <Select aria-label="filter by user" placeholder="any user" searchable clearable value={userId} onChange={setUserId} onDropdownOpen={users.reload}
          data={(users.data?.users ?? []).map((u) => ({ value: u.userId, label: u.userName }))} />
      </Group>
      <Table striped highlightOnHover aria-label="activities">
        <Table.Thead><Table.Tr><Table.Th>Type</Table.Th><Table.Th>Status</Table.Th><Table.Th>Created</Table.Th><Table.Th>Id</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {rows.map((a) => (
            <Table.Tr key={a.id} onClick={() => setOpen(a)} style={{ cursor: 'pointer' }} data-activity-id={a.id}>
              <Table.Td><Button variant="subtle" size="compact-sm" onClick={() => setOpen(a)}>{a.type.replace('ACTIVITY_TYPE_', '')}</Button></Table.Td>
              <Table.Td><StatusBadge status={a.status} /></Table.Td>
              <Table.Td>{new Date(Number(a.createdAt.seconds) * 1000).toLocaleString()}</Table.Td>
              <Table.Td><Text size="xs" ff="monospace">{a.id}</Text></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Drawer opened={open !== null} onClose={() => setOpen(null)} position="right" size="lg" title="Activity">
        {open && <ActivityDetail id={open.id} organizationId={open.organizationId} onVoted={() => (reload(), setOpen(null))} />}
      </Drawer>
    </>
  );
}

function ActivityDetail(props: { id: string; organizationId: string; onVoted: () => void }) {
  const s = useSession();
  const { data, error } = useCall((c) => Promise.all([c.client.activities.get.query({ organizationId: props.organizationId, activityId: props.id }), c.client.activities.evaluations.query({ organizationId: props.organizationId, activityId: props.id })]), [props.id]);
  const [outcome, setOutcome] = useState<string>();
  const vote = async (kind: 'approve' | 'reject') => {
    const a = data![0].activity;
    try {
      const r = await s.client.activities[kind].mutate(envelope(kind === 'approve' ? 'ACTIVITY_TYPE_APPROVE_ACTIVITY' : 'ACTIVITY_TYPE_REJECT_ACTIVITY', props.organizationId, { fingerprint: a.fingerprint }));
      setOutcome(`${kind === 'approve' ? 'Approved' : 'Rejected'}: the activity is now ${r.activity.status.replace('ACTIVITY_STATUS_', '')}`);
      setTimeout(props.onVoted, 800);
    } catch (e) {
      setOutcome(s.report(e));
    }
  };
  if (error) return <Alert color="red" role="alert">{error}</Alert>;
  if (!data) return <Text>Loading…</Text>;
  const [{ activity: a }, { policyEvaluations }] = data;
  return (
    <Stack>
      <Group><StatusBadge status={a.status} /><Text ff="monospace" size="xs">{a.id}</Text></Group>
      <Text fw={600}>{a.type}</Text>
      {a.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED' && (
        <Group>
          <Button color="teal" onClick={() => void vote('approve')} disabled={!a.canApprove}>Approve</Button>
          <Button color="red" variant="outline" onClick={() => void vote('reject')} disabled={!a.canReject}>Reject</Button>
        </Group>
      )}
      {outcome && <Alert role="status">{outcome}</Alert>}
      <Title order={3} size="h6">Intent</Title>
      <Code block>{JSON.stringify(a.intent, null, 2)}</Code>
      {a.failure ? (<><Title order={3} size="h6">Failure</Title><Code block>{JSON.stringify(a.failure, null, 2)}</Code></>) : (<><Title order={3} size="h6">Result</Title><Code block>{JSON.stringify(a.result, null, 2)}</Code></>)}
      <Title order={3} size="h6">Votes</Title>
      <Code block>{JSON.stringify(a.votes?.map((v) => ({ user: v.userId, selection: v.selection })) ?? [], null, 2)}</Code>
      <Title order={3} size="h6">Policies that decided it</Title>
      <Code block>{JSON.stringify(policyEvaluations.map((e) => ({ outcome: e.outcome, policies: e.policyEvaluations })), null, 2)}</Code>
    </Stack>
  );
}
