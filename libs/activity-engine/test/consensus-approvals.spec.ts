/**
 * Approving a waiting activity, in process against a real database:
 *  - each approval is evaluated with the credential it was cast with — id, type, credential_id,
 *    public_key as at submission — so a consensus on passkeys can be met by a passkey approval
 *    (and not by an API key of the same user);
 *  - `canApprove` / `canReject` say whether the reader's approval would count (consensus.ts
 *    `votingState`): the 2nd of three needed approvers can approve, a user the consensus does not
 *    count cannot, and nobody can once the activity is decided;
 *  - what an approved handler announces reaches this process's caches at commit.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { generateP256KeyPair, newId } from '@latchkey/crypto';
import type { TActivity } from '@latchkey/domain';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type TFixture, type TKeyPair } from '../src/testing/fixture.js';
import { completed, createPolicy, deletePolicy, member, p256Key, type TMember } from './helpers.js';

const WEBAUTHN = 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR';

const createWallet = (f: TFixture, key: TKeyPair) => f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: `w-${newId()}`, accounts: [] }, key);
const approve = (f: TFixture, a: TActivity, key: TKeyPair) => f.submit('approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', { fingerprint: a.fingerprint }, key);
const reject = (f: TFixture, a: TActivity, key: TKeyPair) => f.submit('reject_activity', 'ACTIVITY_TYPE_REJECT_ACTIVITY', { fingerprint: a.fingerprint }, key);
const flags = async (f: TFixture, a: TActivity, key: TKeyPair) => {
  const { activity } = await f.query<{ activity: TActivity }>('get_activity', { activityId: a.id }, key);
  return { canApprove: activity.canApprove, canReject: activity.canReject };
};

/**
 * A passkey of `userId`, stored as create_authenticators stores one (compressed P-256), that
 * stamps requests with X-Stamp-Webauthn as a browser does (challenge = hex of the body's SHA-256,
 * a signature counter that moves forward).
 */
async function passkey(f: TFixture, userId: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' }) as { privateKey: KeyObject; publicKey: KeyObject };
  const jwk = publicKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y!, 'base64url');
  const compressed = `${(y[31]! & 1) === 1 ? '03' : '02'}${Buffer.from(jwk.x!, 'base64url').toString('hex')}`;
  const credentialId = Buffer.from(newId()).toString('base64url');
  const authenticatorId = newId();
  await f.store.credentials.createAuthenticator({ id: authenticatorId, organizationId: f.root.organizationId, userId, name: 'laptop', credentialId, publicKey: compressed });
  let counter = 0;
  const stamp = (body: string) => {
    counter += 1;
    const challenge = Buffer.from(createHash('sha256').update(body).digest('hex')).toString('base64url');
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: 'https://app.example' }));
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const authData = Buffer.concat([createHash('sha256').update('app.example').digest(), Buffer.from([0x05]), count]);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), privateKey);
    return { 'x-stamp-webauthn': JSON.stringify({ authenticatorData: authData.toString('base64url'), clientDataJson: clientData.toString('base64url'), credentialId, signature: signature.toString('base64url') }) };
  };
  const submit = async (path: string, type: string, parameters: object) => {
    const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: f.root.organizationId, parameters });
    return (await f.engine.submit(path, stamp(body), Buffer.from(body))).activity;
  };
  return { authenticatorId, credentialId, publicKey: compressed, submit };
}

afterAll(stopTestPostgres);

