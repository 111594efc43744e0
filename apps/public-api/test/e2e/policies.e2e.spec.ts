/**
 * Policies, root quorum and approvals end to end, against one real Latchkey driven by the
 * unmodified `@turnkey/http` and `@turnkey/sdk-server` clients: the docs' example policies as a
 * table (who may do what, deny wins, eth.tx.to allow-lists, wallet and private key ids, missing
 * fields), a 2-of-3 consensus flow, a 2-of-2 root quorum, rejections, and two approvals racing.
 */
import { TurnkeyActivityError, createActivityPoller, type TurnkeyApiTypes } from '@turnkey/http';
import type { TLatchkey } from '@latchkey/testkit';
import { Transaction } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair } from './policy-e2e-helpers.js';
import { latchkeyForThisFile } from './shared-platform.js';

type TActivity = TurnkeyApiTypes['v1Activity'];

let latchkey: TLatchkey;
let orgId: string;
let rootKey: TKeyPair;
let e2e: ReturnType<typeof policyE2e>;
const sdk = (key: TKeyPair) => e2e.sdk(key);
const http = (key: TKeyPair) => e2e.http(key);
const member = (name: string, userTags: string[] = []) => e2e.member(name, userTags);
const envelope = () => ({ timestampMs: String(Date.now()), organizationId: orgId });

async function policy(p: { effect: 'EFFECT_ALLOW' | 'EFFECT_DENY'; condition?: string; consensus?: string }): Promise<string> {
  const { policyId } = await sdk(rootKey).createPolicy({ policyName: uniqueName('policy'), notes: 'e2e', ...p });
  return policyId;
}

beforeAll(async () => {
  latchkey = await latchkeyForThisFile({ apps: ['public-api'] });
  e2e = policyE2e(latchkey);
  ({ orgId, rootKey } = e2e);
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
});

describe('policy CRUD', () => {
  it('creates, reads, lists, updates and deletes policies in the seed shape', async () => {
    const id = await policy({ effect: 'EFFECT_ALLOW', condition: "activity.resource == 'WALLET'", consensus: "approvers.any(user, user.id == 'nobody')" });
    const { policy: p } = await sdk(rootKey).getPolicy({ policyId: id });
    expect(p).toMatchObject({ policyId: id, effect: 'EFFECT_ALLOW', condition: "activity.resource == 'WALLET'", consensus: "approvers.any(user, user.id == 'nobody')", notes: 'e2e' });
    expect(Object.keys(p).sort()).toEqual(['condition', 'consensus', 'createdAt', 'effect', 'notes', 'policyId', 'policyName', 'updatedAt']);
    expect((await sdk(rootKey).getPolicies({})).policies.map((x) => x.policyId)).toContain(id);
    await sdk(rootKey).updatePolicy({ policyId: id, policyNotes: 'changed', policyEffect: 'EFFECT_DENY' });
    expect((await sdk(rootKey).getPolicy({ policyId: id })).policy).toMatchObject({ notes: 'changed', effect: 'EFFECT_DENY' });
    await sdk(rootKey).deletePolicy({ policyId: id });
    expect((await refusal(sdk(rootKey).getPolicy({ policyId: id }))).codes).toContain('NOT_FOUND');
  });

  it('refuses expressions that do not parse, naming the position, and duplicate labels', async () => {
    const bad = await refusal(sdk(rootKey).createPolicy({ policyName: uniqueName('bad'), effect: 'EFFECT_ALLOW', notes: '', condition: "activity.type == 'X' &&" }));
    expect(bad.message).toMatch(/invalid policy condition: .*position/);
    const badConsensus = await refusal(sdk(rootKey).createPolicy({ policyName: uniqueName('bad'), effect: 'EFFECT_ALLOW', notes: '', consensus: 'approvers.any(user, ' }));
    expect(badConsensus.message).toContain('invalid policy consensus');
    const name = uniqueName('dup');
    // (A deny that never applies: an allow with no condition would let everyone do everything.)
    const { policyId } = await sdk(rootKey).createPolicy({ policyName: name, effect: 'EFFECT_DENY', notes: '', condition: 'false' });
    expect((await refusal(sdk(rootKey).createPolicy({ policyName: name, effect: 'EFFECT_ALLOW', notes: '' }))).message).toContain('policy label must be unique');
    await sdk(rootKey).deletePolicy({ policyId });
  });
});

