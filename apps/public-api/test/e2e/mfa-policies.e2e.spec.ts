/**
 * MFA policies end to end (issue 16 §3), through the unmodified `@turnkey/sdk-server`:
 * create/update/delete_mfa_policy and get_mfa_policy(ies) with their refusals (nothing written);
 * an activity of the policy's user matching its condition waits in
 * ACTIVITY_STATUS_AUTHENTICATORS_NEEDED with nothing executed, until the user approves it with an
 * API key and then a passkey (the testkit's software authenticator, `X-Stamp-Webauthn`); the wrong
 * method, the wrong order or another user is refused naming what is expected, and counts nothing;
 * get_mfa_status shows the steps; an activity the condition does not match runs at once; the
 * initiator's rejection cancels a waiting one.
 */
import { createSoftwareAuthenticator, type TLatchkey, type TSoftwareAuthenticator } from '@latchkey/testkit';
import { TurnkeyServerClient } from '@turnkey/sdk-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TMember } from './policy-e2e-helpers.js';
import { latchkeyForThisFile } from './shared-platform.js';

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let alice: TMember;
let phone: TSoftwareAuthenticator;
let passkeyId: string;

const root = () => e2e.sdk(e2e.rootKey);
const asAlice = () => e2e.sdk(alice.key);
/** Alice's passkey as a client: every request stamped with X-Stamp-Webauthn. */
const alicePasskey = () => new TurnkeyServerClient({ stamper: phone.stamper, apiBaseUrl: latchkey.baseUrl, organizationId: e2e.orgId });

const API_KEY_THEN_PASSKEY = [{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY' as const }] }, { any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY' as const }] }];
const CREATE_WALLET_ONLY = "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'";

const walletNames = async () => (await root().getWallets({})).wallets.map((w) => w.walletName);
const mfaPolicies = async (userId: string) => (await root().getMfaPolicies({ userId })).mfaPolicies;

beforeAll(async () => {
  // A readiness wait, not a speed assertion: the shared machine can take minutes to start it.
  latchkey = await latchkeyForThisFile({ apps: ['public-api'], timeoutMs: 170_000 });
  e2e = policyE2e(latchkey);
  alice = await e2e.member('alice');
  phone = createSoftwareAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' });
  const created = await root().createAuthenticators({ userId: alice.userId, authenticators: [phone.authenticatorParams('alice-phone', { format: 'none' })] });
  passkeyId = created.authenticatorIds[0]!;
  // Alice may create wallets and their accounts on her own.
  await root().createPolicy({
    policyName: uniqueName('alice-wallets'),
    effect: 'EFFECT_ALLOW',
    condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    consensus: `approvers.any(user, user.id == '${alice.userId}')`,
    notes: '',
  });
}, 240_000);

afterAll(async () => {
  await latchkey?.stop();
});

