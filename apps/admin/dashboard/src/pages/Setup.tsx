/** The one-time setup link: the bootstrap root user registers a passkey, then is signed in with it. */
import { Alert, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { createAdminClient } from '../../../src/client/admin-client';
import { passkeyStamp, registerPasskey } from '../lib/passkey';
import type { TSession } from '../lib/session-key';
import { signInWith } from '../lib/sign-in';

export default function Setup(props: { token: string; onSignedIn: (s: TSession) => void }) {
  const client = createAdminClient({ baseUrl: '' });
  const [info, setInfo] = useState<{ organizationId: string; userId: string; expiresAt: string; canRegister: boolean }>();
  const [name, setName] = useState('my passkey');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    client.session.setupInfo.query({ token: props.token }).then(setInfo, (e: Error) => setError(e.message));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.token]);
  const go = async () => {
    if (!info) return;
    setBusy(true);
    setError(undefined);
    try {
      const authenticator = await registerPasskey({ userId: info.userId, userName: 'root', authenticatorName: name });
      const { activity } = await client.session.setupRegisterPasskey.mutate({ token: props.token, authenticator });
      if (activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error(`registration ended ${activity.status}`);
      props.onSignedIn(await signInWith(passkeyStamp, info.organizationId));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center mih="100vh" component="main">
      <Paper withBorder shadow="sm" p="xl" w={460}>
        <Stack>
          <Title order={1} size="h2">Set up the root user</Title>
          {info && (
            <Text size="sm">
              Register a passkey for the root user of organization <b>{info.organizationId}</b>. This link works once, until {new Date(info.expiresAt).toLocaleTimeString()}.
            </Text>
          )}
          <TextInput label="Passkey name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Button onClick={() => void go()} loading={busy} disabled={!info || !info.canRegister || !name}>
            Register a passkey and sign in
          </Button>
          {error && (
            <Alert color="red" title="Setup refused" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
