/**
 * The approval window (issue 16 §1): a waiting activity's votes lapse LATCHKEY_APPROVAL_WINDOW_SECONDS
 * after the first — here 6 s instead of Turnkey's 24 h — after which it still waits, shows no
 * votes and must be approved again; the initiator re-submitting the identical body is its
 * approval again. Driven through the unmodified `@turnkey/sdk-server` and `@turnkey/http` against
 * one real Latchkey.
 */
import type { TurnkeyApiTypes } from '@turnkey/http';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletRequest, uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair, type TMember } from './policy-e2e-helpers.js';

type TActivity = TurnkeyApiTypes['v1Activity'];

const WINDOW_SECONDS = 6;

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
const sdk = (key: TKeyPair) => e2e.sdk(key);
const http = (key: TKeyPair) => e2e.http(key);

/** Waits until the window opened at `createdAt` (the first vote) has run out, with a margin. */
async function untilLapsed(createdAt: { seconds: string; nanos: string }): Promise<void> {
  const opened = Number(createdAt.seconds) * 1000 + Math.floor(Number(createdAt.nanos) / 1e6);
  const wait = opened + WINDOW_SECONDS * 1000 + 300 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}

const read = async (key: TKeyPair, activityId: string) => (await http(key).getActivity({ organizationId: e2e.orgId, activityId })).activity;

let alice: TMember;
let bob: TMember;
let policyId: string;

beforeAll(async () => {
  latchkey = await startLatchkey({ apps: ['public-api'], env: { LATCHKEY_APPROVAL_WINDOW_SECONDS: String(WINDOW_SECONDS) } });
  e2e = policyE2e(latchkey);
  [alice, bob] = [await e2e.member('alice'), await e2e.member('bob')];
  // Both alice and bob must approve a wallet.
  ({ policyId } = await sdk(e2e.rootKey).createPolicy({
    policyName: uniqueName('two-of-two'),
    effect: 'EFFECT_ALLOW',
    notes: 'approval window e2e',
    condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    consensus: `approvers.any(user, user.id == '${alice.userId}') && approvers.any(user, user.id == '${bob.userId}')`,
  }));
}, 120_000);

afterAll(async () => {
  if (policyId) await sdk(e2e.rootKey).deletePolicy({ policyId }).catch(() => undefined);
  await latchkey?.stop();
});

describe('approval window', () => {
  it('inside the window the votes count: the second approval completes the activity', async () => {
    const walletName = uniqueName('in-window');
    const waiting = (await sdk(alice.key).createWallet({ walletName, accounts: [] })) as unknown as { activity: TActivity };
    expect(waiting.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    // A user cannot vote twice inside the window.
    expect((await refusal(sdk(alice.key).approveActivity({ fingerprint: waiting.activity.fingerprint }))).message).toContain('already voted');
    const done = await sdk(bob.key).approveActivity({ fingerprint: waiting.activity.fingerprint });
    expect(done.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await sdk(e2e.rootKey).getWallets({})).wallets.map((w) => w.walletName)).toContain(walletName);
  });

  it('after the window the activity waits with no votes; a late approval alone does not complete it; re-submitting the same body is the initiator approving again', async () => {
    const walletName = uniqueName('lapsed');
    const body = createWalletRequest(e2e.orgId, walletName, []);
    const submitted = (await http(alice.key).createWallet(body)).activity;
    expect(submitted.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(submitted.votes.map((v) => v.userId)).toEqual([alice.userId]);

    await untilLapsed(submitted.createdAt);
    const lapsed = await read(bob.key, submitted.id);
    expect(lapsed.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(lapsed.votes).toEqual([]);
    expect(lapsed.canApprove).toBe(true);
    // alice's approval lapsed with the rest: she may vote again.
    expect((await read(alice.key, submitted.id)).canApprove).toBe(true);

    // bob's approval now stands alone: alice's lapsed one is not counted with it.
    const afterBob = await sdk(bob.key).approveActivity({ fingerprint: submitted.fingerprint });
    expect(afterBob.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(afterBob.activity.votes.map((v) => v.userId)).toEqual([bob.userId]);
    expect((await sdk(e2e.rootKey).getWallets({})).wallets.map((w) => w.walletName)).not.toContain(walletName);

    // The identical body again (same timestampMs, so the same fingerprint): alice's approval again.
    const again = (await http(alice.key).createWallet(body)).activity;
    expect(again.id).toBe(submitted.id);
    expect(again.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await sdk(e2e.rootKey).getWallets({})).wallets.filter((w) => w.walletName === walletName)).toHaveLength(1);
    // The lapsed vote is gone from the record; the two live approvals decided it.
    expect((await read(alice.key, submitted.id)).votes.map((v) => v.userId).sort()).toEqual([alice.userId, bob.userId].sort());
  });

  it('a re-submission inside the window changes nothing, and one by another user is only answered', async () => {
    const body = createWalletRequest(e2e.orgId, uniqueName('repeat'), []);
    const submitted = (await http(alice.key).createWallet(body)).activity;
    const repeat = (await http(alice.key).createWallet(body)).activity;
    expect(repeat.id).toBe(submitted.id);
    expect(repeat.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(repeat.votes.map((v) => v.userId)).toEqual([alice.userId]);

    await untilLapsed(submitted.createdAt);
    // bob sending alice's body is not alice approving, nor an approval of bob's own.
    const byBob = (await http(bob.key).createWallet(body)).activity;
    expect(byBob.id).toBe(submitted.id);
    expect(byBob.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(byBob.votes).toEqual([]);

    // Alone, alice's renewed approval leaves it waiting for bob's.
    const renewed = (await http(alice.key).createWallet(body)).activity;
    expect(renewed.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(renewed.votes.map((v) => v.userId)).toEqual([alice.userId]);
    expect((await sdk(bob.key).approveActivity({ fingerprint: submitted.fingerprint })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });

  it('a lapsed activity can still be rejected by a required approver', async () => {
    const submitted = (await http(alice.key).createWallet(createWalletRequest(e2e.orgId, uniqueName('lapsed-reject'), []))).activity;
    await untilLapsed(submitted.createdAt);
    const rejected = await sdk(bob.key).rejectActivity({ fingerprint: submitted.fingerprint });
    expect(rejected.activity.status).toBe('ACTIVITY_STATUS_REJECTED');
    expect(rejected.activity.votes.map((v) => [v.userId, v.selection])).toEqual([[bob.userId, 'VOTE_SELECTION_REJECTED']]);
  });
});