describe('MFA policy CRUD', () => {
  it('creates, reads, updates and deletes a policy as v1MfaPolicy', async () => {
    const bob = await e2e.member('bob');
    const name = uniqueName('mfa');
    const { mfaPolicyId } = await root().createMfaPolicy({ userId: bob.userId, mfaPolicyName: name, condition: "activity.resource == 'PRIVATE_KEY'", requiredAuthenticationMethods: API_KEY_THEN_PASSKEY, order: 3, notes: 'signing' });
    const { mfaPolicy } = await root().getMfaPolicy({ userId: bob.userId, mfaPolicyId });
    expect(mfaPolicy).toMatchObject({ mfaPolicyId, mfaPolicyName: name, condition: "activity.resource == 'PRIVATE_KEY'", requiredAuthenticationMethods: API_KEY_THEN_PASSKEY, order: 3, notes: 'signing' });
    expect(Number(mfaPolicy.createdAt.seconds)).toBeGreaterThan(0);

    const second = (await root().createMfaPolicy({ userId: bob.userId, mfaPolicyName: uniqueName('first'), condition: 'true', requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY' }] }], order: 1 })).mfaPolicyId;
    // Listed in evaluation order.
    expect((await mfaPolicies(bob.userId)).map((p) => p.mfaPolicyId)).toEqual([second, mfaPolicyId]);

    await root().updateMfaPolicy({ userId: bob.userId, mfaPolicyId, mfaPolicyName: 'renamed', order: 0, requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY' }, { type: 'AUTHENTICATION_TYPE_PASSKEY', id: 'some-authenticator' }] }] });
    const updated = (await root().getMfaPolicy({ userId: bob.userId, mfaPolicyId })).mfaPolicy;
    expect(updated).toMatchObject({ mfaPolicyName: 'renamed', order: 0, condition: "activity.resource == 'PRIVATE_KEY'", notes: 'signing' });
    expect(updated.requiredAuthenticationMethods).toEqual([{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY' }, { type: 'AUTHENTICATION_TYPE_PASSKEY', id: 'some-authenticator' }] }]);
    expect((await mfaPolicies(bob.userId)).map((p) => p.mfaPolicyId)).toEqual([mfaPolicyId, second]);

    await root().deleteMfaPolicy({ userId: bob.userId, mfaPolicyId });
    await root().deleteMfaPolicy({ userId: bob.userId, mfaPolicyId: second });
    expect(await mfaPolicies(bob.userId)).toEqual([]);
    const gone = await refusal(root().getMfaPolicy({ userId: bob.userId, mfaPolicyId }));
    expect(gone.codes).toContain('NOT_FOUND');
    expect(gone.message).toContain(mfaPolicyId);
  });

  it('refuses a bad condition, bad steps, an unknown user or policy, and writes nothing', async () => {
    const carol = await e2e.member('carol');
    const base = { userId: carol.userId, mfaPolicyName: uniqueName('bad'), condition: 'true', requiredAuthenticationMethods: API_KEY_THEN_PASSKEY, order: 0 };

    const syntax = await refusal(root().createMfaPolicy({ ...base, condition: "activity.type == 'X' &&" }));
    expect(syntax.code).toBe(3);
    expect(syntax.message).toMatch(/error 3: condition: /);
    expect(syntax.fields).toMatchObject({ field: 'condition' });

    const empty = await refusal(root().createMfaPolicy({ ...base, requiredAuthenticationMethods: [] }));
    expect(empty.message).toContain('requiredAuthenticationMethods');
    const badType = await refusal(root().createMfaPolicy({ ...base, requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_TELEPATHY' as 'AUTHENTICATION_TYPE_PASSKEY' }] }] }));
    expect(badType.message).toContain('requiredAuthenticationMethods');
    const negative = await refusal(root().createMfaPolicy({ ...base, order: -1 }));
    expect(negative.message).toContain('order');

    const nobody = await refusal(root().createMfaPolicy({ ...base, userId: 'no-such-user' }));
    expect(nobody.codes).toContain('NOT_FOUND');
    expect(nobody.message).toContain('no-such-user');
    expect(await mfaPolicies(carol.userId)).toEqual([]);

    const { mfaPolicyId } = await root().createMfaPolicy(base);
    const badUpdate = await refusal(root().updateMfaPolicy({ userId: carol.userId, mfaPolicyId, condition: 'activity.(', mfaPolicyName: 'must not stick' }));
    expect(badUpdate.message).toMatch(/error 3: condition: /);
    expect((await root().getMfaPolicy({ userId: carol.userId, mfaPolicyId })).mfaPolicy).toMatchObject({ mfaPolicyName: base.mfaPolicyName, condition: 'true' });
    expect((await refusal(root().updateMfaPolicy({ userId: carol.userId, mfaPolicyId: 'no-such-policy', order: 2 }))).codes).toContain('NOT_FOUND');
    // Another user's policy is not found under this one.
    expect((await refusal(root().deleteMfaPolicy({ userId: alice.userId, mfaPolicyId }))).codes).toContain('NOT_FOUND');
    await root().deleteMfaPolicy({ userId: carol.userId, mfaPolicyId });
  });

  it('is policy-checked: a user without a policy allowing it cannot create one', async () => {
    const dave = await e2e.member('dave');
    const denied = await refusal(e2e.sdk(dave.key).createMfaPolicy({ userId: dave.userId, mfaPolicyName: uniqueName('own'), condition: 'true', requiredAuthenticationMethods: API_KEY_THEN_PASSKEY, order: 0 }));
    expect(denied.codes).toContain('REQUEST_NOT_AUTHORIZED');
    expect(await mfaPolicies(dave.userId)).toEqual([]);
  });
});

describe('MFA enforcement', () => {
  let mfaPolicyId: string;

  beforeAll(async () => {
    // A policy that never matches comes first in order; the create_wallet one applies.
    await root().createMfaPolicy({ userId: alice.userId, mfaPolicyName: uniqueName('never'), condition: 'false', requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_OAUTH' }] }], order: 0 });
    ({ mfaPolicyId } = await root().createMfaPolicy({ userId: alice.userId, mfaPolicyName: uniqueName('wallets'), condition: CREATE_WALLET_ONLY, requiredAuthenticationMethods: API_KEY_THEN_PASSKEY, order: 1 }));
  }, 60_000);

  it('holds a matching activity until the API key and then the passkey approve it, refusing the wrong method or order', async () => {
    const walletName = uniqueName('mfa-wallet');
    const waiting = await asAlice().createWallet({ walletName, accounts: [accountParams(0)] });
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED');
    const { id: activityId, fingerprint } = waiting.activity;
    expect(await walletNames()).not.toContain(walletName);

    const status = async () => (await asAlice().getMfaStatus({ activityId })).mfaStatuses;
    expect(await status()).toEqual([{ mfaPolicyId, userId: alice.userId, satisfied: false, satisfiedMethods: [], requiredMethods: API_KEY_THEN_PASSKEY }]);

    // The passkey first: the wrong order, nothing counted.
    const early = await refusal(alicePasskey().approveActivity({ fingerprint }));
    expect(early.code).toBe(3);
    expect(early.message).toContain('expects AUTHENTICATION_TYPE_API_KEY');
    expect((await status())[0]!.satisfiedMethods).toEqual([]);
    // Someone else's approval is not Alice's MFA.
    const stranger = await refusal(root().approveActivity({ fingerprint }));
    expect(stranger.message).toContain(`only that user can approve it now`);

    const first = await asAlice().approveActivity({ fingerprint });
    expect(first.activity.status).toBe('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED');
    expect(await status()).toEqual([{ mfaPolicyId, userId: alice.userId, satisfied: false, satisfiedMethods: [{ type: 'AUTHENTICATION_TYPE_API_KEY', id: expect.any(String) }], requiredMethods: API_KEY_THEN_PASSKEY }]);
    expect(await walletNames()).not.toContain(walletName);

    // The API key again: step 2 wants the passkey.
    const again = await refusal(asAlice().approveActivity({ fingerprint }));
    expect(again.message).toContain('expects AUTHENTICATION_TYPE_PASSKEY');
    expect((await status())[0]!.satisfiedMethods).toHaveLength(1);

    const done = await alicePasskey().approveActivity({ fingerprint });
    expect(done.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(await walletNames()).toContain(walletName);
    const [final] = await status();
    expect(final).toMatchObject({ satisfied: true, satisfiedMethods: [{ type: 'AUTHENTICATION_TYPE_API_KEY' }, { type: 'AUTHENTICATION_TYPE_PASSKEY', id: passkeyId }] });
    const { activity } = await root().getActivity({ activityId });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((activity.result as { createWalletResult?: { walletId?: string } }).createWalletResult?.walletId).toEqual(expect.any(String));
    // Finished: no more steps to take.
    expect((await refusal(alicePasskey().approveActivity({ fingerprint }))).code).toBe(3);
  });

  it('runs an activity the condition does not match at once, and has no MFA status for it', async () => {
    const { walletId } = await root().createWallet({ walletName: uniqueName('root-wallet'), accounts: [accountParams(0)] });
    const r = await asAlice().createWalletAccounts({ walletId, accounts: [accountParams(1)] });
    expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(r.addresses).toHaveLength(1);
    expect((await asAlice().getMfaStatus({ activityId: r.activity.id })).mfaStatuses).toEqual([]);
    // Another user's create_wallet is not Alice's MFA's business.
    const rootWallet = await root().createWallet({ walletName: uniqueName('root-wallet'), accounts: [accountParams(0)] });
    expect(rootWallet.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });

  it('sends a completed MFA on through consensus: CONSENSUS_NEEDED with the MFA approval as the first vote, then the co-approver runs it', async () => {
    const erin = await e2e.member('erin');
    const frank = await e2e.member('frank');
    await root().createPolicy({
      policyName: uniqueName('erin-keys'),
      effect: 'EFFECT_ALLOW',
      condition: "activity.resource == 'PRIVATE_KEY' && activity.action == 'CREATE'",
      consensus: `approvers.any(user, user.id == '${erin.userId}') && approvers.any(user, user.id == '${frank.userId}')`,
      notes: '',
    });
    await root().createMfaPolicy({ userId: erin.userId, mfaPolicyName: uniqueName('keys'), condition: "activity.resource == 'PRIVATE_KEY'", requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY' }] }], order: 0 });
    const privateKeyName = uniqueName('erin-key');
    const waiting = await e2e.sdk(erin.key).createPrivateKeys({ privateKeys: [{ privateKeyName, curve: 'CURVE_SECP256K1', addressFormats: ['ADDRESS_FORMAT_ETHEREUM'], privateKeyTags: [] }] });
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED');
    const { fingerprint, id: activityId } = waiting.activity;
    // Frank cannot take Erin's MFA step, nor vote before it is done.
    expect((await refusal(e2e.sdk(frank.key).approveActivity({ fingerprint }))).message).toContain('only that user can approve it now');

    const afterMfa = await e2e.sdk(erin.key).approveActivity({ fingerprint });
    expect(afterMfa.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(afterMfa.activity.votes?.map((v) => v.userId)).toEqual([erin.userId]);
    expect((await root().getPrivateKeys({})).privateKeys.map((k) => k.privateKeyName)).not.toContain(privateKeyName);

    const done = await e2e.sdk(frank.key).approveActivity({ fingerprint });
    expect(done.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await root().getPrivateKeys({})).privateKeys.map((k) => k.privateKeyName)).toContain(privateKeyName);
    expect((await root().getMfaStatus({ activityId, userId: erin.userId })).mfaStatuses).toMatchObject([{ userId: erin.userId, satisfied: true }]);
    expect((await root().getMfaStatus({ activityId, userId: frank.userId })).mfaStatuses).toEqual([]);
  });

  it("lets the initiator cancel a waiting activity, and stops once the MFA policy is deleted", async () => {
    const walletName = uniqueName('cancelled');
    const waiting = await asAlice().createWallet({ walletName, accounts: [accountParams(0)] });
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED');
    const rejected = await asAlice().rejectActivity({ fingerprint: waiting.activity.fingerprint });
    expect(rejected.activity.status).toBe('ACTIVITY_STATUS_REJECTED');
    expect(await walletNames()).not.toContain(walletName);

    await root().deleteMfaPolicy({ userId: alice.userId, mfaPolicyId });
    const free = await asAlice().createWallet({ walletName: uniqueName('free'), accounts: [accountParams(0)] });
    expect(free.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });
});
