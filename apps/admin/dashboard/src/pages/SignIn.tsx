/**
 * Sign-in as a user of the organization: with a passkey (its stamp signs stamp_login for a session
 * key made here), or with a code mailed to the user's e-mail address (init_otp / verify_otp bind
 * the code to a session key made here, which then signs its own stamp_login, X-Stamp-Attested).
 */
import { Alert, Button, Center, Divider, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { createAdminClient, errorCodeOf } from '../../../src/client/admin-client';
import { passkeyStamp } from '../lib/passkey';
import { attestedStamp, newSessionKey, type TSession } from '../lib/session-key';
import { signInWith } from '../lib/sign-in';

const anonymous = () => createAdminClient({ baseUrl: '' });
const CODE_LENGTH = 6;

export function SignIn(props: { onSignedIn: (s: TSession) => void }) {
  const [organizationId, setOrganizationId] = useState('');
  const [email, setEmail] = useState('');
  const [otp, setOtp] = useState<{ otpId: string; email: string }>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<'passkey' | 'send' | 'code'>();
  useEffect(() => {
    anonymous()
      .session.config.query()
      .then((c) => setOrganizationId((o) => o || c.rootOrganizationId), () => undefined);
  }, []);
  const run = async (what: 'passkey' | 'send' | 'code', work: () => Promise<void>) => {
    setBusy(what);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      const c = errorCodeOf(e);
      setError(`${c && c !== 'BAD_REQUEST' ? `${c}: ` : ''}${(e as Error).message}`);
    } finally {
      setBusy(undefined);
    }
  };
  const withPasskey = () => run('passkey', async () => props.onSignedIn(await signInWith(passkeyStamp, organizationId.trim())));
  const sendCode = () =>
    run('send', async () => {
      const { otpId } = await anonymous().session.otpInit.mutate({ organizationId: organizationId.trim(), email: email.trim() });
      setOtp({ otpId, email: email.trim() });
      setCode('');
    });
  const withCode = () =>
    run('code', async () => {
      if (!otp) return;
      const key = await newSessionKey();
      const { verificationToken } = await anonymous().session.otpVerify.mutate({ organizationId: organizationId.trim(), otpId: otp.otpId, otpCode: code, publicKey: key.publicKey });
      props.onSignedIn(await signInWith(attestedStamp(key.keyPair, key.publicKey, verificationToken), organizationId.trim(), key));
    });
  return (
    <Center mih="100vh" component="main">
      <Paper withBorder shadow="sm" p="xl" w={440}>
        <Stack>
          <Title order={1} size="h2">Latchkey admin</Title>
          <Text c="dark.6" size="sm">Sign in as a user of your organization. Every action you take is an activity signed by you.</Text>
          <TextInput label="Organization id" value={organizationId} onChange={(e) => setOrganizationId(e.currentTarget.value)} />
          <Button onClick={() => void withPasskey()} loading={busy === 'passkey'} disabled={!organizationId}>
            Sign in with a passkey
          </Button>
          <Divider
            labelPosition="center"
            label={
              <Text size="xs" c="dark.6">
                or with a code sent by e-mail
              </Text>
            }
          />
          {!otp ? (
            <Group align="end" wrap="nowrap">
              <TextInput style={{ flex: 1 }} label="E-mail address" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
              <Button variant="default" onClick={() => void sendCode()} loading={busy === 'send'} disabled={!organizationId || !email}>
                Send a code
              </Button>
            </Group>
          ) : (
            <Stack gap="xs">
              <Text size="sm" role="status">
                If a user of this organization has the address {otp.email}, a {CODE_LENGTH}-digit code is on its way. It works for 5 minutes.
              </Text>
              <TextInput
                label="Code from the e-mail"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={CODE_LENGTH}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
              />
              <Group>
                <Button onClick={() => void withCode()} loading={busy === 'code'} disabled={code.length !== CODE_LENGTH}>
                  Sign in with the code
                </Button>
                <Button variant="default" onClick={() => (setOtp(undefined), setError(undefined))}>
                  Use another address
                </Button>
              </Group>
            </Stack>
          )}
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
