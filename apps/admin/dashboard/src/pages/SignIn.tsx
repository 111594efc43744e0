/** Sign-in: a passkey of a user of the organization (its stamp signs stamp_login for a session key made here). */
import { Alert, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { createAdminClient } from '../../../src/client/admin-client';
import { passkeyStamp } from '../lib/passkey';
import type { TSession } from '../lib/session-key';
import { signInWith } from '../lib/sign-in';

export function SignIn(props: { onSignedIn: (s: TSession) => void }) {
  const [organizationId, setOrganizationId] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    createAdminClient({ baseUrl: '' })
      .session.config.query()
      .then((c) => setOrganizationId((o) => o || c.rootOrganizationId), () => undefined);
  }, []);
  const go = async () => {
    setBusy(true);
    setError(undefined);
    try {
      props.onSignedIn(await signInWith(passkeyStamp, organizationId.trim()));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center mih="100vh" component="main">
      <Paper withBorder shadow="sm" p="xl" w={420}>
        <Stack>
          <Title order={1} size="h2">Latchkey admin</Title>
          <Text c="dark.6" size="sm">Sign in with a passkey of a user of your organization. Every action you take is an activity signed by you.</Text>
          <TextInput label="Organization id" value={organizationId} onChange={(e) => setOrganizationId(e.currentTarget.value)} />
          <Button onClick={() => void go()} loading={busy} disabled={!organizationId}>
            Sign in with a passkey
          </Button>
          {error && (
            <Alert color="red" title="Sign-in refused" role="alert">
              {error}
            </Alert>
          )}
          <Text size="xs" c="dark.6">First time? Open the one-time link `npm start` printed, or run `npm run latchkey -- admin link`.</Text>
        </Stack>
      </Paper>
    </Center>
  );
}