describe("the docs' example policies", () => {
  it('approver by id; deny wins over allow, naming the policy', async () => {
    const alice = await member('alice');
    const bob = await member('bob');
    const allowId = await policy({ effect: 'EFFECT_ALLOW', condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'", consensus: `approvers.any(user, user.id == '${alice.userId}')` });
    const created = await sdk(alice.key).createWallet({ walletName: uniqueName('w'), accounts: [] });
    expect(created.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const evaluations = await http(rootKey).getPolicyEvaluations({ organizationId: orgId, activityId: created.activity.id });
    expect(evaluations.policyEvaluations[0]?.policyEvaluations).toContainEqual({ policyId: allowId, outcome: 'OUTCOME_ALLOW' });

    // The policy applies to bob's wallet too: it waits for alice's approval rather than being denied.
    const bobs = (await sdk(bob.key).createWallet({ walletName: uniqueName('w'), accounts: [] })) as unknown as { activity: TActivity };
    expect(bobs.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    await sdk(bob.key).rejectActivity({ fingerprint: bobs.activity.fingerprint });
    // Outside every policy, a non-root user is implicitly denied.
    const implicit = await refusal(sdk(bob.key).createPrivateKeys({ privateKeys: [{ privateKeyName: uniqueName('pk'), curve: 'CURVE_SECP256K1', addressFormats: [], privateKeyTags: [] }] }));
    expect(implicit.codes).toContain('REQUEST_NOT_AUTHORIZED');
    expect(implicit.message).toContain('OUTCOME_DENY_IMPLICIT');

    const denyId = await policy({ effect: 'EFFECT_DENY', condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'", consensus: `approvers.any(user, user.id == '${alice.userId}')` });
    const explicit = await refusal(sdk(alice.key).createWallet({ walletName: uniqueName('w'), accounts: [] }));
    expect(explicit.message).toContain('OUTCOME_DENY_EXPLICIT');
    expect(explicit.message).toContain(denyId);
    // The root quorum bypasses policies, deny included.
    expect((await sdk(rootKey).createWallet({ walletName: uniqueName('w'), accounts: [] })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    await sdk(rootKey).deletePolicies({ policyIds: [allowId, denyId] });
  });

  it('eth.tx.to allow-list and wallet id: the transaction decides, and a missing field is an evaluation error', async () => {
    const signer = await member('signer');
    const { walletId, addresses } = await sdk(rootKey).createWallet({ walletName: uniqueName('eth'), accounts: [accountParams(0)] });
    const allowed = '0x1111111111111111111111111111111111111111';
    const toPolicy = await policy({ effect: 'EFFECT_ALLOW', condition: `activity.action == 'SIGN' && eth.tx.to == '${allowed}' && eth.tx.value < 1000000000000000000000`, consensus: `approvers.any(user, user.id == '${signer.userId}')` });
    const walletPolicy = await policy({ effect: 'EFFECT_ALLOW', condition: `activity.action == 'SIGN' && wallet.id == '${walletId}' && private_key.id == 'x'`, consensus: '' });
    const unsigned = (to: string, value: bigint) => Transaction.from({ type: 2, chainId: 1, nonce: 0, to, value, gasLimit: 21000, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n }).unsignedSerialized.slice(2);
    const sign = (to: string, value: bigint) =>
      sdk(signer.key).signTransaction({ signWith: addresses[0]!, type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: unsigned(to, value) });

    const ok = await sign('0x1111111111111111111111111111111111111111', 10n ** 18n);
    expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const evals = (await http(rootKey).getPolicyEvaluations({ organizationId: orgId, activityId: ok.activity.id })).policyEvaluations[0]!.policyEvaluations as { policyId: string; outcome: string; error?: string }[];
    expect(evals.find((e) => e.policyId === toPolicy)?.outcome).toBe('OUTCOME_ALLOW');
    const missing = evals.find((e) => e.policyId === walletPolicy)!;
    expect(missing.outcome).toBe('OUTCOME_ERROR');
    expect(missing.error).toMatch(/private_key/);

    expect((await refusal(sign('0x2222222222222222222222222222222222222222', 1n))).message).toContain('OUTCOME_DENY_IMPLICIT');
    expect((await refusal(sign(allowed, 10n ** 22n))).message).toContain('OUTCOME_DENY_IMPLICIT');
    await sdk(rootKey).deletePolicies({ policyIds: [toPolicy, walletPolicy] });
  });

  it('private key id: signing with that key is allowed, with another key it is not', async () => {
    const signer = await member('pk-signer');
    const { privateKeys } = await sdk(rootKey).createPrivateKeys({
      privateKeys: [
        { privateKeyName: uniqueName('pk'), curve: 'CURVE_SECP256K1', addressFormats: [], privateKeyTags: [] },
        { privateKeyName: uniqueName('pk'), curve: 'CURVE_SECP256K1', addressFormats: [], privateKeyTags: [] },
      ],
    });
    const [mine, other] = privateKeys.map((k) => k.privateKeyId);
    const id = await policy({ effect: 'EFFECT_ALLOW', condition: `private_key.id == '${mine}'`, consensus: `approvers.any(user, user.id == '${signer.userId}')` });
    const sign = (signWith: string) => sdk(signer.key).signRawPayload({ signWith, payload: 'aa'.repeat(32), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' });
    expect((await sign(mine!)).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await refusal(sign(other!))).message).toContain('OUTCOME_DENY_IMPLICIT');
    await sdk(rootKey).deletePolicy({ policyId: id });
  });
});

describe('consensus', () => {
  it('2 of 3 tagged approvers: waits, the real clients see it waiting, a second approval completes it', async () => {
    const { userTagId } = await sdk(rootKey).createUserTag({ userTagName: uniqueName('approvers'), userIds: [] });
    const [alice, bob, carol, dave] = [await member('alice', [userTagId]), await member('bob', [userTagId]), await member('carol', [userTagId]), await member('dave')];
    const id = await policy({ effect: 'EFFECT_ALLOW', condition: "activity.resource == 'WALLET'", consensus: `approvers.filter(user, user.tags.contains('${userTagId}')).count() >= 2` });

    const walletName = uniqueName('needs-two');
    const waiting = (await sdk(alice.key).createWallet({ walletName, accounts: [] })) as unknown as { activity: TActivity };
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(waiting.activity).toMatchObject({ canApprove: false, canReject: true });
    expect(waiting.activity.votes).toEqual([expect.objectContaining({ userId: alice.userId, selection: 'VOTE_SELECTION_APPROVED' })]);
    expect((await sdk(rootKey).getWallets({})).wallets.map((w) => w.walletName)).not.toContain(walletName);

    // @turnkey/http's poller raises its consensus-needed error.
    const poller = createActivityPoller({ client: http(alice.key), requestFn: http(alice.key).createWallet });
    const err = await poller({ type: 'ACTIVITY_TYPE_CREATE_WALLET', ...envelope(), parameters: { walletName: uniqueName('poll'), accounts: [] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TurnkeyActivityError);
    expect((err as TurnkeyActivityError).activityStatus).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');

    const read = async (key: TKeyPair) => (await http(key).getActivity({ organizationId: orgId, activityId: waiting.activity.id })).activity;
    expect(await read(bob.key)).toMatchObject({ canApprove: true, canReject: true });
    expect(await read(dave.key)).toMatchObject({ canApprove: false, canReject: false });

    const approved = await sdk(bob.key).approveActivity({ fingerprint: waiting.activity.fingerprint });
    expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const done = await read(rootKey);
    expect(done.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(done.result.createWalletResult?.walletId).toMatch(/^[0-9a-f-]{36}$/);
    expect(done.votes.map((v) => v.userId).sort()).toEqual([alice.userId, bob.userId].sort());
    expect(await read(carol.key)).toMatchObject({ canApprove: false, canReject: false });
    expect((await refusal(sdk(carol.key).approveActivity({ fingerprint: waiting.activity.fingerprint }))).message).toContain('not awaiting consensus');
    await sdk(rootKey).deletePolicy({ policyId: id });
  });

  it('two approvals at once execute the activity once', async () => {
    const { userTagId } = await sdk(rootKey).createUserTag({ userTagName: uniqueName('race'), userIds: [] });
    const [alice, bob, carol] = [await member('alice', [userTagId]), await member('bob', [userTagId]), await member('carol', [userTagId])];
    const id = await policy({ effect: 'EFFECT_ALLOW', condition: "activity.resource == 'WALLET'", consensus: `approvers.filter(user, user.tags.contains('${userTagId}')).count() >= 2` });
    const walletName = uniqueName('race');
    const waiting = (await sdk(alice.key).createWallet({ walletName, accounts: [] })) as unknown as { activity: TActivity };
    const results = await Promise.allSettled([sdk(bob.key).approveActivity({ fingerprint: waiting.activity.fingerprint }), sdk(carol.key).approveActivity({ fingerprint: waiting.activity.fingerprint })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await sdk(rootKey).getWallets({})).wallets.filter((w) => w.walletName === walletName)).toHaveLength(1);
    await sdk(rootKey).deletePolicy({ policyId: id });
  });

  it("rejections: the initiator's cancels; a required approver's ends it at once; an outsider's leaves it waiting", async () => {
    const [alice, bob, erin] = [await member('alice'), await member('bob'), await member('erin')];
    const id = await policy({ effect: 'EFFECT_ALLOW', condition: "activity.resource == 'WALLET'", consensus: `approvers.any(user, user.id == '${alice.userId}') && approvers.any(user, user.id == '${bob.userId}')` });
    const first = (await sdk(alice.key).createWallet({ walletName: uniqueName('r1'), accounts: [] })) as unknown as { activity: TActivity };
    expect((await sdk(alice.key).rejectActivity({ fingerprint: first.activity.fingerprint })).activity.status).toBe('ACTIVITY_STATUS_REJECTED');

    // bob is one of the two the policy needs: his "no" rejects it, though the root quorum could still have carried it.
    const secondName = uniqueName('r2');
    const second = (await sdk(alice.key).createWallet({ walletName: secondName, accounts: [] })) as unknown as { activity: TActivity };
    const afterBob = await sdk(bob.key).rejectActivity({ fingerprint: second.activity.fingerprint });
    expect(afterBob.activity.status).toBe('ACTIVITY_STATUS_REJECTED');
    expect(afterBob.activity.votes.map((v) => v.selection).sort()).toEqual(['VOTE_SELECTION_APPROVED', 'VOTE_SELECTION_REJECTED']);
    expect((await refusal(sdk(rootKey).approveActivity({ fingerprint: second.activity.fingerprint }))).message).toContain('not awaiting consensus');
    expect((await sdk(rootKey).getWallets({})).wallets.map((w) => w.walletName)).not.toContain(secondName);

    // erin's approval would not count: her rejection is recorded and the activity keeps waiting.
    const third = (await sdk(alice.key).createWallet({ walletName: uniqueName('r3'), accounts: [] })) as unknown as { activity: TActivity };
    const afterErin = await sdk(erin.key).rejectActivity({ fingerprint: third.activity.fingerprint });
    expect(afterErin.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect((await refusal(sdk(erin.key).approveActivity({ fingerprint: third.activity.fingerprint }))).message).toContain('already voted');
    // The root quorum bypasses policies: the root user's approval completes it.
    expect((await sdk(rootKey).approveActivity({ fingerprint: third.activity.fingerprint })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    await sdk(rootKey).deletePolicy({ policyId: id });
  });

  it('a 2-of-2 root quorum: root activities wait for the second root user, who can also lower it again', async () => {
    const root2 = await member('root2');
    const root = latchkey.bootstrap.userId;
    expect((await refusal(sdk(rootKey).updateRootQuorum({ threshold: 3, userIds: [root, root2.userId] }))).message).toContain('threshold');
    expect((await refusal(sdk(rootKey).updateRootQuorum({ threshold: 1, userIds: [root, 'not-a-user'] }))).message).toContain('not users of this organization');
    await sdk(rootKey).updateRootQuorum({ threshold: 2, userIds: [root, root2.userId] });
    expect((await sdk(rootKey).getOrganizationConfigs({ organizationId: orgId })).configs.quorum).toEqual({ threshold: 2, userIds: [root, root2.userId].sort() });

    const walletName = uniqueName('two-roots');
    const waiting = (await sdk(rootKey).createWallet({ walletName, accounts: [] })) as unknown as { activity: TActivity };
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect((await sdk(root2.key).approveActivity({ fingerprint: waiting.activity.fingerprint })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');

    // The second root user's approval would count, so its rejection ends the activity.
    const refused = (await sdk(rootKey).createWallet({ walletName: uniqueName('refused'), accounts: [] })) as unknown as { activity: TActivity };
    expect((await sdk(root2.key).rejectActivity({ fingerprint: refused.activity.fingerprint })).activity.status).toBe('ACTIVITY_STATUS_REJECTED');

    const lower = (await sdk(rootKey).updateRootQuorum({ threshold: 1, userIds: [root] })) as unknown as { activity: TActivity };
    expect(lower.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    await sdk(root2.key).approveActivity({ fingerprint: lower.activity.fingerprint });
    expect((await sdk(rootKey).createWallet({ walletName: uniqueName('one-root'), accounts: [] })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });
});
