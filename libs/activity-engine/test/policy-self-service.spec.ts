/**
 * The implicit "manage one's own credentials" allow (policy-decision.ts step 4) covers only
 * activities whose every target user is the caller. Another user's credentials — a root user's
 * included — go through the root quorum, the deny policies and the allow policies like any other
 * activity, and a credential handler never refuses what the policies allowed. Against a real
 * database, in process.
 */
import { generateP256KeyPair } from '@latchkey/crypto';
import type { TActivity } from '@latchkey/domain';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type TFixture, type TKeyPair } from '../src/testing/fixture.js';
import { completed, createPolicy, deletePolicy, member, p256Key } from './helpers.js';

const CREATE_API_KEYS = 'ACTIVITY_TYPE_CREATE_API_KEYS_V2';

const refusal = (p: Promise<unknown>) => p.then((v) => ({ notRefused: v }), (e: unknown) => e);
const whoami = (f: TFixture, key: TKeyPair) => f.query<{ userId: string }>('whoami', {}, key);

afterAll(stopTestPostgres);

describe('self-service credential activities, root quorum of one', () => {
  let f: TFixture;
  beforeAll(async () => {
    f = await createFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  it('a user adds a key to itself with no policy at all', async () => {
    const kim = await member(f, 'kim');
    const extra = generateP256KeyPair();
    completed(await f.submit('create_api_keys', CREATE_API_KEYS, { userId: kim.userId, apiKeys: [p256Key('mine', extra)] }, kim.key), 'createApiKeysResult');
    expect((await whoami(f, extra)).userId).toBe(kim.userId);
  });

  it("a non-root user allowed by a policy to create API keys adds one to another user: the handler does not refuse it", async () => {
    const [kim, lee] = [await member(f, 'kim-admin'), await member(f, 'lee')];
    const submitForLee = (kp: TKeyPair) => f.submit('create_api_keys', CREATE_API_KEYS, { userId: lee.userId, apiKeys: [p256Key('from kim', kp)] }, kim.key);
    // No policy yet: another user's credentials are not implicitly allowed.
    expect(await refusal(submitForLee(generateP256KeyPair()))).toMatchObject({ httpStatus: 403, message: expect.stringContaining('OUTCOME_DENY_IMPLICIT') });

    const policyId = await createPolicy(f, { effect: 'EFFECT_ALLOW', condition: "activity.resource == 'CREDENTIAL' && activity.action == 'CREATE'", consensus: `approvers.any(user, user.id == '${kim.userId}')` });
    const key = generateP256KeyPair();
    const { apiKeyIds } = completed<{ apiKeyIds: string[] }>(await submitForLee(key), 'createApiKeysResult');
    expect(apiKeyIds).toHaveLength(1);
    expect((await whoami(f, key)).userId).toBe(lee.userId);
    await deletePolicy(f, policyId);
  });

  it('a read-write session for another user needs the root quorum or a policy, not only for oneself', async () => {
    const [kim, lee] = [await member(f, 'kim-sessions'), await member(f, 'lee-sessions')];
    const session = (userId: string, key: TKeyPair) =>
      f.submit('create_read_write_session', 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2', { userId, targetPublicKey: generateP256KeyPair().publicKeyUncompressed }, key);
    const userOf = (a: TActivity) => completed<{ userId: string }>(a, 'createReadWriteSessionResultV2').userId;
    expect(userOf(await session(kim.userId, kim.key))).toBe(kim.userId);
    expect(await refusal(session(lee.userId, kim.key))).toMatchObject({ httpStatus: 403, message: expect.stringContaining('OUTCOME_DENY_IMPLICIT') });
    // The root quorum (one root user here) may.
    expect(userOf(await session(lee.userId, f.root))).toBe(lee.userId);
    // And so may a user a policy allows: the handler adds no root-only rule of its own.
    const policyId = await createPolicy(f, { effect: 'EFFECT_ALLOW', condition: "activity.type == 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2'", consensus: `approvers.any(user, user.id == '${kim.userId}')` });
    expect(userOf(await session(lee.userId, kim.key))).toBe(lee.userId);
    await deletePolicy(f, policyId);
  });

  it('an EFFECT_DENY policy beats the implicit allow on one’s own credentials', async () => {
    const kim = await member(f, 'kim-denied');
    const policyId = await createPolicy(f, { effect: 'EFFECT_DENY', condition: `activity.type == '${CREATE_API_KEYS}'` });
    const denied = await refusal(f.submit('create_api_keys', CREATE_API_KEYS, { userId: kim.userId, apiKeys: [p256Key('mine')] }, kim.key));
    expect(denied).toMatchObject({ httpStatus: 403, message: expect.stringContaining('OUTCOME_DENY_EXPLICIT') });
    expect((denied as Error).message).toContain(policyId);
    await deletePolicy(f, policyId);
    // The deny was the only thing in the way.
    completed(await f.submit('create_api_keys', CREATE_API_KEYS, { userId: kim.userId, apiKeys: [p256Key('mine')] }, kim.key), 'createApiKeysResult');
  });

  it('the other self-service kinds follow the same rule: recover_user of another user is refused by policy', async () => {
    const [kim, lee] = [await member(f, 'kim-recover'), await member(f, 'lee-recover')];
    const authenticator = { authenticatorName: 'x', challenge: 'c', attestation: { credentialId: 'a', clientDataJson: 'b', attestationObject: 'c', transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'] } };
    const other = await refusal(f.submit('recover_user', 'ACTIVITY_TYPE_RECOVER_USER', { userId: lee.userId, authenticator }, kim.key));
    expect(other).toMatchObject({ httpStatus: 403, message: expect.stringContaining('OUTCOME_DENY_IMPLICIT') });
  });
});

describe('self-service credential activities, a 2-of-2 root quorum', () => {
  let f: TFixture;
  let rootB: { userId: string; key: TKeyPair };
  beforeAll(async () => {
    f = await createFixture();
    rootB = await member(f, 'root-b');
    completed(await f.submit('update_root_quorum', 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', { threshold: 2, userIds: [f.root.userId, rootB.userId] }), 'updateRootQuorumResult');
  });
  afterAll(async () => {
    await f?.close();
  });

  it("root A adding its key to root B waits for the quorum instead of completing; B's approval completes it", async () => {
    const stolen = generateP256KeyPair();
    const waiting = await f.submit('create_api_keys', CREATE_API_KEYS, { userId: rootB.userId, apiKeys: [p256Key('from A', stolen)] });
    expect(waiting.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    // Nothing happened: the key does not sign as B.
    await expect(whoami(f, stolen)).rejects.toMatchObject({ httpStatus: 401 });
    // A cannot approve a second time in B's name (its only approval is the submission).
    await expect(f.submit('approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', { fingerprint: waiting.fingerprint })).rejects.toMatchObject({ message: expect.stringContaining('already voted') });

    const approved = await f.submit('approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', { fingerprint: waiting.fingerprint }, rootB.key);
    completed(approved, 'createApiKeysResult');
    expect((await whoami(f, stolen)).userId).toBe(rootB.userId);
  });

  it('delete_api_keys of another root user waits too', async () => {
    const [{ apiKeyId }] = (await f.query<{ apiKeys: { apiKeyId: string }[] }>('get_api_keys', { userId: rootB.userId })).apiKeys as [{ apiKeyId: string }];
    const waiting = await f.submit('delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', { userId: rootB.userId, apiKeyIds: [apiKeyId] });
    expect(waiting.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect((await f.submit('reject_activity', 'ACTIVITY_TYPE_REJECT_ACTIVITY', { fingerprint: waiting.fingerprint }, rootB.key)).status).toBe('ACTIVITY_STATUS_REJECTED');
    expect((await whoami(f, rootB.key)).userId).toBe(rootB.userId);
  });

  it('a root user still adds a key to itself alone', async () => {
    const own = generateP256KeyPair();
    completed(await f.submit('create_api_keys', CREATE_API_KEYS, { userId: f.root.userId, apiKeys: [p256Key('own', own)] }), 'createApiKeysResult');
    expect((await whoami(f, own)).userId).toBe(f.root.userId);
  });
});
