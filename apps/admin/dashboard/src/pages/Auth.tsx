/**
 * Auth (the AUTH section): enable or disable the organization's auth proxy, its config id, allowed
 * origins (exact URLs, or `*`), allowed methods, e-mail sender and template customization with a
 * preview (rendered by the server's own templates), SMS customization, OTP length / alphanumeric /
 * lifetimes, session lifetime, OAuth client ids and redirect URL, social linking client ids and
 * captcha — saved with update_auth_proxy_config, validated first with the API's own schema.
 */
import { Alert, Button, Card, Checkbox, Group, MultiSelect, NumberInput, Stack, Switch, TagsInput, Text, TextInput, Textarea, Title } from '@mantine/core';
import { AUTH_PROXY_METHODS, AUTH_PROXY_SOCIAL_PROVIDERS, ZUpdateAuthProxyConfigIntentSchema, type TUpdateAuthProxyConfigIntent } from '@latchkey/domain';
import { useEffect, useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

type TPreview = Awaited<ReturnType<ReturnType<typeof useSession>['client']['auth']['preview']['query']>>;

/** The form without empty strings and empty objects: a field left blank is not sent (the stored value stays). */
function clean(v: unknown): unknown {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).map(([k, x]) => [k, clean(x)] as const).filter(([, x]) => x !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return v === '' ? undefined : v;
}

export default function Auth() {
  const s = useSession();
  const { data, error, reload } = useCall((c) => c.client.auth.config.query({ organizationId: c.organizationId }).catch((e: unknown) => ((e as { data?: { httpStatus?: number } }).data?.httpStatus === 404 ? null : Promise.reject(e))));
  const [form, setForm] = useState<TUpdateAuthProxyConfigIntent>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const [preview, setPreview] = useState<TPreview>();
  useEffect(() => {
    if (!data) return;
    const c = data.authProxyConfig;
    setForm({
      allowedOrigins: c.allowedOrigins, allowedAuthMethods: c.allowedAuthMethods as never, sendFromEmailAddress: c.sendFromEmailAddress, sendFromEmailSenderName: c.sendFromEmailSenderName, replyToEmailAddress: c.replyToEmailAddress,
      emailCustomizationParams: c.emailCustomizationParams, smsCustomizationParams: c.smsCustomizationParams, walletKitSettings: c.walletKitSettings as TUpdateAuthProxyConfigIntent['walletKitSettings'], socialLinkingClientIds: c.socialLinkingClientIds,
      otpLength: c.otpLength, otpAlphanumeric: c.otpAlphanumeric, otpExpirationSeconds: c.otpExpirationSeconds, sessionExpirationSeconds: c.sessionExpirationSeconds, captchaEnabled: c.captchaEnabled,
    });
  }, [data]);
  const intent = (clean(form) ?? {}) as TUpdateAuthProxyConfigIntent;
  const parsed = ZUpdateAuthProxyConfigIntentSchema.safeParse(intent);
  /** The schema's message for a field (a path such as `walletKitSettings.oauthRedirectUrl`). */
  const issue = (path: string) => (parsed.success ? undefined : parsed.error.issues.find((i) => i.path.join('.') === path)?.message);
  const email = form.emailCustomizationParams ?? {};
  const setEmail = (patch: Partial<typeof email>) => setForm({ ...form, emailCustomizationParams: { ...email, ...patch } });
  const kit = form.walletKitSettings ?? {};
  const setKit = (patch: Partial<typeof kit>) => setForm({ ...form, walletKitSettings: { ...kit, ...patch } });
  const showPreview = async () => {
    try {
      const { emailCustomizationParams, smsCustomizationParams, sendFromEmailAddress, sendFromEmailSenderName, replyToEmailAddress, otpLength, otpAlphanumeric, otpExpirationSeconds } = intent;
      setPreview(await s.client.auth.preview.query({ organizationId: s.organizationId, emailCustomizationParams, smsCustomizationParams, sendFromEmailAddress, sendFromEmailSenderName, replyToEmailAddress, otpLength, otpAlphanumeric, otpExpirationSeconds }));
    } catch (e) {
      setPreview(undefined);
      setMessage({ ok: false, text: s.report(e) });
    }
  };
  const submit = async (what: 'enable' | 'disable' | 'update') => {
    try {
      const r =
        what === 'update'
          ? await s.client.auth.update.mutate(envelope('ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', s.organizationId, intent))
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
              <TextInput label="Reply-to address" value={form.replyToEmailAddress ?? ''} onChange={(e) => setForm({ ...form, replyToEmailAddress: e.currentTarget.value || undefined })} error={issue('replyToEmailAddress')} />
            </Group>
            <Title order={3} size="h5">E-mail and SMS</Title>
            <Group grow>
              <TextInput label="App name in messages" value={email.appName ?? ''} onChange={(e) => setEmail({ appName: e.currentTarget.value })} error={issue('emailCustomizationParams.appName')} />
              <TextInput label="Logo URL" value={email.logoUrl ?? ''} onChange={(e) => setEmail({ logoUrl: e.currentTarget.value })} error={issue('emailCustomizationParams.logoUrl')} />
            </Group>
            <TextInput label="Magic link template (%s is replaced by the code)" value={email.magicLinkTemplate ?? ''} onChange={(e) => setEmail({ magicLinkTemplate: e.currentTarget.value })} error={issue('emailCustomizationParams.magicLinkTemplate')} />
            <Textarea label="SMS template ({{.OtpCode}} is replaced by the code)" autosize minRows={1} value={form.smsCustomizationParams?.template ?? ''} onChange={(e) => setForm({ ...form, smsCustomizationParams: { template: e.currentTarget.value } })} error={issue('smsCustomizationParams.template')} />
            <Group><Button variant="default" onClick={() => void showPreview()} disabled={!parsed.success}>Preview messages</Button></Group>
            {preview && (
              <Card withBorder aria-label="message preview">
                <Text size="sm" fw={600}>Subject: {preview.email.subject}</Text>
                <iframe title="e-mail preview" sandbox="" srcDoc={preview.email.html} style={{ width: '100%', height: 320, border: '1px solid #dee2e6', background: 'white' }} />
                <Text size="sm" mt="xs">SMS: <Text span ff="monospace">{preview.sms.body}</Text></Text>
              </Card>
            )}
            <Title order={3} size="h5">OAuth and social linking</Title>
            <MultiSelect label="Social providers" data={[...AUTH_PROXY_SOCIAL_PROVIDERS]} value={kit.enabledSocialProviders ?? []} onChange={(v) => setKit({ enabledSocialProviders: v as never })} />
            {(kit.enabledSocialProviders ?? []).map((p) => (
              <TextInput key={p} label={`${p} OAuth client id`} value={kit.oauthClientIds?.[p] ?? ''} onChange={(e) => setKit({ oauthClientIds: { ...kit.oauthClientIds, [p]: e.currentTarget.value } })} error={issue(`walletKitSettings.oauthClientIds.${p}`)} />
            ))}
            <TextInput label="OAuth redirect URL" value={kit.oauthRedirectUrl ?? ''} onChange={(e) => setKit({ oauthRedirectUrl: e.currentTarget.value })} error={issue('walletKitSettings.oauthRedirectUrl')} />
            <TagsInput label="Social linking client ids (Enter to add)" value={form.socialLinkingClientIds ?? []} onChange={(v) => setForm({ ...form, socialLinkingClientIds: v })} error={issue('socialLinkingClientIds')} />
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
