/** Wallets & keys: the list, a wallet created (validated with the API's own schema) and deleted with confirmation. */
import { Alert, Button, Group, Modal, Table, Text, TextInput, Title } from '@mantine/core';
import { ZCreateWalletIntentSchema } from '@latchkey/domain';
import { useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

const ETH_ACCOUNT = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;

export default function Wallets() {
  const s = useSession();
  const { data, error, reload } = useCall((c) => c.client.wallets.list.query({ organizationId: c.organizationId }));
  const [name, setName] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const [deleting, setDeleting] = useState<{ walletId: string; walletName: string } | null>(null);
  const parsed = ZCreateWalletIntentSchema.safeParse({ walletName: name, accounts: [ETH_ACCOUNT] });
  const create = async () => {
    try {
      const { activity } = await s.client.wallets.create.mutate(envelope('ACTIVITY_TYPE_CREATE_WALLET', s.organizationId, { walletName: name, accounts: [ETH_ACCOUNT] }));
      setMessage({ ok: true, text: `create_wallet: ${activity.status.replace('ACTIVITY_STATUS_', '')}` });
      setName('');
      reload();
    } catch (e) {
      setMessage({ ok: false, text: s.report(e) });
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      const { activity } = await s.client.wallets.delete.mutate(envelope('ACTIVITY_TYPE_DELETE_WALLETS', s.organizationId, { walletIds: [deleting.walletId], deleteWithoutExport: true }));
      setMessage({ ok: true, text: `delete_wallets: ${activity.status.replace('ACTIVITY_STATUS_', '')}` });
      reload();
    } catch (e) {
      setMessage({ ok: false, text: s.report(e) });
    }
    setDeleting(null);
  };
  return (
    <>
      <Title order={2} mb="md">Wallets & keys</Title>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <Group align="end" mb="md">
        <TextInput label="New wallet name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={name && !parsed.success ? parsed.error.issues[0]?.message : undefined} />
        <Button onClick={() => void create()} disabled={!name || !parsed.success}>Create wallet</Button>
      </Group>
      {message && <Alert color={message.ok ? 'teal' : 'red'} role="status" mb="md">{message.text}</Alert>}
      <Table striped aria-label="wallets">
        <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Id</Table.Th><Table.Th>Created</Table.Th><Table.Th /></Table.Tr></Table.Thead>
        <Table.Tbody>
          {(data?.wallets ?? []).map((w) => (
            <Table.Tr key={w.walletId}>
              <Table.Td>{w.walletName}</Table.Td>
              <Table.Td><Text size="xs" ff="monospace">{w.walletId}</Text></Table.Td>
              <Table.Td>{new Date(Number(w.createdAt.seconds) * 1000).toLocaleString()}</Table.Td>
              <Table.Td><Button size="compact-sm" color="red" variant="subtle" onClick={() => setDeleting(w)}>Delete</Button></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete wallet">
        <Text mb="md">Delete {deleting?.walletName}? Its keys are gone for good unless it was exported.</Text>
        <Group justify="end"><Button variant="default" onClick={() => setDeleting(null)}>Cancel</Button><Button color="red" onClick={() => void remove()}>Delete</Button></Group>
      </Modal>
    </>
  );
}
