/**
 * Users & credentials: users with their API keys and passkeys; a user created (validated with the
 * API's own schema) or deleted with confirmation, an API key added to a user — each an activity.
 */
import { Alert, Badge, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { ZUserParamsSchema } from '@latchkey/domain';
import { useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

export default function Users() {
  const s = useSession();
  const { data, error, reload } = useCall((c) => c.client.users.list.query({ organizationId: c.organizationId }));
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const [newUser, setNewUser] = useState({ userName: '', userEmail: '' });
  const [deleting, setDeleting] = useState<{ userId: string; userName: string } | null>(null);
  const userParams = { userName: newUser.userName, ...(newUser.userEmail ? { userEmail: newUser.userEmail } : {}), apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] };
  const parsed = ZUserParamsSchema.safeParse(userParams);
  const fieldError = (field: string) => (parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field)?.message);
  const createUser = async () => {
    try {
      const { activity } = await s.client.users.create.mutate(envelope('ACTIVITY_TYPE_CREATE_USERS_V4', s.organizationId, { users: [userParams] }));
      setMessage(`create_users: ${activity.status.replace('ACTIVITY_STATUS_', '')}`);
      setNewUser({ userName: '', userEmail: '' });
      reload();
    } catch (e) {
      setMessage(s.report(e));
    }
  };
  const deleteUser = async () => {
    if (!deleting) return;
    try {
      const { activity } = await s.client.users.delete.mutate(envelope('ACTIVITY_TYPE_DELETE_USERS', s.organizationId, { userIds: [deleting.userId] }));
      setMessage(`delete_users: ${activity.status.replace('ACTIVITY_STATUS_', '')}`);
      reload();
    } catch (e) {
      setMessage(s.report(e));
    }
    setDeleting(null);
  };
  const addKey = async (userId: string) => {
    try {
      const { activity } = await s.client.users.createApiKeys.mutate(
        envelope('ACTIVITY_TYPE_CREATE_API_KEYS_V2', s.organizationId, { userId, apiKeys: [{ apiKeyName: `key ${new Date().toISOString()}`, publicKey: keys[userId] ?? '', curveType: 'API_KEY_CURVE_P256' as const }] }),
      );
      setMessage(`create_api_keys: ${activity.status.replace('ACTIVITY_STATUS_', '')}`);
      reload();
    } catch (e) {
      setMessage(s.report(e));
    }
  };
  return (
    <>
      <Title order={2} mb="md">Users & credentials</Title>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <Group align="start" mb="md">
        <TextInput label="New user's name" value={newUser.userName} onChange={(e) => setNewUser({ ...newUser, userName: e.currentTarget.value })} error={newUser.userName ? fieldError('userName') : undefined} />
        <TextInput label="E-mail (optional)" value={newUser.userEmail} onChange={(e) => setNewUser({ ...newUser, userEmail: e.currentTarget.value })} error={newUser.userEmail ? fieldError('userEmail') : undefined} />
        <Button mt={25} onClick={() => void createUser()} disabled={!newUser.userName || !parsed.success}>Create user</Button>
      </Group>
      {message && <Alert role="status" mb="md">{message}</Alert>}
      <Stack>
        {(data?.users ?? []).map((u) => (
          <Card withBorder key={u.userId}>
            <Group justify="space-between">
              <Text fw={600}>{u.userName}</Text>
              <Group gap="xs"><Text size="xs" ff="monospace">{u.userId}</Text><Button size="compact-sm" color="red" variant="subtle" onClick={() => setDeleting(u)}>Delete user</Button></Group>
            </Group>
            {u.userEmail && <Text size="sm">{u.userEmail}</Text>}
            <Group gap="xs" mt="xs">
              {u.apiKeys.map((k) => <Badge key={k.apiKeyId} variant="outline" color="indigo.9">API key: {k.apiKeyName}</Badge>)}
              {u.authenticators.map((a) => <Badge key={a.authenticatorId} color="grape.9" variant="outline">passkey: {a.authenticatorName}</Badge>)}
            </Group>
            <Group align="end" mt="sm">
              <TextInput label="Add an API key (compressed P-256 public key, hex)" w={420} value={keys[u.userId] ?? ''} onChange={(e) => setKeys({ ...keys, [u.userId]: e.currentTarget.value })} />
              <Button variant="light" disabled={!/^0[23][0-9a-fA-F]{64}$/.test(keys[u.userId] ?? '')} onClick={() => void addKey(u.userId)}>Add API key</Button>
            </Group>
          </Card>
        ))}
      </Stack>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete user">
        <Text mb="md">Delete {deleting?.userName}? Their API keys and passkeys stop working at once.</Text>
        <Group justify="end"><Button variant="default" onClick={() => setDeleting(null)}>Cancel</Button><Button color="red" onClick={() => void deleteUser()}>Delete</Button></Group>
      </Modal>
    </>
  );
}
