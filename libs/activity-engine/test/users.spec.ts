/**
 * Users, user tags and API keys against a real database: the activities (create_users V3/V4,
 * update_user, delete_users, create/update/delete user tags, create_api_keys, delete_api_keys),
 * the queries that read them back (get_user, list_users, list_user_tags, get_api_keys,
 * get_api_key, get_organization), and what authentication makes of the keys: a new key signs in,
 * an expired one is refused, and a deleted one is refused by every process once the change feed
 * has told it.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { createKeyVault, eip191Digest, generateMasterKey, generateP256KeyPair, signP256 } from '@latchkey/crypto';
import { AppError, type TActivity, type TApiKey, type TTag, type TUser } from '@latchkey/domain';
import { createStore, openDatabase, runMigrations, startChangeFeed, type TChangeFeed, type TDatabase } from '@latchkey/persistence';
import { createTestDatabase, stopTestPostgres, type TTestDatabase } from '@latchkey/persistence/testing';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, createRootOrganization, ensureServerKeys, type TEngine } from '../src/index.js';
import { createFixture, type TFixture, type TKeyPair } from '../src/testing/fixture.js';

let f: TFixture;
beforeAll(async () => {
  f = await createFixture();
});
afterAll(async () => {
  await f?.close();
  await stopTestPostgres();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const p256Key = (name: string, kp: TKeyPair = generateP256KeyPair(), expirationSeconds?: string) => ({
  apiKeyName: name,
  publicKey: kp.publicKey,
  curveType: 'API_KEY_CURVE_P256',
  ...(expirationSeconds ? { expirationSeconds } : {}),
});

function ed25519KeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { publicKey: Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex'), privateKey };
}

function secp256k1KeyPair() {
  const secret = secp256k1.utils.randomSecretKey();
  return { publicKey: Buffer.from(secp256k1.getPublicKey(secret, true)).toString('hex'), secret };
}

const user = (userName: string, extra: object = {}) => ({ userName, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [], ...extra });

async function createUsers(users: object[], type = 'ACTIVITY_TYPE_CREATE_USERS_V4'): Promise<TActivity> {
  return f.submit('create_users', type, { users });
}

function resultOf<T>(a: TActivity, key: string): T {
  expect(a.status, JSON.stringify(a.failure)).toBe('ACTIVITY_STATUS_COMPLETED');
  return a.result[key] as T;
}

async function createUser(userName: string, extra: object = {}): Promise<string> {
  return resultOf<{ userIds: string[] }>(await createUsers([user(userName, extra)]), 'createUsersResult').userIds[0]!;
}

const getUser = async (userId: string) => (await f.query<{ user: TUser }>('get_user', { userId })).user;
const listUsers = async () => (await f.query<{ users: TUser[] }>('list_users', {})).users;
const getApiKeys = async (userId?: string) => (await f.query<{ apiKeys: TApiKey[] }>('get_api_keys', userId ? { userId } : {})).apiKeys;
const getApiKey = async (apiKeyId: string) => (await f.query<{ apiKey: TApiKey }>('get_api_key', { apiKeyId })).apiKey;
const listUserTags = async () => (await f.query<{ userTags: TTag[] }>('list_user_tags', {})).userTags;

async function createTag(userTagName: string, userIds: string[] = []): Promise<string> {
  const a = await f.submit('create_user_tag', 'ACTIVITY_TYPE_CREATE_USER_TAG', { userTagName, userIds });
  return resultOf<{ userTagId: string }>(a, 'createUserTagResult').userTagId;
}

/** The failure of a FAILED activity: its rpcStatus body. */
function failureOf(a: TActivity): { code: number; message: string; details: { turnkeyErrorCode: string; latchkeyErrorCode: string }[] } {
  expect(a.status).toBe('ACTIVITY_STATUS_FAILED');
  return a.failure as never;
}

async function expect400(p: Promise<unknown>, message: RegExp): Promise<void> {
  const e = await p.then(
    (v) => {
      throw new Error(`expected a 400, got ${JSON.stringify(v)}`);
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).httpStatus).toBe(400);
  expect((e as AppError).message).toMatch(message);
}

