/** Users & credentials: users with their API keys and passkeys; an API key added to a user (as an activity). */
import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

export default function Users() {
  const s = useSession();
  const { data, error, reload } = useCall((c) => c.client.users.list.query({ organizationId: c.organizationId }));
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
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
      {message && <Alert role="status" mb="md">{message}</Alert>}
      <Stack>
        {(data?.users ?? []).map((u) => (
          <Card withBorder key={u.userId}>
            <Group justify="space-between"><Text fw={600}>{u.userName}</Text><Text size="xs" ff="monospace">{u.userId}</Text></Group>
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
    </>
  );
}