describe('consensus on credentials', () => {
  let f: TFixture;
  beforeAll(async () => {
    f = await createFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  it('a consensus that needs a passkey is met by a passkey approval, with the same facts as at submission, and not by an API key of the same user', async () => {
    const [ivan, pat] = [await member(f, 'ivan'), await member(f, 'pat')];
    const pk = await passkey(f, pat.userId);
    const exact = `c.type == '${WEBAUTHN}' && c.id == '${pk.authenticatorId}' && c.user_id == '${pat.userId}' && c.credential_id == '${pk.credentialId}' && c.public_key == '${pk.publicKey}'`;
    const policyId = await createPolicy(f, { condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'", consensus: `credentials.any(c, ${exact})` });

    const byPasskey = await createWallet(f, ivan.key);
    expect(byPasskey.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(await flags(f, byPasskey, pat.key)).toEqual({ canApprove: true, canReject: true });
    completed(await pk.submit('approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', { fingerprint: byPasskey.fingerprint }), 'createWalletResult');

    const byApiKey = await createWallet(f, ivan.key);
    const after = await approve(f, byApiKey, pat.key);
    expect(after.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(after.votes.map((v) => v.userId).sort()).toEqual([ivan.userId, pat.userId].sort());
    await reject(f, byApiKey, ivan.key);
    await deletePolicy(f, policyId);
  });

  it("the initiator's passkey submission still counts as a passkey when the next approval is evaluated", async () => {
    const [quinn, rosa] = [await member(f, 'quinn'), await member(f, 'rosa')];
    const [qpk, rpk] = [await passkey(f, quinn.userId), await passkey(f, rosa.userId)];
    const policyId = await createPolicy(f, { condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'", consensus: `credentials.filter(c, c.type == '${WEBAUTHN}').count() >= 2` });
    const waiting = await qpk.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: `w-${newId()}`, accounts: [] });
    expect(waiting.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    completed(await rpk.submit('approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', { fingerprint: waiting.fingerprint }), 'createWalletResult');
    // The votes say which credential cast them.
    const votes = await f.store.activities.votes(f.root.organizationId, waiting.id);
    expect(votes.map((v) => ({ userId: v.userId, credentialId: v.credentialId, credentialType: v.credentialType }))).toEqual(
      expect.arrayContaining([
        { userId: quinn.userId, credentialId: qpk.authenticatorId, credentialType: WEBAUTHN },
        { userId: rosa.userId, credentialId: rpk.authenticatorId, credentialType: WEBAUTHN },
      ]),
    );
    await deletePolicy(f, policyId);
  });
});

describe('rejecting under a consensus on credentials', () => {
  let f: TFixture;
  beforeAll(async () => {
    f = await createFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  it("a rejection by someone whose approval would count ends the activity at once; anyone else's leaves it waiting", async () => {
    const [sam, tia, uma, vic] = [await member(f, 'sam'), await member(f, 'tia'), await member(f, 'uma'), await member(f, 'vic')];
    await passkey(f, tia.userId);
    await passkey(f, uma.userId);
    const policyId = await createPolicy(f, { condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'", consensus: `credentials.filter(c, c.type == '${WEBAUTHN}').count() >= 2` });
    const waiting = await createWallet(f, sam.key);
    expect(waiting.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    // vic has no passkey: his approval would not count, so neither does his "no".
    expect(await flags(f, waiting, vic.key)).toEqual({ canApprove: false, canReject: false });
    expect((await reject(f, waiting, vic.key)).status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    // tia's passkey approval would count: her rejection ends it, though uma and the root could still approve.
    expect(await flags(f, waiting, tia.key)).toEqual({ canApprove: true, canReject: true });
    expect((await reject(f, waiting, tia.key)).status).toBe('ACTIVITY_STATUS_REJECTED');
    // A root quorum member's approval always counts, and so does its rejection.
    const other = await createWallet(f, sam.key);
    expect((await reject(f, other, f.root)).status).toBe('ACTIVITY_STATUS_REJECTED');
    await deletePolicy(f, policyId);
  });
});

describe('canApprove and canReject', () => {
  let f: TFixture;
  let tag: string;
  let alice: TMember, bob: TMember, carol: TMember, dave: TMember, erin: TMember;
  beforeAll(async () => {
    f = await createFixture();
    tag = completed<{ userTagId: string }>(await f.submit('create_user_tag', 'ACTIVITY_TYPE_CREATE_USER_TAG', { userTagName: 'approvers', userIds: [] }), 'createUserTagResult').userTagId;
    [alice, bob, carol] = [await member(f, 'alice', [tag]), await member(f, 'bob', [tag]), await member(f, 'carol', [tag])];
    [dave, erin] = [await member(f, 'dave'), await member(f, 'erin')];
  });
  afterAll(async () => {
    await f?.close();
  });
  const needs = (n: number) => createPolicy(f, { condition: "activity.resource == 'WALLET'", consensus: `approvers.filter(user, user.tags.contains('${tag}')).count() >= ${n}` });

  it('2 of 3: each tagged approver may approve while it waits, the others may not, and nobody once it completes', async () => {
    const policyId = await needs(2);
    // dave is not one of the approvers the rule counts: his submission is no approval toward it.
    const waiting = await createWallet(f, dave.key);
    expect(waiting.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(await flags(f, waiting, alice.key)).toEqual({ canApprove: true, canReject: true });
    expect(await flags(f, waiting, dave.key)).toEqual({ canApprove: false, canReject: true });
    expect(await flags(f, waiting, erin.key)).toEqual({ canApprove: false, canReject: false });
    // The root quorum's member can always approve (the quorum bypasses policies).
    expect(await flags(f, waiting, f.root)).toEqual({ canApprove: true, canReject: true });

    const first = await approve(f, waiting, alice.key);
    expect(first.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect({ canApprove: first.canApprove, canReject: first.canReject }).toEqual({ canApprove: false, canReject: false });
    expect(await flags(f, waiting, bob.key)).toEqual({ canApprove: true, canReject: true });
    expect(await flags(f, waiting, erin.key)).toEqual({ canApprove: false, canReject: false });

    completed(await approve(f, waiting, bob.key), 'createWalletResult');
    for (const key of [alice.key, bob.key, carol.key, dave.key, erin.key, f.root]) expect(await flags(f, waiting, key)).toEqual({ canApprove: false, canReject: false });
    await deletePolicy(f, policyId);
  });

  it('3 of 3: the 2nd and 3rd approvers may approve; a rejected activity leaves nobody anything to do', async () => {
    const policyId = await needs(3);
    const waiting = await createWallet(f, alice.key);
    expect(waiting.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect({ canApprove: waiting.canApprove, canReject: waiting.canReject }).toEqual({ canApprove: false, canReject: true });
    expect(await flags(f, waiting, bob.key)).toEqual({ canApprove: true, canReject: true });
    expect(await flags(f, waiting, carol.key)).toEqual({ canApprove: true, canReject: true });
    expect(await flags(f, waiting, dave.key)).toEqual({ canApprove: false, canReject: false });

    expect((await approve(f, waiting, bob.key)).status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(await flags(f, waiting, carol.key)).toEqual({ canApprove: true, canReject: true });
    completed(await approve(f, waiting, carol.key), 'createWalletResult');
    for (const key of [alice.key, bob.key, carol.key, dave.key]) expect(await flags(f, waiting, key)).toEqual({ canApprove: false, canReject: false });

    const cancelled = await createWallet(f, alice.key);
    expect((await reject(f, cancelled, alice.key)).status).toBe('ACTIVITY_STATUS_REJECTED');
    for (const key of [alice.key, bob.key, carol.key, dave.key, f.root]) expect(await flags(f, cancelled, key)).toEqual({ canApprove: false, canReject: false });
    await deletePolicy(f, policyId);
  });

  it('counts the approvers a consensus names by id, and every approver for an unfiltered count', async () => {
    const byId = await createPolicy(f, { condition: "activity.resource == 'WALLET'", consensus: `approvers.any(user, user.id == '${alice.userId}') && approvers.any(user, user.id == '${bob.userId}')` });
    const waiting = await createWallet(f, dave.key);
    expect(await flags(f, waiting, alice.key)).toEqual({ canApprove: true, canReject: true });
    expect(await flags(f, waiting, bob.key)).toEqual({ canApprove: true, canReject: true });
    expect(await flags(f, waiting, carol.key)).toEqual({ canApprove: false, canReject: false });
    await reject(f, waiting, dave.key);
    await deletePolicy(f, byId);

    const anyone = await createPolicy(f, { condition: "activity.resource == 'WALLET'", consensus: 'approvers.count() >= 3' });
    const open = await createWallet(f, dave.key);
    expect(await flags(f, open, erin.key)).toEqual({ canApprove: true, canReject: true });
    await reject(f, open, dave.key);
    await deletePolicy(f, anyone);
  });
});

describe("an approved activity's effects reach this process's caches at once", () => {
  let f: TFixture;
  let rootB: TMember;
  beforeAll(async () => {
    f = await createFixture();
    rootB = await member(f, 'root-b');
    completed(await f.submit('update_root_quorum', 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', { threshold: 2, userIds: [f.root.userId, rootB.userId] }), 'updateRootQuorumResult');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('an approved delete_api_keys: the deleted key stops authenticating at the next request', async () => {
    const spare = generateP256KeyPair();
    const added = await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId: rootB.userId, apiKeys: [p256Key('spare', spare)] }, rootB.key);
    const [spareId] = completed<{ apiKeyIds: string[] }>(added, 'createApiKeysResult').apiKeyIds;
    // Signed in once: the key is in this process's cache.
    expect((await f.query<{ userId: string }>('whoami', {}, spare)).userId).toBe(rootB.userId);
    const waiting = await f.submit('delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', { userId: rootB.userId, apiKeyIds: [spareId] });
    expect(waiting.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    completed(await approve(f, waiting, rootB.key), 'deleteApiKeysResult');
    await expect(f.query('whoami', {}, spare)).rejects.toMatchObject({ httpStatus: 401 });
  });

  it('an approved update_root_quorum holds for the very next submission', async () => {
    // The 2-of-2 quorum is in this process's cache: the root user's wallet waits.
    const before = await createWallet(f, f.root);
    expect(before.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    await reject(f, before, f.root);
    const lower = await f.submit('update_root_quorum', 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', { threshold: 1, userIds: [f.root.userId] });
    expect(lower.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    completed(await approve(f, lower, rootB.key), 'updateRootQuorumResult');
    completed(await createWallet(f, f.root), 'createWalletResult');
  });
});
