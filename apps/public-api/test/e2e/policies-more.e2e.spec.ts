/**
 * Policies, root quorum and votes end to end, the cases policies.e2e.spec.ts leaves out: a batch
 * of policies in one activity (and a batch that is refused whole), update_policy refusing
 * expressions that do not parse, update_root_quorum's empty result and its refusals, what a vote
 * records (checked against the approver's own key, independently of the server), and the 403 of
 * an explicit deny beating an allow — against one real Latchkey driven by the unmodified
 * `@turnkey/sdk-server` and `@turnkey/http` clients.
 */
import { createPublicKey, createVerify } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import type { TurnkeyApiTypes } from '@turnkey/http';
import type { TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair, type TMember } from './policy-e2e-helpers.js';
import { latchkeyForThisFile } from './shared-platform.js';

type TActivity = TurnkeyApiTypes['v1Activity'];
type TVote = TurnkeyApiTypes['v1Vote'];

let latchkey: TLatchkey;
let orgId: string;
let rootKey: TKeyPair;
let e2e: ReturnType<typeof policyE2e>;
const sdk = (key: TKeyPair) => e2e.sdk(key);
const http = (key: TKeyPair) => e2e.http(key);
const member = (name: string) => e2e.member(name);

const policyNames = async () => (await sdk(rootKey).getPolicies({})).policies.map((p) => p.policyName);
/** The quorum as get_organization reports it (sdk-server has no getOrganization; @turnkey/http does). */
const rootQuorum = async () => {
  const quorum = (await http(rootKey).getOrganization({ organizationId: orgId })).organizationData.rootQuorum;
  return quorum && { threshold: quorum.threshold, userIds: [...quorum.userIds].sort() };
};

/**
 * Whether `signatureHex` (DER, as `@turnkey/api-key-stamper` writes it) is a P-256 ECDSA
 * signature over SHA-256 of `message` by the compressed key `publicKeyHex` — checked with
 * node:crypto, not the server's verifier.
 */
function verifiesStamp(publicKeyHex: string, message: string, signatureHex: string): boolean {
  const point = p256.Point.fromHex(publicKeyHex).toBytes(false);
  const jwk = { kty: 'EC', crv: 'P-256', x: Buffer.from(point.subarray(1, 33)).toString('base64url'), y: Buffer.from(point.subarray(33)).toString('base64url') };
  return createVerify('SHA256').update(message, 'utf8').verify(createPublicKey({ key: jwk, format: 'jwk' }), Buffer.from(signatureHex, 'hex'));
}

beforeAll(async () => {
  latchkey = await latchkeyForThisFile({ apps: ['public-api'] });
  e2e = policyE2e(latchkey);
  ({ orgId, rootKey } = e2e);
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
});