const activityCount = async () => (await f.store.activities.list({ organizationId: f.root.organizationId, limit: 1000 })).length;

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

describe('create_users and the user queries', () => {
  it('creates users with API keys on every curve, tags, e-mail and phone; get_user, list_users and get_organization agree', async () => {
    const tagId = await createTag('ops');
    const p256 = generateP256KeyPair();
    const k1 = secp256k1KeyPair();
    const ed = ed25519KeyPair();
    const a = await createUsers([
      user('alice', {
        userEmail: 'alice@example.com',
        userPhoneNumber: '+13214567890',
        userTags: [tagId],
        apiKeys: [
          p256Key('laptop', p256, '3600'),
          { apiKeyName: 'wallet', publicKey: k1.publicKey.toUpperCase(), curveType: 'API_KEY_CURVE_SECP256K1' },
          { apiKeyName: 'solana', publicKey: ed.publicKey, curveType: 'API_KEY_CURVE_ED25519' },
        ],
      }),
      user('bob'),
    ]);
    const { userIds } = resultOf<{ userIds: string[] }>(a, 'createUsersResult');
    expect(userIds).toHaveLength(2);
    expect(a.intent['createUsersIntentV4']).toMatchObject({ users: [{ userName: 'alice' }, { userName: 'bob' }] });

    const alice = await getUser(userIds[0]!);
    expect(alice).toMatchObject({ userId: userIds[0], userName: 'alice', userEmail: 'alice@example.com', userPhoneNumber: '+13214567890', userTags: [tagId], authenticators: [], oauthProviders: [], mfaPolicies: [] });
    const byName = Object.fromEntries(alice.apiKeys.map((k) => [k.apiKeyName, k]));
    expect(byName['laptop']!.credential).toEqual({ publicKey: p256.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_P256' });
    expect(byName['laptop']!.expirationSeconds).toBe('3600');
    // Stored lowercase: the form stamps carry.
    expect(byName['wallet']!.credential).toEqual({ publicKey: k1.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_SECP256K1' });
    expect(byName['wallet']!.expirationSeconds).toBeUndefined();
    expect(byName['solana']!.credential).toEqual({ publicKey: ed.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_ED25519' });

    const bob = await getUser(userIds[1]!);
    expect(bob).toMatchObject({ userName: 'bob', apiKeys: [], userTags: [] });
    expect(bob.userEmail).toBeUndefined();

    const listed = await listUsers();
    expect(listed.find((u) => u.userId === alice.userId)).toEqual(alice);
    const { organizationData } = await f.query<{ organizationData: { users: TUser[]; tags: TTag[] } }>('get_organization', {});
    expect(organizationData.users.find((u) => u.userId === alice.userId)).toEqual(alice);
    expect(organizationData.users.map((u) => u.userId)).toEqual(listed.map((u) => u.userId));
    expect(organizationData.tags).toContainEqual(expect.objectContaining({ tagId, tagName: 'ops', tagType: 'TAG_TYPE_USER' }));
  });

  it('accepts ACTIVITY_TYPE_CREATE_USERS_V3 with its own intent key', async () => {
    const a = await createUsers([user('carol', { apiKeys: [p256Key('k')] })], 'ACTIVITY_TYPE_CREATE_USERS_V3');
    expect(Object.keys(a.intent)).toEqual(['createUsersIntentV3']);
    const [id] = resultOf<{ userIds: string[] }>(a, 'createUsersResult').userIds;
    expect((await getUser(id!)).apiKeys).toHaveLength(1);
  });

  it('refuses bad users with 400 before anything is recorded, saying which field and why', async () => {
    const before = await activityCount();
    const kp = generateP256KeyPair();
    const cases: [object[], RegExp][] = [
      [[user('x', { userEmail: 'not-an-email' })], /users\.0\.userEmail: must be an e-mail address/],
      [[user('   ')], /users\.0\.userName: must not be empty or blank/],
      [[user('a'.repeat(257))], /users\.0\.userName: must be at most 256 characters/],
      [[user('x', { userPhoneNumber: '555-1234' })], /users\.0\.userPhoneNumber: must be a phone number in E\.164 format/],
      [[], /users: must hold at least one user/],
      [[user('x', { apiKeys: [{ ...p256Key('k'), publicKey: `02${'ff'.repeat(32)}` }] })], /users\[0\]\.apiKeys\[0\]: publicKey is not a point of P256/],
      [[user('x', { apiKeys: [{ ...p256Key('k'), publicKey: kp.publicKeyUncompressed }] })], /users\[0\]\.apiKeys\[0\]: publicKey must be a compressed P-256 public key/],
      [[user('x', { apiKeys: [{ apiKeyName: 'k', publicKey: `02${'ff'.repeat(32)}`, curveType: 'API_KEY_CURVE_SECP256K1' }] })], /publicKey is not a point of SECP256K1/],
      [[user('x', { apiKeys: [{ apiKeyName: 'k', publicKey: 'ab'.repeat(31), curveType: 'API_KEY_CURVE_ED25519' }] })], /publicKey must be a 32-byte ed25519 public key/],
      [[user('x', { apiKeys: [{ ...p256Key('k'), curveType: 'API_KEY_CURVE_RSA' }] })], /users\.0\.apiKeys\.0\.curveType/],
      [[user('x', { apiKeys: [p256Key('k', kp, 'soon')] })], /expirationSeconds: must be a decimal number of seconds/],
      [[user('x', { apiKeys: [p256Key('k1', kp), p256Key('k2', kp)] })], /users\[0\]\.apiKeys\[1\]: public key [0-9a-f]+ is given twice \(also users\[0\]\.apiKeys\[0\]\)/],
      [[user('x', { apiKeys: [p256Key('k1', kp)] }), user('y', { apiKeys: [p256Key('k2', kp)] })], /users\[1\]\.apiKeys\[0\]: .* given twice/],
    ];
    for (const [users, message] of cases) await expect400(createUsers(users), message);
    expect(await activityCount()).toBe(before);
  });

  it('creates users with OAuth providers given as claims, and fails on a forged passkey attestation, writing nothing', async () => {
    const [id] = ((await createUsers([user('gina', { oauthProviders: [{ providerName: 'google', oidcClaims: { iss: 'https://accounts.google.com', sub: 'g-1', aud: 'app' } }] })])).result as {
      createUsersResult: { userIds: string[] };
    }).createUsersResult.userIds;
    const providers = await f.store.credentials.listOauthProvidersByOrganization(f.root.organizationId, [id!]);
    expect(providers).toEqual([expect.objectContaining({ providerName: 'google', issuer: 'https://accounts.google.com', subject: 'g-1', audience: 'app' })]);

    const users = (await listUsers()).length;
    const forged = failureOf(
      await createUsers([user('hank', { authenticators: [{ authenticatorName: 'pk', challenge: 'YQ', attestation: { credentialId: 'YQ', clientDataJson: 'YQ', attestationObject: 'YQ', transports: [] } }] })]),
    );
    expect(forged.message).toContain('users[0].authenticators[0]: invalid passkey attestation');
    expect((await listUsers()).length).toBe(users);
  });

  it('fails, writing nothing, when a tag does not exist or a public key is already registered', async () => {
    const users = (await listUsers()).length;
    const missing = failureOf(await createUsers([user('dave'), user('erin', { userTags: ['no-such-tag', 'nor-this'] })]));
    expect(missing).toMatchObject({ code: 5, message: 'user tags not found: no-such-tag, nor-this', details: [{ turnkeyErrorCode: 'NOT_FOUND' }] });

    const taken = failureOf(await createUsers([user('frank', { apiKeys: [{ apiKeyName: 'root again', publicKey: f.root.publicKey, curveType: 'API_KEY_CURVE_P256' }] })]));
    expect(taken.code).toBe(3);
    expect(taken.message).toContain(`users[0].apiKeys[0]: public key ${f.root.publicKey} is already registered to user ${f.root.userId}`);
    expect((await listUsers()).length).toBe(users);
  });
});

describe('update_user and delete_users', () => {
  it('renames, sets and clears e-mail and phone, and replaces tags; unknown users and tags fail', async () => {
    const [t1, t2] = [await createTag('update-a'), await createTag('update-b')];
    const id = await createUser('gina', { userEmail: 'gina@example.com', userTags: [t1] });
    const update = (parameters: object) => f.submit('update_user', 'ACTIVITY_TYPE_UPDATE_USER', { userId: id, ...parameters });

    const a = await update({ userName: 'Gina R.', userPhoneNumber: '+442071838750', userTagIds: [t2] });
    expect(resultOf(a, 'updateUserResult')).toEqual({ userId: id });
    expect(await getUser(id)).toMatchObject({ userName: 'Gina R.', userEmail: 'gina@example.com', userPhoneNumber: '+442071838750', userTags: [t2] });

    // Absent fields and an empty tag list leave things as they are; "" removes e-mail and phone.
    await update({ userEmail: '', userPhoneNumber: '', userTagIds: [] });
    const after = await getUser(id);
    expect(after).toMatchObject({ userName: 'Gina R.', userTags: [t2] });
    expect(after.userEmail).toBeUndefined();
    expect(after.userPhoneNumber).toBeUndefined();

    await expect400(update({ userEmail: 'gina@' }), /userEmail: must be an e-mail address .*, or "" to remove it/);
    await expect400(update({ userName: '' }), /userName: must not be empty or blank/);
    expect(failureOf(await f.submit('update_user', 'ACTIVITY_TYPE_UPDATE_USER', { userId: 'nobody', userName: 'x' })).message).toBe('user not found: nobody');
    expect(failureOf(await update({ userTagIds: [t1, 'ghost'] })).message).toBe('user tags not found: ghost');
    expect((await getUser(id)).userTags).toEqual([t2]);
  });

  it('refuses to delete a root quorum member, naming the rule; deletes other users with their keys and tags', async () => {
    const root = failureOf(await f.submit('delete_users', 'ACTIVITY_TYPE_DELETE_USERS', { userIds: [f.root.userId] }));
    expect(root).toMatchObject({ code: 3, details: [{ turnkeyErrorCode: 'REQUEST_INVALID' }] });
    expect(root.message).toMatch(/a root quorum member cannot be deleted: .*update_root_quorum/);
    expect((await getUser(f.root.userId)).userId).toBe(f.root.userId);

    const tag = await createTag('doomed-members');
    const kp = generateP256KeyPair();
    const id = await createUser('harry', { userTags: [tag], apiKeys: [p256Key('k', kp)] });
    const missing = failureOf(await f.submit('delete_users', 'ACTIVITY_TYPE_DELETE_USERS', { userIds: [id, 'ghost'] }));
    expect(missing).toMatchObject({ code: 5, message: 'users not found: ghost' });

    const a = await f.submit('delete_users', 'ACTIVITY_TYPE_DELETE_USERS', { userIds: [id, id] });
    expect(resultOf(a, 'deleteUsersResult')).toEqual({ userIds: [id] });
    await expect(getUser(id)).rejects.toMatchObject({ httpStatus: 404 });
    expect((await listUsers()).map((u) => u.userId)).not.toContain(id);
    expect(await f.store.credentials.findApiKeys([f.root.organizationId], kp.publicKey)).toEqual([]);
    await expect(f.query('whoami', {}, kp)).rejects.toMatchObject({ code: 'PUBLIC_KEY_NOT_FOUND' });
    // The deleted user no longer counts among the tag's users.
    const del = await f.submit('delete_user_tags', 'ACTIVITY_TYPE_DELETE_USER_TAGS', { userTagIds: [tag] });
    expect(resultOf(del, 'deleteUserTagsResult')).toEqual({ userTagIds: [tag], userIds: [] });
  });
});

// ---------------------------------------------------------------------------------------------
// User tags
// ---------------------------------------------------------------------------------------------

describe('user tags', () => {
  it('creates, lists, retags and deletes tags; the result of delete names the users that carried them', async () => {
    const [u1, u2] = [await createUser('ivy'), await createUser('jack')];
    const tagId = await createTag('admins', [u1, u1]);
    expect(await listUserTags()).toContainEqual({
      tagId,
      tagName: 'admins',
      tagType: 'TAG_TYPE_USER',
      createdAt: { seconds: expect.stringMatching(/^[0-9]+$/), nanos: expect.stringMatching(/^[0-9]+$/) },
      updatedAt: { seconds: expect.stringMatching(/^[0-9]+$/), nanos: expect.stringMatching(/^[0-9]+$/) },
    });
    expect((await getUser(u1)).userTags).toEqual([tagId]);

    const up = await f.submit('update_user_tag', 'ACTIVITY_TYPE_UPDATE_USER_TAG', { userTagId: tagId, newUserTagName: 'operators', addUserIds: [u2], removeUserIds: [u1] });
    expect(resultOf(up, 'updateUserTagResult')).toEqual({ userTagId: tagId });
    expect((await listUserTags()).find((t) => t.tagId === tagId)?.tagName).toBe('operators');
    expect([(await getUser(u1)).userTags, (await getUser(u2)).userTags]).toEqual([[], [tagId]]);

    const del = await f.submit('delete_user_tags', 'ACTIVITY_TYPE_DELETE_USER_TAGS', { userTagIds: [tagId] });
    expect(resultOf(del, 'deleteUserTagsResult')).toEqual({ userTagIds: [tagId], userIds: [u2] });
    expect((await listUserTags()).map((t) => t.tagId)).not.toContain(tagId);
    expect((await getUser(u2)).userTags).toEqual([]);
  });

  it('refuses duplicate names, unknown users and unknown tags', async () => {
    await createTag('unique-name');
    const dup = failureOf(await f.submit('create_user_tag', 'ACTIVITY_TYPE_CREATE_USER_TAG', { userTagName: 'unique-name', userIds: [] }));
    expect(dup).toMatchObject({ code: 3, message: 'user tag name must be unique: "unique-name" already exists' });
    const nobody = failureOf(await f.submit('create_user_tag', 'ACTIVITY_TYPE_CREATE_USER_TAG', { userTagName: 'fresh', userIds: ['u-none'] }));
    expect(nobody).toMatchObject({ code: 5, message: 'users not found: u-none' });
    expect((await listUserTags()).map((t) => t.tagName)).not.toContain('fresh');
    const gone = failureOf(await f.submit('delete_user_tags', 'ACTIVITY_TYPE_DELETE_USER_TAGS', { userTagIds: ['t-none'] }));
    expect(gone).toMatchObject({ code: 5, message: 'user tags not found: t-none' });
    await expect400(f.submit('create_user_tag', 'ACTIVITY_TYPE_CREATE_USER_TAG', { userTagName: '', userIds: [] }), /userTagName: must not be empty/);
    await expect400(f.submit('delete_user_tags', 'ACTIVITY_TYPE_DELETE_USER_TAGS', { userTagIds: [] }), /userTagIds: must list at least one user tag id/);
  });
});

// ---------------------------------------------------------------------------------------------
// API keys and authentication
// ---------------------------------------------------------------------------------------------

/** Stamps `body` with an ed25519 key the way the Solana wallet stamper does. */
function ed25519Stamp(body: string, kp: ReturnType<typeof ed25519KeyPair>): Record<string, string> {
  const signature = sign(null, Buffer.from(body), kp.privateKey).toString('hex');
  return { 'x-stamp': Buffer.from(JSON.stringify({ publicKey: kp.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519', signature })).toString('base64url') };
}

/** Stamps `body` with a secp256k1 key the way the Ethereum wallet stamper does (EIP-191). */
function secp256k1Stamp(body: string, kp: ReturnType<typeof secp256k1KeyPair>): Record<string, string> {
  const signature = Buffer.from(secp256k1.sign(eip191Digest(Buffer.from(body)), kp.secret, { prehash: false })).toString('hex');
  return { 'x-stamp': Buffer.from(JSON.stringify({ publicKey: kp.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191', signature })).toString('base64url') };
}

async function whoamiWith(engine: TEngine, organizationId: string, stamp: (body: string) => Record<string, string>): Promise<{ userId: string; username: string }> {
  const body = JSON.stringify({ organizationId });
  return (await engine.query('whoami', stamp(body), Buffer.from(body))) as { userId: string; username: string };
}

describe('create_api_keys, delete_api_keys and the key queries', () => {
  it('adds keys on the three curves that then sign requests as their user; a non-root user may read but not act', async () => {
    const userId = await createUser('kim');
    const p256 = generateP256KeyPair();
    const ed = ed25519KeyPair();
    const k1 = secp256k1KeyPair();
    const a = await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', {
      userId,
      apiKeys: [
        p256Key('p256', p256),
        { apiKeyName: 'ed', publicKey: ed.publicKey, curveType: 'API_KEY_CURVE_ED25519', expirationSeconds: '86400' },
        { apiKeyName: 'k1', publicKey: k1.publicKey, curveType: 'API_KEY_CURVE_SECP256K1' },
      ],
    });
    const { apiKeyIds } = resultOf<{ apiKeyIds: string[] }>(a, 'createApiKeysResult');
    expect(apiKeyIds).toHaveLength(3);
    expect(a.intent['createApiKeysIntentV2']).toMatchObject({ userId });

    const keys = await getApiKeys(userId);
    expect(keys.map((k) => k.apiKeyId).sort()).toEqual([...apiKeyIds].sort());
    const ed25519Key = await getApiKey(apiKeyIds[1]!);
    expect(ed25519Key).toMatchObject({ apiKeyId: apiKeyIds[1], apiKeyName: 'ed', expirationSeconds: '86400', credential: { publicKey: ed.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_ED25519' } });
    expect((await getApiKeys()).map((k) => k.apiKeyId)).toEqual(expect.arrayContaining([...apiKeyIds, ...(await getApiKeys(f.root.userId)).map((k) => k.apiKeyId)]));

    const org = f.root.organizationId;
    expect(await f.query('whoami', {}, p256)).toMatchObject({ userId, username: 'kim' });
    expect(await whoamiWith(f.engine, org, (b) => ed25519Stamp(b, ed))).toMatchObject({ userId });
    expect(await whoamiWith(f.engine, org, (b) => secp256k1Stamp(b, k1))).toMatchObject({ userId });
    expect((await f.query<{ user: TUser }>('get_user', { userId }, p256)).user.apiKeys).toHaveLength(3);
    // A user manages its own credentials (implicitly allowed), but not another user's, and does not act beyond that.
    resultOf(await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId, apiKeys: [p256Key('more')] }, p256), 'createApiKeysResult');
    // Another user's credentials are not self-service: with no policy allowing it, the policy engine refuses it.
    const notHers = await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId: f.root.userId, apiKeys: [p256Key('sneaky')] }, p256).catch((e: unknown) => e);
    expect(notHers).toMatchObject({ httpStatus: 403, code: 'REQUEST_NOT_AUTHORIZED', message: expect.stringContaining('OUTCOME_DENY_IMPLICIT') });
    const denied = await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'no', accounts: [] }, p256).catch((e: unknown) => e);
    expect(denied).toMatchObject({ httpStatus: 403, code: 'REQUEST_NOT_AUTHORIZED' });
  });

  it('refuses a key already registered to the user or to another user, unknown users, and malformed keys', async () => {
    const userId = await createUser('lee');
    const kp = generateP256KeyPair();
    resultOf(await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId, apiKeys: [p256Key('first', kp)] }), 'createApiKeysResult');
    const again = failureOf(await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId, apiKeys: [p256Key('fresh'), p256Key('second', kp)] }));
    expect(again.code).toBe(3);
    expect(again.message).toMatch(/^apiKeys\[1\]: public key [0-9a-f]{66} is already registered to this user as API key /);
    const other = failureOf(await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId: f.root.userId, apiKeys: [p256Key('stolen', kp)] }));
    expect(other.message).toContain(`is already registered to user ${userId}`);
    expect(await getApiKeys(userId)).toHaveLength(1);

    const nobody = failureOf(await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId: 'ghost', apiKeys: [p256Key('k')] }));
    expect(nobody).toMatchObject({ code: 5, message: 'user not found: ghost' });
    await expect400(f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId, apiKeys: [] }), /apiKeys: must hold at least one API key/);
    await expect400(f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId, apiKeys: [{ ...p256Key('k'), publicKey: 'zz' }] }), /apiKeys\.0\.publicKey: must be hex/);
    await expect400(f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId, apiKeys: [p256Key('k', generateP256KeyPair(), '0')] }), /expirationSeconds: must be at least 1 second/);
    await expect(f.query('get_api_keys', { userId: 'ghost' })).rejects.toMatchObject({ httpStatus: 404 });
    await expect(f.query('get_api_key', { apiKeyId: 'ghost' })).rejects.toMatchObject({ httpStatus: 404, message: 'API key not found: ghost' });
  });

  it('deletes only the named keys of the named user; a deleted key no longer authenticates', async () => {
    const [u1, u2] = [await createUser('mia'), await createUser('ned')];
    const [kp1, kp2] = [generateP256KeyPair(), generateP256KeyPair()];
    const [id1] = resultOf<{ apiKeyIds: string[] }>(await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId: u1, apiKeys: [p256Key('a', kp1)] }), 'createApiKeysResult').apiKeyIds;
    const [id2] = resultOf<{ apiKeyIds: string[] }>(await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId: u2, apiKeys: [p256Key('b', kp2)] }), 'createApiKeysResult').apiKeyIds;

    const wrongUser = failureOf(await f.submit('delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', { userId: u1, apiKeyIds: [id1, id2] }));
    expect(wrongUser).toMatchObject({ code: 5, message: `API keys not found for user ${u1}: ${id2}` });
    expect((await getApiKey(id1!)).apiKeyId).toBe(id1);

    const a = await f.submit('delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', { userId: u1, apiKeyIds: [id1] });
    expect(resultOf(a, 'deleteApiKeysResult')).toEqual({ apiKeyIds: [id1] });
    await expect(getApiKey(id1!)).rejects.toMatchObject({ httpStatus: 404 });
    expect(await getApiKeys(u1)).toEqual([]);
    // Never used, so never cached: refused at once even without a change feed.
    await expect(f.query('whoami', {}, kp1)).rejects.toMatchObject({ httpStatus: 401, code: 'PUBLIC_KEY_NOT_FOUND' });
    expect(await f.query('whoami', {}, kp2)).toMatchObject({ userId: u2 });
    await expect400(f.submit('delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', { userId: u1, apiKeyIds: [] }), /apiKeyIds: must list at least one API key id/);
  });

  it('an API key stops authenticating when it expires', async () => {
    const userId = await createUser('olga');
    const kp = generateP256KeyPair();
    const [id] = resultOf<{ apiKeyIds: string[] }>(
      await f.submit('create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId, apiKeys: [p256Key('short', kp, '2')] }),
      'createApiKeysResult',
    ).apiKeyIds;
    const key = await getApiKey(id!);
    expect(key.expirationSeconds).toBe('2');
    expect(await f.query('whoami', {}, kp)).toMatchObject({ userId });
    // Wait, for real, until the stored expiry has passed (the key is cached by now, too).
    const row = (await f.store.credentials.findApiKeys([f.root.organizationId], kp.publicKey))[0]!;
    await new Promise((r) => setTimeout(r, Math.max(0, row.expiresAt!.getTime() - Date.now()) + 50));
    const e = (await f.query('whoami', {}, kp).catch((err: unknown) => err)) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.httpStatus).toBe(401);
    expect(e.toBody().details[0]).toMatchObject({ turnkeyErrorCode: 'API_KEY_EXPIRED' });
  });
});

