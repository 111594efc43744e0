/** Webhooks: endpoints (create, delete), each one's delivery log and dead letters with Redeliver, and the signing key. */
import { Alert, Badge, Button, Card, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

export default function Webhooks() {
  const s = useSession();
  const { data, error, reload } = useCall((c) => Promise.all([c.client.webhooks.list.query({ organizationId: c.organizationId }), c.client.webhooks.signing.query({ organizationId: c.organizationId })]));
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [message, setMessage] = useState<string>();
  const create = async () => {
    try {
      const { activity } = await s.client.webhooks.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', s.organizationId, { name, url, subscriptions: [{ eventType: 'ACTIVITY_UPDATES' as const }] }) as never);
      setMessage(`create_webhook_endpoint: ${activity.status.replace('ACTIVITY_STATUS_', '')}`);
      reload();
    } catch (e) {
      setMessage(s.report(e));
    }
  };
  return (
    <>
      <Title order={2} mb="md">Webhooks</Title>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      {data && <Text size="sm" mb="md">Signing key <Code>{data[1].keyId ?? 'none'}</Code> — receivers verify with <Code>{data[1].jwksUrl}</Code></Text>}
      <Group align="end" mb="md">
        <TextInput label="Endpoint name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="URL" w={360} value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
        <Button onClick={() => void create()} disabled={!name || !url}>Add endpoint</Button>
      </Group>
      {message && <Alert role="status" mb="md">{message}</Alert>}
      <Stack>
        {(data?.[0].webhookEndpoints ?? []).map((e) => <Endpoint key={e.endpointId} endpoint={e} />)}
      </Stack>
    </>
  );
}

function Endpoint(props: { endpoint: { endpointId: string; name: string; url: string; isActive: boolean } }) {
  const s = useSession();
  const { endpointId } = props.endpoint;
  const { data, reload } = useCall((c) => Promise.all([c.client.webhooks.log.query({ organizationId: c.organizationId, endpointId, limit: 20 }), c.client.webhooks.deadLetters.query({ organizationId: c.organizationId, endpointId })]), [endpointId]);
  const [note, setNote] = useState<string>();
  const redeliver = async (eventId?: string) => {
    try {
      const r = await s.client.webhooks.redeliver.mutate({ organizationId: s.organizationId, endpointId, ...(eventId ? { eventId } : {}) });
      setNote(`queued ${r.redelivered} again`);
      setTimeout(reload, 1000);
    } catch (e) {
      setNote(s.report(e));
    }
  };
  return (
    <Card withBorder aria-label={`endpoint ${props.endpoint.name}`}>
      <Group justify="space-between">
        <Group><Text fw={600}>{props.endpoint.name}</Text><Badge variant="outline" color={props.endpoint.isActive ? 'teal.9' : 'gray.8'}>{props.endpoint.isActive ? 'active' : 'inactive'}</Badge></Group>
        <Group><Button size="compact-sm" variant="default" onClick={reload}>Refresh</Button><Button size="compact-sm" variant="light" disabled={!data?.[1].messages.length} onClick={() => void redeliver()}>Redeliver dead letters ({data?.[1].messages.length ?? 0})</Button></Group>
      </Group>
      <Text size="sm" ff="monospace">{props.endpoint.url}</Text>
      {note && <Alert role="status" mt="xs">{note}</Alert>}
      <Table mt="sm" striped aria-label="delivery log">
        <Table.Thead><Table.Tr><Table.Th>At</Table.Th><Table.Th>Event</Table.Th><Table.Th>Attempt</Table.Th><Table.Th>Status</Table.Th><Table.Th>Latency</Table.Th><Table.Th /></Table.Tr></Table.Thead>
        <Table.Tbody>
          {(data?.[0].entries ?? []).map((e) => (
            <Table.Tr key={`${e.eventId}-${e.attempt}-${e.at}`}>
              <Table.Td>{new Date(e.at).toLocaleTimeString()}</Table.Td><Table.Td><Text size="xs" ff="monospace">{e.eventId}</Text></Table.Td>
              <Table.Td>{e.attempt}</Table.Td><Table.Td>{e.statusCode ?? e.error}</Table.Td><Table.Td>{e.latencyMs} ms</Table.Td>
              <Table.Td><Button size="compact-xs" variant="subtle" onClick={() => void redeliver(e.eventId)}>Redeliver</Button></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