describe('create_policies', () => {
  it('creates several policies in one activity, listed in the seed shape', async () => {
    const batch = [
      { policyName: uniqueName('batch-a'), effect: 'EFFECT_DENY' as const, notes: 'a', condition: "activity.resource == 'WEBHOOK_ENDPOINT'" },
      { policyName: uniqueName('batch-b'), effect: 'EFFECT_DENY' as const, notes: 'b', condition: 'false', consensus: 'approvers.count() >= 2' },
      { policyName: uniqueName('batch-c'), effect: 'EFFECT_ALLOW' as const, notes: 'c', condition: 'false', consensus: "approvers.any(user, user.id == 'nobody')" },
    ];
    const created = await sdk(rootKey).createPolicies({ policies: batch });
    expect(created.activity.type).toBe('ACTIVITY_TYPE_CREATE_POLICIES');
    expect(created.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(created.policyIds).toHaveLength(3);
    expect(new Set(created.policyIds).size).toBe(3);
    const { activity } = await http(rootKey).getActivity({ organizationId: orgId, activityId: created.activity.id });
    expect(activity.result).toEqual({ createPoliciesResult: { policyIds: created.policyIds } });

    const listed = (await sdk(rootKey).getPolicies({})).policies;
    batch.forEach((wanted, i) => {
      const p = listed.find((x) => x.policyId === created.policyIds[i]);
      expect(p, wanted.policyName).toBeDefined();
      expect(Object.keys(p!).sort()).toEqual(['condition', 'consensus', 'createdAt', 'effect', 'notes', 'policyId', 'policyName', 'updatedAt']);
      // An omitted consensus reads back as the empty expression (no restriction).
      expect(p).toMatchObject({ policyName: wanted.policyName, effect: wanted.effect, notes: wanted.notes, condition: wanted.condition, consensus: wanted.consensus ?? '' });
    });
    await sdk(rootKey).deletePolicies({ policyIds: created.policyIds });
  });

  it('refuses the whole batch when one condition or consensus does not parse, naming where, and creates none of it', async () => {
    const before = await policyNames();
    const names = [uniqueName('ok-1'), uniqueName('bad'), uniqueName('ok-2')];
    const badCondition = await refusal(
      sdk(rootKey).createPolicies({
        policies: [
          { policyName: names[0]!, effect: 'EFFECT_DENY', notes: '', condition: 'false' },
          { policyName: names[1]!, effect: 'EFFECT_DENY', notes: '', condition: "activity.type == 'X' &&" },
          { policyName: names[2]!, effect: 'EFFECT_DENY', notes: '', condition: 'false' },
        ],
      }),
    );
    expect(badCondition.code).toBe(3);
    expect(badCondition.codes).toEqual(['REQUEST_INVALID']);
    expect(badCondition.message).toMatch(/invalid policy condition: .*at position 23/);
    expect(badCondition.fields).toEqual({ field: 'policies.1.condition', position: 23 });

    const badConsensus = await refusal(
      sdk(rootKey).createPolicies({
        policies: [
          { policyName: names[0]!, effect: 'EFFECT_ALLOW', notes: '', condition: 'false', consensus: 'true' },
          { policyName: names[1]!, effect: 'EFFECT_ALLOW', notes: '', condition: 'false', consensus: 'true' },
          { policyName: names[2]!, effect: 'EFFECT_ALLOW', notes: '', condition: 'false', consensus: 'approvers.any(user, ' },
        ],
      }),
    );
    expect(badConsensus.code).toBe(3);
    expect(badConsensus.message).toMatch(/invalid policy consensus: .*at position 20/);
    expect(badConsensus.fields).toEqual({ field: 'policies.2.consensus', position: 20 });

    expect(await policyNames()).toEqual(before);
  });

  it('refuses the whole batch when a later name is already taken, leaving the earlier ones unwritten', async () => {
    const taken = uniqueName('taken');
    const { policyId } = await sdk(rootKey).createPolicy({ policyName: taken, effect: 'EFFECT_DENY', notes: '', condition: 'false' });
    const before = await policyNames();
    const fresh = uniqueName('fresh');
    const r = await refusal(
      sdk(rootKey).createPolicies({
        policies: [
          { policyName: fresh, effect: 'EFFECT_DENY', notes: '', condition: 'false' },
          { policyName: taken, effect: 'EFFECT_DENY', notes: '', condition: 'false' },
        ],
      }),
    );
    expect(r.code).toBe(3);
    expect(r.message).toContain('policy label must be unique');
    expect(await policyNames()).toEqual(before);
    expect(before).not.toContain(fresh);
    await sdk(rootKey).deletePolicy({ policyId });
  });
});

describe('update_policy', () => {
  it('refuses a condition or consensus that does not parse and leaves the policy as it was', async () => {
    const { policyId } = await sdk(rootKey).createPolicy({ policyName: uniqueName('stable'), effect: 'EFFECT_DENY', notes: 'before', condition: 'false', consensus: 'approvers.count() >= 1' });
    const before = (await sdk(rootKey).getPolicy({ policyId })).policy;

    const condition = await refusal(sdk(rootKey).updatePolicy({ policyId, policyCondition: "activity.action == 'SIGN' ||", policyNotes: 'must not stick', policyEffect: 'EFFECT_ALLOW' }));
    expect(condition.code).toBe(3);
    expect(condition.codes).toEqual(['REQUEST_INVALID']);
    expect(condition.message).toMatch(/invalid policy condition: .*at position 28/);
    expect(condition.fields).toEqual({ field: 'policyCondition', position: 28 });

    const consensus = await refusal(sdk(rootKey).updatePolicy({ policyId, policyConsensus: 'approvers.any(user, user.id ==)', policyName: uniqueName('renamed') }));
    expect(consensus.code).toBe(3);
    expect(consensus.message).toMatch(/invalid policy consensus: .*at position 30/);
    expect(consensus.fields).toEqual({ field: 'policyConsensus', position: 30 });

    // A good condition beside a bad consensus is refused as well: nothing of the update applies.
    const mixed = await refusal(sdk(rootKey).updatePolicy({ policyId, policyCondition: 'true', policyConsensus: '&&' }));
    expect(mixed.message).toContain('invalid policy consensus');

    expect((await sdk(rootKey).getPolicy({ policyId })).policy).toEqual(before);
    await sdk(rootKey).deletePolicy({ policyId });
  });
});

describe('update_root_quorum', () => {
  it("answers Turnkey's empty result and changes the quorum", async () => {
    const root = latchkey.bootstrap.userId;
    const second = await member('quorum-member');
    expect(await rootQuorum()).toEqual({ threshold: 1, userIds: [root] });

    const widened = await sdk(rootKey).updateRootQuorum({ threshold: 1, userIds: [root, second.userId] });
    expect(widened.activity.type).toBe('ACTIVITY_TYPE_UPDATE_ROOT_QUORUM');
    expect(widened.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    // sdk-server spreads the (empty) result beside the activity: nothing else comes back.
    expect(Object.keys(widened)).toEqual(['activity']);
    const { activity } = await http(rootKey).getActivity({ organizationId: orgId, activityId: widened.activity.id });
    expect(activity.result).toEqual({ updateRootQuorumResult: {} });
    expect(await rootQuorum()).toEqual({ threshold: 1, userIds: [root, second.userId].sort() });
    expect((await sdk(rootKey).getOrganizationConfigs({ organizationId: orgId })).configs.quorum).toEqual({ threshold: 1, userIds: [root, second.userId].sort() });

    await sdk(rootKey).updateRootQuorum({ threshold: 1, userIds: [root] });
    expect(await rootQuorum()).toEqual({ threshold: 1, userIds: [root] });
  });

  it('refuses a threshold above the member count, and members who are not users of this organization, changing nothing', async () => {
    const root = latchkey.bootstrap.userId;
    const second = await member('quorum-member');
    const before = await rootQuorum();
    expect(before).toEqual({ threshold: 1, userIds: [root] });

    const tooHigh = await refusal(sdk(rootKey).updateRootQuorum({ threshold: 3, userIds: [root, second.userId] }));
    expect(tooHigh.code).toBe(3);
    expect(tooHigh.codes).toEqual(['REQUEST_INVALID']);
    expect(tooHigh.message).toContain('threshold: 3 is more than the 2 member(s)');
    expect(tooHigh.fields).toMatchObject({ field: 'threshold' });
    expect(await rootQuorum()).toEqual(before);

    expect((await refusal(sdk(rootKey).updateRootQuorum({ threshold: 0, userIds: [root] }))).code).toBe(3);
    expect((await refusal(sdk(rootKey).updateRootQuorum({ threshold: 1, userIds: [root, root] }))).message).toContain('listed twice');
    expect(await rootQuorum()).toEqual(before);

    // A real user, but of another organization (a sub-organization's root user).
    const sub = await sdk(rootKey).createSubOrganization({
      subOrganizationName: uniqueName('other-org'),
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: 'elsewhere', apiKeys: [], authenticators: [], oauthProviders: [] }],
    });
    const stranger = sub.rootUserIds![0]!;
    const foreign = await refusal(sdk(rootKey).updateRootQuorum({ threshold: 1, userIds: [root, stranger] }));
    expect(foreign.code).toBe(3);
    expect(foreign.message).toContain(`not users of this organization: ${stranger}`);
    expect(foreign.fields).toEqual({ field: 'userIds', userIds: [stranger] });
    // A user of this organization once, deleted since.
    const gone = await member('deleted');
    await sdk(rootKey).deleteUsers({ userIds: [gone.userId] });
    const deleted = await refusal(sdk(rootKey).updateRootQuorum({ threshold: 1, userIds: [root, gone.userId] }));
    expect(deleted.code).toBe(3);
    expect(deleted.fields).toEqual({ field: 'userIds', userIds: [gone.userId] });
    const unknown = await refusal(sdk(rootKey).updateRootQuorum({ threshold: 2, userIds: [second.userId, 'no-such-user'] }));
    expect(unknown.message).toContain('not users of this organization: no-such-user');
    expect(await rootQuorum()).toEqual(before);
    expect((await sdk(rootKey).getOrganizationConfigs({ organizationId: orgId })).configs.quorum).toEqual(before);

    // Still a 1-of-1 quorum: the root user acts alone.
    expect((await sdk(rootKey).createWallet({ walletName: uniqueName('still-one'), accounts: [] })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });
});

describe('votes', () => {
  it("record the voter, the key, the stamp's signature over the message, and the selection", async () => {
    const [alice, bob] = [await member('alice'), await member('bob')];
    const { policyId } = await sdk(rootKey).createPolicy({
      policyName: uniqueName('both'),
      effect: 'EFFECT_ALLOW',
      notes: '',
      condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
      consensus: `approvers.any(user, user.id == '${alice.userId}') && approvers.any(user, user.id == '${bob.userId}')`,
    });
    const read = async (activityId: string) => (await http(rootKey).getActivity({ organizationId: orgId, activityId })).activity;
    const check = (vote: TVote | undefined, who: TMember, selection: TVote['selection']) => {
      expect(vote).toBeDefined();
      expect(vote).toMatchObject({ userId: who.userId, selection, scheme: 'SIGNATURE_SCHEME_TK_API_P256' });
      expect(vote!.user.userId).toBe(who.userId);
      expect(vote!.publicKey.toLowerCase()).toBe(who.key.publicKey.toLowerCase());
      expect(vote!.signature).toMatch(/^[0-9a-f]+$/);
      expect(verifiesStamp(who.key.publicKey, vote!.message, vote!.signature)).toBe(true);
      // The check is not vacuous: the signature is bound to this message and this key.
      expect(verifiesStamp(who.key.publicKey, `${vote!.message} `, vote!.signature)).toBe(false);
      expect(verifiesStamp(rootKey.publicKey, vote!.message, vote!.signature)).toBe(false);
      return JSON.parse(vote!.message) as { type: string; organizationId: string; parameters: Record<string, unknown> };
    };

    const walletName = uniqueName('voted');
    const waiting = (await sdk(alice.key).createWallet({ walletName, accounts: [] })) as unknown as { activity: TActivity };
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    const approved = await sdk(bob.key).approveActivity({ fingerprint: waiting.activity.fingerprint });
    expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const done = await read(waiting.activity.id);
    expect(done.votes).toHaveLength(2);
    for (const v of done.votes) expect(v.activityId).toBe(waiting.activity.id);
    // The initiator's vote is its submission, the approver's its approve_activity request.
    const submitted = check(done.votes.find((v) => v.userId === alice.userId), alice, 'VOTE_SELECTION_APPROVED');
    expect(submitted).toMatchObject({ type: 'ACTIVITY_TYPE_CREATE_WALLET', organizationId: orgId, parameters: { walletName } });
    const approval = check(done.votes.find((v) => v.userId === bob.userId), bob, 'VOTE_SELECTION_APPROVED');
    expect(approval).toMatchObject({ type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY', organizationId: orgId, parameters: { fingerprint: waiting.activity.fingerprint } });

    // A rejection is recorded the same way (bob's approval would count, so his rejection ends it).
    const second = (await sdk(alice.key).createWallet({ walletName: uniqueName('refused'), accounts: [] })) as unknown as { activity: TActivity };
    expect((await sdk(bob.key).rejectActivity({ fingerprint: second.activity.fingerprint })).activity.status).toBe('ACTIVITY_STATUS_REJECTED');
    const rejected = await read(second.activity.id);
    expect(rejected.votes).toHaveLength(2);
    const rejection = check(rejected.votes.find((v) => v.userId === bob.userId), bob, 'VOTE_SELECTION_REJECTED');
    expect(rejection).toMatchObject({ type: 'ACTIVITY_TYPE_REJECT_ACTIVITY', parameters: { fingerprint: second.activity.fingerprint } });
    check(rejected.votes.find((v) => v.userId === alice.userId), alice, 'VOTE_SELECTION_APPROVED');
    expect(rejected.status).toBe('ACTIVITY_STATUS_REJECTED');
    await sdk(rootKey).deletePolicy({ policyId });
  });
});

describe('deny wins over allow', () => {
  it('refuses with 403 naming OUTCOME_DENY_EXPLICIT, its details carrying the deny policy id and not the allow', async () => {
    const alice = await member('alice');
    const { policyId: allowId } = await sdk(rootKey).createPolicy({
      policyName: uniqueName('allow'),
      effect: 'EFFECT_ALLOW',
      notes: '',
      condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
      consensus: `approvers.any(user, user.id == '${alice.userId}')`,
    });
    // The allow alone lets alice create a wallet at once.
    expect((await sdk(alice.key).createWallet({ walletName: uniqueName('allowed'), accounts: [] })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');

    const { policyId: denyId } = await sdk(rootKey).createPolicy({ policyName: uniqueName('deny'), effect: 'EFFECT_DENY', notes: '', condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'" });
    const walletName = uniqueName('denied');
    const denied = await refusal(sdk(alice.key).createWallet({ walletName, accounts: [] }));
    expect(denied.code).toBe(7);
    expect(denied.codes).toEqual(['REQUEST_NOT_AUTHORIZED']);
    expect(denied.message).toContain('OUTCOME_DENY_EXPLICIT');
    expect(denied.fields).toEqual({ outcome: 'OUTCOME_DENY_EXPLICIT', policyIds: [denyId] });
    expect(denied.fields['policyIds']).not.toContain(allowId);

    // The same request as the client stamps it, sent as is: the HTTP status is 403.
    const stamped = (await sdk(alice.key).stampCreateWallet({ walletName, accounts: [] }))!;
    const res = await rawRequest(stamped.url, { body: stamped.body, headers: { 'content-type': 'application/json', [stamped.stamp.stampHeaderName]: stamped.stamp.stampHeaderValue } });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: 7, details: [{ turnkeyErrorCode: 'REQUEST_NOT_AUTHORIZED', fields: { outcome: 'OUTCOME_DENY_EXPLICIT', policyIds: [denyId] } }] });

    expect((await sdk(rootKey).getWallets({})).wallets.map((w) => w.walletName)).not.toContain(walletName);
    await sdk(rootKey).deletePolicies({ policyIds: [allowId, denyId] });
  });
});

describe('update_organization_name', () => {
  const organizationName = async () => (await http(rootKey).getOrganization({ organizationId: orgId })).organizationData.name;

  it('renames the organization for the root quorum, through the unmodified sdk-server', async () => {
    const before = await organizationName();
    const name = uniqueName('renamed');
    const res = await sdk(rootKey).updateOrganizationName({ organizationName: name });
    expect(res).toMatchObject({ organizationId: orgId, organizationName: name });
    expect(await organizationName()).toBe(name);
    expect((await sdk(rootKey).getWhoami({ organizationId: orgId })).organizationName).toBe(name);
    await sdk(rootKey).updateOrganizationName({ organizationName: before! });
  });

  it('is decided by the root quorum alone: a member without it is refused, even with an allowing policy', async () => {
    const bob = await member('bob-renamer');
    const { policyId } = await sdk(rootKey).createPolicy({ policyName: uniqueName('allow-rename'), effect: 'EFFECT_ALLOW', notes: '', condition: "activity.type == 'ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME'" });
    const before = await organizationName();
    const refused = await refusal(sdk(bob.key).updateOrganizationName({ organizationName: uniqueName('nope') }));
    expect(refused.codes).toEqual(['REQUEST_NOT_AUTHORIZED']);
    expect(await organizationName()).toBe(before);
    await sdk(rootKey).deletePolicy({ policyId });
  });

  it('refuses an empty name with a 400 naming the field, and renames nothing', async () => {
    const before = await organizationName();
    const refused = await refusal(sdk(rootKey).updateOrganizationName({ organizationName: '  ' }));
    expect(refused.message).toContain('organizationName');
    expect(await organizationName()).toBe(before);
  });
});
