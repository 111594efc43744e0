/**
 * Policies: the list, an editor whose condition and consensus are checked by the real parser as
 * you type, and the dry run: the draft (with the current policies, if asked) evaluated against a
 * past activity — which policies matched and the outcome.
 */
import { Alert, Badge, Button, Card, Checkbox, Code, Group, Select, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { envelope, useCall, useSession } from '../lib/api';

type TExplanation = Awaited<ReturnType<ReturnType<typeof useSession>['client']['policies']['dryRun']['query']>>;
const OUTCOME_COLORS: Record<string, string> = { ALLOW: 'teal.9', DENY: 'red.9', REQUIRES_CONSENSUS: 'grape.9', NO_MATCH: 'gray.8' };

type TCheck = { ok: boolean; error?: { message: string; line: number; column: number } };

export default function Policies() {
  const s = useSession();
  const { data, error, reload } = useCall((c) => c.client.policies.list.query({ organizationId: c.organizationId }));
  const [draft, setDraft] = useState({ policyName: '', effect: 'EFFECT_ALLOW', condition: '', consensus: '' });
  const [check, setCheck] = useState<{ condition: TCheck; consensus: TCheck }>();
  const [message, setMessage] = useState<string>();
  const past = useCall((c) => c.client.activities.list.query({ organizationId: c.organizationId, paginationOptions: { limit: '50' } }));
  const [activityId, setActivityId] = useState<string | null>(null);
  const [withCurrent, setWithCurrent] = useState(false);
  const [explained, setExplained] = useState<TExplanation>();
  const dryRun = async () => {
    if (!activityId) return;
    const current = withCurrent ? (data?.policies ?? []).map((p) => ({ policyName: p.policyName, effect: p.effect, condition: p.condition, consensus: p.consensus })) : [];
    try {
      setExplained(await s.client.policies.dryRun.query({ organizationId: s.organizationId, activityId, policies: [{ policyName: draft.policyName || 'draft', effect: draft.effect as 'EFFECT_ALLOW', condition: draft.condition, consensus: draft.consensus }, ...current] }));
    } catch (e) {
      setExplained(undefined);
      setMessage(s.report(e));
    }
  };
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
      <Card withBorder mb="md">
        <Stack>
          <Title order={3} size="h5">Dry run</Title>
          <Text size="sm">Evaluate the draft above against a past activity: nothing is written.</Text>
          <Group align="end">
            <Select label="Past activity" searchable w={480} value={activityId} onChange={setActivityId}
              data={(past.data?.activities ?? []).map((a) => ({ value: a.id, label: `${a.type.replace('ACTIVITY_TYPE_', '')} · ${a.status.replace('ACTIVITY_STATUS_', '')} · …${a.id.slice(-12)}` }))} />
            <Checkbox label="with the current policies" checked={withCurrent} onChange={(e) => setWithCurrent(e.currentTarget.checked)} />
            <Button variant="default" onClick={() => void dryRun()} disabled={!activityId || !check?.condition.ok || !check?.consensus.ok}>Dry run</Button>
          </Group>
          {explained && (
            <Stack gap="xs" aria-label="dry run result">
              <Group><Text>Outcome:</Text><Badge variant="outline" color={OUTCOME_COLORS[explained.outcome] ?? 'gray.8'}>{explained.outcome.replace('_', ' ')}</Badge><Text size="sm">{explained.reason}</Text></Group>
              {explained.rootQuorumBypass && <Alert color="yellow" role="status">The activity's initiator meets the root quorum alone: the engine allows it whatever the policies say.</Alert>}
              <Table aria-label="policies evaluated">
                <Table.Thead><Table.Tr><Table.Th>Policy</Table.Th><Table.Th>Effect</Table.Th><Table.Th>Matched</Table.Th><Table.Th>Outcome</Table.Th><Table.Th>Deciding</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {explained.policies.map((p) => (
                    <Table.Tr key={p.index}>
                      <Table.Td>{p.policyName}</Table.Td><Table.Td>{p.effect}</Table.Td><Table.Td>{p.matched ? 'yes' : 'no'}</Table.Td>
                      <Table.Td>{p.outcome}{p.error ? ` (${p.error})` : ''}</Table.Td><Table.Td>{p.deciding ? 'yes' : ''}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          )}
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