// ---------------------------------------------------------------------------------------------
// Two "processes": each engine has its own auth cache and its own change feed.
// ---------------------------------------------------------------------------------------------

describe('auth caches of several processes', () => {
  let testDb: TTestDatabase;
  let db: TDatabase;
  const feeds: TChangeFeed[] = [];
  let root: TKeyPair & { organizationId: string; userId: string };

  /** An engine with its own cache, fed by its own LISTEN connection; `heard` waits for a message. */
  async function startProcess() {
    const store = createStore(db.prisma);
    const engine = createEngine({ store, vault, timestampWindowMs: 300_000 });
    const messages: string[] = [];
    const waiters: { match: (m: string) => boolean; resolve: () => void }[] = [];
    feeds.push(
      await startChangeFeed(testDb.url, (m) => {
        engine.cache.invalidate(m);
        messages.push(m);
        for (const w of waiters.filter((x) => x.match(m))) w.resolve();
      }),
    );
    const heard = (match: (m: string) => boolean) =>
      messages.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve }));
    return { engine, heard, clear: () => messages.splice(0) };
  }
  const vault = createKeyVault(generateMasterKey());

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await runMigrations(testDb.url);
    db = openDatabase(testDb.url);
    const store = createStore(db.prisma);
    await ensureServerKeys(store, vault);
    const kp = generateP256KeyPair();
    const boot = await store.transaction((tx) => createRootOrganization(tx, { organizationName: 'Root organization', userName: 'root', apiPublicKey: kp.publicKey, apiKeyName: 'bootstrap' }));
    root = { ...kp, organizationId: boot.organizationId, userId: boot.userId };
  });
  afterAll(async () => {
    for (const feed of feeds) await feed.close();
    await db?.close();
    await testDb?.drop();
  });

  const p256Stamp = (kp: TKeyPair) => (body: string) => ({
    'x-stamp': Buffer.from(JSON.stringify({ publicKey: kp.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(kp.privateKey, Buffer.from(body)) })).toString('base64url'),
  });

  async function submit(engine: TEngine, path: string, type: string, parameters: object): Promise<TActivity> {
    const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: root.organizationId, parameters });
    const { activity } = await engine.submit(path, p256Stamp(root)(body), Buffer.from(body));
    expect(activity.status, JSON.stringify(activity.failure)).toBe('ACTIVITY_STATUS_COMPLETED');
    return activity;
  }

  it('a deleted key, a deleted user and a renamed user are seen by every process once its feed has heard', async () => {
    const [a, b] = [await startProcess(), await startProcess()];
    const kp = generateP256KeyPair();
    const created = await submit(a.engine, 'create_users', 'ACTIVITY_TYPE_CREATE_USERS_V4', { users: [user('pat', { apiKeys: [p256Key('k', kp)] })] });
    const userId = (created.result['createUsersResult'] as { userIds: string[] }).userIds[0]!;
    const apiKeyId = (await a.engine.query('get_api_keys', p256Stamp(root)(JSON.stringify({ organizationId: root.organizationId, userId })), Buffer.from(JSON.stringify({ organizationId: root.organizationId, userId }))) as { apiKeys: TApiKey[] }).apiKeys[0]!.apiKeyId;
    // Both processes now hold the key and the user in their caches.
    for (const p of [a, b]) expect(await whoamiWith(p.engine, root.organizationId, p256Stamp(kp))).toEqual(expect.objectContaining({ userId, username: 'pat' }));
    const clear = () => [a, b].forEach((p) => p.clear());

    clear();
    await submit(a.engine, 'update_user', 'ACTIVITY_TYPE_UPDATE_USER', { userId, userName: 'patricia' });
    for (const p of [a, b]) {
      await p.heard((m) => m === `user:${userId}`);
      expect((await whoamiWith(p.engine, root.organizationId, p256Stamp(kp))).username).toBe('patricia');
    }

    clear();
    await submit(a.engine, 'delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', { userId, apiKeyIds: [apiKeyId] });
    for (const p of [a, b]) {
      await p.heard((m) => m === `credential:${userId}`);
      await expect(whoamiWith(p.engine, root.organizationId, p256Stamp(kp))).rejects.toMatchObject({ httpStatus: 401, code: 'PUBLIC_KEY_NOT_FOUND' });
    }

    // A user's deletion takes its keys with it, everywhere.
    const kp2 = generateP256KeyPair();
    await submit(a.engine, 'create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId, apiKeys: [p256Key('k2', kp2)] });
    for (const p of [a, b]) expect((await whoamiWith(p.engine, root.organizationId, p256Stamp(kp2))).userId).toBe(userId);
    clear();
    await submit(b.engine, 'delete_users', 'ACTIVITY_TYPE_DELETE_USERS', { userIds: [userId] });
    for (const p of [a, b]) {
      await p.heard((m) => m === `credential:${userId}`);
      await expect(whoamiWith(p.engine, root.organizationId, p256Stamp(kp2))).rejects.toMatchObject({ httpStatus: 401 });
    }
  });
});
