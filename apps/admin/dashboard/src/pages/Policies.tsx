/** Policies: the list, and an editor whose condition and consensus are checked by the real parser as you type. */
import { Alert, Button, Card, Code, Group, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

type TCheck = { ok: boolean; error?: { message: string; line: number; column: number } };

export default function Policies() {
  const s = useSession();
  const { data, error, reload } = useCall((c) => c.client.policies.list.query({ organizationId: c.organizationId }));
  const [draft, setDraft] = useState({ policyName: '', effect: 'EFFECT_ALLOW', condition: '', consensus: '' });
  const [check, setCheck] = useState<{ condition: TCheck; consensus: TCheck }>();
  const [message, setMessage] = useState<string>();
  useEffect(() => {
    const t = setTimeout(() => {
      s.client.policies.check.query({ organizationId: s.organizationId, condition: draft.condition, consensus: draft.consensus }).then(setCheck, (e: unknown) => setMessage(s.report(e)));
    }, 250);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft.condition, draft.consensus]);
  const where = (c?: TCheck) => (c && !c.ok && c.error ? `line ${c.error.line}, column ${c.error.column}: ${c.error.message}` : undefined);
  const save = async () => {
    try {
      const { activity } = await s.client.policies.create.mutate(
        envelope('ACTIVITY_TYPE_CREATE_POLICY_V3', s.organizationId, { policyName: draft.policyName, effect: draft.effect as 'EFFECT_ALLOW', condition: draft.condition, consensus: draft.consensus, notes: '' }),
      );
      setMessage(`create_policy: ${activity.status.replace('ACTIVITY_STATUS_', '')}`);
      reload();
    } catch (e) {
      setMessage(s.report(e));
    }
  };
  return (
    <>
      <Title order={2} mb="md">Policies</Title>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <Card withBorder mb="md">
        <Stack>
          <Group grow>
            <TextInput label="Name" value={draft.policyName} onChange={(e) => setDraft({ ...draft, policyName: e.currentTarget.value })} />
            <Select label="Effect" data={['EFFECT_ALLOW', 'EFFECT_DENY']} value={draft.effect} onChange={(v) => setDraft({ ...draft, effect: v ?? 'EFFECT_ALLOW' })} />
          </Group>
          <Textarea label="Condition" autosize minRows={2} ff="monospace" value={draft.condition} onChange={(e) => setDraft({ ...draft, condition: e.currentTarget.value })} error={where(check?.condition)} placeholder="activity.resource == 'WALLET'" />
          <Textarea label="Consensus" autosize minRows={2} ff="monospace" value={draft.consensus} onChange={(e) => setDraft({ ...draft, consensus: e.currentTarget.value })} error={where(check?.consensus)} placeholder="approvers.count() >= 2" />
          <Group><Button onClick={() => void save()} disabled={!draft.policyName || !check?.condition.ok || !check?.consensus.ok}>Create policy</Button></Group>
          {message && <Alert role="status">{message}</Alert>}
        </Stack>
      </Card>
      <Stack>
        {(data?.policies ?? []).map((p) => (
          <Card withBorder key={p.policyId}>
            <Group justify="space-between"><Text fw={600}>{p.policyName}</Text><Text size="sm">{p.effect}</Text></Group>
            {p.condition && <Text size="sm">condition: <Code>{p.condition}</Code></Text>}
            {p.consensus && <Text size="sm">consensus: <Code>{p.consensus}</Code></Text>}
          </Card>
        ))}
      </Stack>
    </>
  );
}
