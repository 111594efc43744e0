/**
 * Auth (the AUTH section): enable or disable the organization's auth proxy, its config id, allowed
 * origins (exact URLs, or `*`), allowed methods, e-mail sender, OTP length / alphanumeric /
 * lifetimes, session lifetime and captcha — saved with update_auth_proxy_config, validated first
 * with the API's own schema.
 */
import { Alert, Button, Card, Checkbox, Group, MultiSelect, NumberInput, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { AUTH_PROXY_METHODS, ZUpdateAuthProxyConfigIntentSchema, type TUpdateAuthProxyConfigIntent } from '@latchkey/domain';
import { useEffect, useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

export default function Auth() {
  const s = useSession();
  const { data, error, reload } = useCall((c) => c.client.auth.config.query({ organizationId: c.organizationId }).catch((e: unknown) => ((e as { data?: { httpStatus?: number } }).data?.httpStatus === 404 ? null : Promise.reject(e))));
  const [form, setForm] = useState<TUpdateAuthProxyConfigIntent>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  useEffect(() => {
    if (!data) return;
    const c = data.authProxyConfig;
    setForm({ allowedOrigins: c.allowedOrigins, allowedAuthMethods: c.allowedAuthMethods as never, sendFromEmailAddress: c.sendFromEmailAddress, sendFromEmailSenderName: c.sendFromEmailSenderName, otpLength: c.otpLength, otpAlphanumeric: c.otpAlphanumeric, otpExpirationSeconds: c.otpExpirationSeconds, sessionExpirationSeconds: c.sessionExpirationSeconds, captchaEnabled: c.captchaEnabled });
  }, [data]);
  const parsed = ZUpdateAuthProxyConfigIntentSchema.safeParse(form);
  const submit = async (what: 'enable' | 'disable' | 'update') => {
    try {
      const r =
        what === 'update'
          ? await s.client.auth.update.mutate(envelope('ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', s.organizationId, Object.fromEntries(Object.entries(form).filter(([, v]) => v !== undefined && v !== ''))))
          : await s.client.auth[what].mutate(envelope(what === 'enable' ? 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY' : 'ACTIVITY_TYPE_DISABLE_AUTH_PROXY', s.organizationId, {}));
      setMessage({ ok: true, text: `${what}: ${r.activity.status.replace('ACTIVITY_STATUS_', '')}` });
      reload();
    } catch (e) {
      setMessage({ ok: false, text: s.report(e) });
    }
  };
  const any = form.allowedOrigins?.includes('*') ?? false;
  return (
    <>
      <Title order={2} mb="md">Auth</Title>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      {message && <Alert color={message.ok ? 'teal' : 'red'} role="status" mb="md">{message.text}</Alert>}
      <Card withBorder mb="md">
        <Group justify="space-between">
          <Switch label="Auth proxy enabled" checked={Boolean(data)} onChange={(e) => void submit(e.currentTarget.checked ? 'enable' : 'disable')} />
          {data && <Text size="sm">Config id <Text span ff="monospace">{data.authProxyConfig.configId}</Text></Text>}
        </Group>
      </Card>
      {data && (
        <Card withBorder>
          <Stack>
            <Switch label="Allow any origin (*)" checked={any} onChange={(e) => setForm({ ...form, allowedOrigins: e.currentTarget.checked ? ['*'] : [] })} />
            {!any && <TagsInput label="Allowed origins (exact URLs, Enter to add)" value={form.allowedOrigins ?? []} onChange={(v) => setForm({ ...form, allowedOrigins: v })} error={!parsed.success ? parsed.error.issues.find((i) => i.path[0] === 'allowedOrigins')?.message : undefined} />}
            <MultiSelect label="Allowed methods" data={[...AUTH_PROXY_METHODS]} value={form.allowedAuthMethods ?? []} onChange={(v) => setForm({ ...form, allowedAuthMethods: v as never })} />
            <Group grow>
              <TextInput label="E-mail sender address" value={form.sendFromEmailAddress ?? ''} onChange={(e) => setForm({ ...form, sendFromEmailAddress: e.currentTarget.value || undefined })} />
              <TextInput label="E-mail sender name" value={form.sendFromEmailSenderName ?? ''} onChange={(e) => setForm({ ...form, sendFromEmailSenderName: e.currentTarget.value || undefined })} />
            </Group>
            <Group grow>
              <NumberInput label="OTP length" min={6} max={9} value={form.otpLength} onChange={(v) => setForm({ ...form, otpLength: Number(v) })} />
              <NumberInput label="OTP lifetime (s)" value={form.otpExpirationSeconds} onChange={(v) => setForm({ ...form, otpExpirationSeconds: Number(v) })} />
              <NumberInput label="Session lifetime (s)" value={form.sessionExpirationSeconds} onChange={(v) => setForm({ ...form, sessionExpirationSeconds: Number(v) })} />
            </Group>
            <Group>
              <Checkbox label="Alphanumeric OTP" checked={form.otpAlphanumeric ?? false} onChange={(e) => setForm({ ...form, otpAlphanumeric: e.currentTarget.checked })} />
              <Checkbox label="Captcha" checked={form.captchaEnabled ?? false} onChange={(e) => setForm({ ...form, captchaEnabled: e.currentTarget.checked })} />
            </Group>
            <Group><Button onClick={() => void submit('update')} disabled={!parsed.success}>Save</Button></Group>
          </Stack>
        </Card>
      )}
    </>
  );
}
