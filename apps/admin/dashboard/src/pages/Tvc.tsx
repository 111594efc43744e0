/**
 * TVC: the organization's apps (operator sets, live deployment), one app's deployments with their
 * manifest approvals by operator, and the control plane's activities signed by you — set a
 * deployment live, delete one (with confirmation), restore it. Approvals are signatures operators
 * make with their own keys, elsewhere; this page shows them.
 */
import { Alert, Badge, Button, Card, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { tvcDeploymentLabel, type TTvcDeploymentLabel } from '../../../src/client/tvc-state';
import { envelope, useCall, useSession } from '../lib/api';

/** Shade 9 outline badges keep WCAG AA contrast (as the activity statuses). */
const LABEL_COLORS: Record<TTvcDeploymentLabel, string> = { CREATED: 'blue.9', APPROVED: 'teal.9', LIVE: 'grape.9', DELETED: 'gray.8' };
const tail = (id: string) => `…${id.slice(-12)}`;

export default function Tvc() {
  const s = useSession();
  const apps = useCall((c) => c.client.tvc.apps.query({ organizationId: c.organizationId }));
  const [appId, setAppId] = useState<string | null>(null);
  const app = apps.data?.tvcApps.find((a) => a.id === appId) ?? apps.data?.tvcApps[0];
  const deployments = useCall(async (c) => (app ? c.client.tvc.deployments.query({ organizationId: c.organizationId, appId: app.id }) : { tvcDeployments: [] }), [app?.id]);
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const [deleting, setDeleting] = useState<string | null>(null);
  const act = async (kind: 'setLive' | 'deleteDeployment' | 'restoreDeployment', deploymentId: string) => {
    const p = { deploymentId };
    try {
      const { activity } =
        kind === 'setLive'
          ? await s.client.tvc.setLive.mutate(envelope('ACTIVITY_TYPE_UPDATE_TVC_APP_LIVE_DEPLOYMENT', s.organizationId, p))
          : kind === 'deleteDeployment'
            ? await s.client.tvc.deleteDeployment.mutate(envelope('ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT', s.organizationId, p))
            : await s.client.tvc.restoreDeployment.mutate(envelope('ACTIVITY_TYPE_RESTORE_TVC_DEPLOYMENT', s.organizationId, p));
      setMessage({ ok: activity.status === 'ACTIVITY_STATUS_COMPLETED', text: `${kind}: ${activity.status.replace('ACTIVITY_STATUS_', '')}` });
      apps.reload();
      deployments.reload();
    } catch (e) {
      setMessage({ ok: false, text: s.report(e) });
    }
  };
  return (
    <>
      <Title order={2} mb="md">TVC</Title>
      {apps.error && <Alert color="red" role="alert">{apps.error}</Alert>}
      <Card withBorder mb="md">
        <Title order={3} size="h5" mb="sm">Apps ({apps.data?.tvcApps.length ?? 0})</Title>
        <Table striped aria-label="TVC apps">
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Manifest set</Table.Th><Table.Th>Share set</Table.Th><Table.Th>Live deployment</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {(apps.data?.tvcApps ?? []).map((a) => (
              <Table.Tr key={a.id} data-tvc-app-id={a.id}>
                <Table.Td>{a.name}</Table.Td>
                <Table.Td>{a.manifestSet.name}: {a.manifestSet.threshold} of {a.manifestSet.operators.length}</Table.Td>
                <Table.Td>{a.shareSet.name}: {a.shareSet.threshold} of {a.shareSet.operators.length}</Table.Td>
                <Table.Td><Text size="xs" ff="monospace">{a.liveDeploymentId ? tail(a.liveDeploymentId) : 'none'}</Text></Table.Td>
                <Table.Td><Button size="compact-sm" variant={a.id === app?.id ? 'filled' : 'default'} onClick={() => setAppId(a.id)}>Deployments of {a.name}</Button></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {apps.data?.tvcApps.length === 0 && <Text size="sm" mt="sm">No TVC app yet: create one with create_tvc_app (sdk-server's createTvcApp).</Text>}
      </Card>
      {message && <Alert color={message.ok ? 'teal' : 'red'} role="status" mb="md">{message.text}</Alert>}
      {app && (
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">Deployments of {app.name}</Title>
          {deployments.error && <Alert color="red" role="alert">{deployments.error}</Alert>}
          <Table striped aria-label="TVC deployments">
            <Table.Thead><Table.Tr><Table.Th>Id</Table.Th><Table.Th>State</Table.Th><Table.Th>QOS</Table.Th><Table.Th>Image</Table.Th><Table.Th>Approvals</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {(deployments.data?.tvcDeployments ?? []).map((d) => {
                const label = tvcDeploymentLabel(d, app);
                return (
                  <Table.Tr key={d.id} data-tvc-deployment-id={d.id}>
                    <Table.Td><Text size="xs" ff="monospace">{tail(d.id)}</Text></Table.Td>
                    <Table.Td><Badge variant="outline" color={LABEL_COLORS[label]}>{label}</Badge></Table.Td>
                    <Table.Td>{d.qosVersion}</Table.Td>
                    <Table.Td><Text size="xs" ff="monospace" maw={260} truncate="end">{d.pivotContainer.containerUrl}</Text></Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text size="sm">{new Set(d.manifestApprovals.map((x) => x.operator.id)).size} of {d.manifestSet.threshold} needed</Text>
                        <Text size="xs" c="dark.6">{d.manifestApprovals.map((x) => x.operator.name).join(', ') || 'no operator has signed'}</Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {label === 'APPROVED' && <Button size="compact-sm" onClick={() => void act('setLive', d.id)}>Set live</Button>}
                        {label === 'DELETED' ? (
                          <Button size="compact-sm" variant="default" onClick={() => void act('restoreDeployment', d.id)}>Restore</Button>
                        ) : (
                          <Button size="compact-sm" color="red" variant="subtle" onClick={() => setDeleting(d.id)}>Delete</Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete deployment">
        <Text mb="md">Delete deployment {deleting ? tail(deleting) : ''}? A live deployment cannot be deleted; a deleted one can be restored.</Text>
        <Group justify="end">
          <Button variant="default" onClick={() => setDeleting(null)}>Cancel</Button>
          <Button color="red" onClick={() => void (deleting && act('deleteDeployment', deleting).then(() => setDeleting(null)))}>Delete</Button>
        </Group>
      </Modal>
    </>
  );
}
