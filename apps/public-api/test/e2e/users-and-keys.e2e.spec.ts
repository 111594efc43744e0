/**
 * Users, user tags and API keys end to end, against one real Latchkey driven only by the
 * unmodified `@turnkey/http` client (and `@turnkey/sdk-server` for its flattened results): users
 * created with their keys and tags, read back, renamed and deleted; tags created, listed and
 * deleted; API keys on P-256 and ed25519 added, used to sign requests as their (non-root) user,
 * deleted — after which they are refused at once — and left to expire, after which they are
 * refused with API_KEY_EXPIRED.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import { TurnkeyActivityError, TurnkeyClient, TurnkeyRequestError, createActivityPoller, type TurnkeyApiTypes } from '@turnkey/http';
import { Turnkey } from '@turnkey/sdk-server';
import type { TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRecentTimestamp, rejectionOf, turnkeyErrorCodes, uniqueName } from './e2e-helpers.js';
import { latchkeyForThisFile } from './shared-platform.js';

type TActivity = TurnkeyApiTypes['v1Activity'];
type TUserParams = TurnkeyApiTypes['v1UserParamsV4'];
type TApiKeyParams = TurnkeyApiTypes['v1ApiKeyParamsV2'];
type TStamper = ConstructorParameters<typeof TurnkeyClient>[1];

let lk: TLatchkey;
let orgId: string;
let rootUserId: string;
let client: TurnkeyClient;

beforeAll(async () => {
  lk = await latchkeyForThisFile({ apps: ['public-api'] });
  const { apiPublicKey, apiPrivateKey, organizationId, userId } = lk.bootstrap;
  if (!apiPrivateKey) throw new Error('bootstrap.json has no apiPrivateKey');
  orgId = organizationId;
  rootUserId = userId;
  client = new TurnkeyClient({ baseUrl: lk.baseUrl }, new ApiKeyStamper({ apiPublicKey, apiPrivateKey }));
});

afterAll(async () => {
  await lk?.stop();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const envelope = () => ({ organizationId: orgId, timestampMs: String(Date.now()) });

const poll = {
  createUsers: () => createActivityPoller({ client, requestFn: client.createUsers }),
  updateUser: () => createActivityPoller({ client, requestFn: client.updateUser }),
  deleteUsers: () => createActivityPoller({ client, requestFn: client.deleteUsers }),
  createUserTag: () => createActivityPoller({ client, requestFn: client.createUserTag }),
  deleteUserTags: () => createActivityPoller({ client, requestFn: client.deleteUserTags }),
  createApiKeys: () => createActivityPoller({ client, requestFn: client.createApiKeys }),
  deleteApiKeys: () => createActivityPoller({ client, requestFn: client.deleteApiKeys }),
};

interface TP256Key {
  publicKey: string;
  privateKey: string;
}

function p256Key(): TP256Key {
  const { publicKey, privateKey } = generateP256KeyPair();
  return { publicKey, privateKey };
}

const p256Params = (apiKeyName: string, key: TP256Key, expirationSeconds?: string): TApiKeyParams => ({
  apiKeyName,
  publicKey: key.publicKey,
  curveType: 'API_KEY_CURVE_P256',
  ...(expirationSeconds ? { expirationSeconds } : {}),
});

const userParams = (userName: string, extra: Partial<TUserParams> = {}): TUserParams => ({ userName, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [], ...extra });

/** A client that signs as `key` (an API key of some user) with the stock API key stamper. */
const clientFor = (key: TP256Key) => new TurnkeyClient({ baseUrl: lk.baseUrl }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }));

/** An ed25519 key and a stamper for it, shaped like the Solana wallet stamper's. */
function ed25519Key(): { publicKey: string; stamper: TStamper } {
  const { publicKey, privateKey }: { publicKey: KeyObject; privateKey: KeyObject } = generateKeyPairSync('ed25519');
  const hex = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
  const stamper: TStamper = {
    stamp: async (body: string) => ({
      stampHeaderName: 'X-Stamp',
      stampHeaderValue: Buffer.from(
        JSON.stringify({ publicKey: hex, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519', signature: sign(null, Buffer.from(body), privateKey).toString('hex') }),
      ).toString('base64url'),
    }),
  };
  return { publicKey: hex, stamper };
}

async function createUsers(users: TUserParams[]): Promise<string[]> {
  const activity = await poll.createUsers()({ type: 'ACTIVITY_TYPE_CREATE_USERS_V4', ...envelope(), parameters: { users } });
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  const userIds = activity.result.createUsersResult?.userIds;
  if (!userIds) throw new Error(`no createUsersResult in ${JSON.stringify(activity)}`);
  return userIds;
}

async function createApiKeys(userId: string, apiKeys: TApiKeyParams[]): Promise<string[]> {
  const activity = await poll.createApiKeys()({ type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', ...envelope(), parameters: { userId, apiKeys } });
  const ids = activity.result.createApiKeysResult?.apiKeyIds;
  if (!ids) throw new Error(`no createApiKeysResult in ${JSON.stringify(activity)}`);
  return ids;
}

/** A call that must be refused with HTTP 401 and this Turnkey error code. */
async function expectUnauthenticated(promise: Promise<unknown>, turnkeyErrorCode: string): Promise<void> {
  const err = await rejectionOf(promise, TurnkeyRequestError);
  expect(err.code, err.message).toBe(16);
  expect(turnkeyErrorCodes(err.details)).toEqual([turnkeyErrorCode]);
}

/** A call that must be refused as a bad request (code 3, HTTP 400) with a message matching `reason`. */
async function expectInvalidRequest(promise: Promise<unknown>, reason: RegExp): Promise<void> {
  const err = await rejectionOf(promise, TurnkeyRequestError);
  expect(err.code, err.message).toBe(3);
  expect(turnkeyErrorCodes(err.details)).toContain('REQUEST_INVALID');
  expect(err.message).toMatch(reason);
}

/** A poller call that must end in a FAILED activity whose failure message matches `reason`. */
async function expectFailedActivity(promise: Promise<unknown>, reason: RegExp): Promise<TActivity> {
  const err = await rejectionOf(promise, TurnkeyActivityError);
  expect(err.activityStatus).toBe('ACTIVITY_STATUS_FAILED');
  const { activity } = await client.getActivity({ organizationId: orgId, activityId: err.activityId! });
  expect(activity.failure?.message).toMatch(reason);
  return activity;
}

// ---------------------------------------------------------------------------------------------
// Users and user tags
// ---------------------------------------------------------------------------------------------

describe('users', () => {
  it('creates a user with a key and a tag; get_user and list_users show it; its key signs in as that user', async () => {
    const tagName = uniqueName('reviewers');
    const tagActivity = await poll.createUserTag()({ type: 'ACTIVITY_TYPE_CREATE_USER_TAG', ...envelope(), parameters: { userTagName: tagName, userIds: [] } });
    const tagId = tagActivity.result.createUserTagResult!.userTagId;
    const key = p256Key();
    const name = uniqueName('alice');
    const [userId] = await createUsers([userParams(name, { userEmail: 'alice@example.com', userPhoneNumber: '+13214567890', apiKeys: [p256Params('laptop', key)], userTags: [tagId] })]);

    const { user } = await client.getUser({ organizationId: orgId, userId: userId! });
    expect(user).toMatchObject({ userId, userName: name, userEmail: 'alice@example.com', userPhoneNumber: '+13214567890', userTags: [tagId], authenticators: [], oauthProviders: [] });
    expect(user.apiKeys).toEqual([
      {
        apiKeyId: expect.any(String),
        apiKeyName: 'laptop',
        credential: { publicKey: key.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_P256' },
        createdAt: expect.anything(),
        updatedAt: expect.anything(),
      },
    ]);
    expectRecentTimestamp(user.createdAt);
    const { users } = await client.getUsers({ organizationId: orgId });
    expect(users.find((u) => u.userId === userId)).toEqual(user);
    expect(users.map((u) => u.userId)).toContain(rootUserId);

    // The new user's own key: it authenticates and may read, but only the root quorum acts (for now).
    const own = clientFor(key);
    expect(await own.getWhoami({ organizationId: orgId })).toEqual({ organizationId: orgId, organizationName: expect.any(String), userId, username: name });
    expect((await own.getUser({ organizationId: orgId, userId: userId! })).user.userId).toBe(userId);
    const denied = await rejectionOf(own.createUserTag({ type: 'ACTIVITY_TYPE_CREATE_USER_TAG', ...envelope(), parameters: { userTagName: uniqueName('nope'), userIds: [] } }), TurnkeyRequestError);
    expect(denied.code).toBe(7);
  });

  it('updates a user; whoami of the user\'s own key shows the new name', async () => {
    const key = p256Key();
    const [userId] = await createUsers([userParams(uniqueName('bob'), { userEmail: 'bob@example.com', apiKeys: [p256Params('k', key)] })]);
    const own = clientFor(key);
    await own.getWhoami({ organizationId: orgId });
    const newName = uniqueName('robert');
    const activity = await poll.updateUser()({ type: 'ACTIVITY_TYPE_UPDATE_USER', ...envelope(), parameters: { userId: userId!, userName: newName, userEmail: 'robert@example.com', userTagIds: [] } });
    expect(activity.result.updateUserResult).toEqual({ userId });
    expect((await client.getUser({ organizationId: orgId, userId: userId! })).user).toMatchObject({ userName: newName, userEmail: 'robert@example.com' });
    expect((await own.getWhoami({ organizationId: orgId })).username).toBe(newName);
  });

  it('refuses bad users with 400, and names missing tags in a FAILED activity', async () => {
    const create = (users: TUserParams[]) => client.createUsers({ type: 'ACTIVITY_TYPE_CREATE_USERS_V4', ...envelope(), parameters: { users } });
    await expectInvalidRequest(create([userParams('x', { userEmail: 'not an e-mail' })]), /users\.0\.userEmail: must be an e-mail address/);
    await expectInvalidRequest(create([userParams('x', { apiKeys: [{ apiKeyName: 'k', publicKey: `03${'ff'.repeat(32)}`, curveType: 'API_KEY_CURVE_P256' }] })]), /users\[0\]\.apiKeys\[0\]: publicKey is not a point of P256/);
    const key = p256Key();
    await expectInvalidRequest(create([userParams('x', { apiKeys: [p256Params('a', key), p256Params('b', key)] })]), /given twice/);
    await expectFailedActivity(
      poll.createUsers()({
        type: 'ACTIVITY_TYPE_CREATE_USERS_V4',
        ...envelope(),
        parameters: { users: [userParams('x', { authenticators: [{ authenticatorName: 'pk', challenge: 'YQ', attestation: { credentialId: 'YQ', clientDataJson: 'YQ', attestationObject: 'YQ', transports: [] } }] })] },
      }),
      /invalid passkey attestation/,
    );
    await expectFailedActivity(poll.createUsers()({ type: 'ACTIVITY_TYPE_CREATE_USERS_V4', ...envelope(), parameters: { users: [userParams('x', { userTags: ['no-such-tag'] })] } }), /user tags not found: no-such-tag/);
  });

  it('refuses to delete a root quorum member; deleting another user removes it and its keys at once', async () => {
    await expectFailedActivity(poll.deleteUsers()({ type: 'ACTIVITY_TYPE_DELETE_USERS', ...envelope(), parameters: { userIds: [rootUserId] } }), /a root quorum member cannot be deleted/);

    const key = p256Key();
    const [userId] = await createUsers([userParams(uniqueName('carol'), { apiKeys: [p256Params('k', key)] })]);
    const own = clientFor(key);
    expect((await own.getWhoami({ organizationId: orgId })).userId).toBe(userId);
    const activity = await poll.deleteUsers()({ type: 'ACTIVITY_TYPE_DELETE_USERS', ...envelope(), parameters: { userIds: [userId!] } });
    expect(activity.result.deleteUsersResult).toEqual({ userIds: [userId] });
    await expectUnauthenticated(own.getWhoami({ organizationId: orgId }), 'PUBLIC_KEY_NOT_FOUND');
    expect((await rejectionOf(client.getUser({ organizationId: orgId, userId: userId! }), TurnkeyRequestError)).code).toBe(5);
  });

  it('returns createUsersResult flattened through @turnkey/sdk-server', async () => {
    const { apiPublicKey, apiPrivateKey } = lk.bootstrap;
    const sdk = new Turnkey({ apiBaseUrl: lk.baseUrl, apiPublicKey, apiPrivateKey: apiPrivateKey!, defaultOrganizationId: orgId }).apiClient();
    const name = uniqueName('dave');
    const res = await sdk.createUsers({ users: [{ userName: name, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    expect(res.userIds).toHaveLength(1);
    expect(res.activity.type).toBe('ACTIVITY_TYPE_CREATE_USERS_V4');
    expect((await sdk.getUser({ userId: res.userIds[0]! })).user.userName).toBe(name);
  });
});

describe('user tags', () => {
  it('creates, lists and deletes a tag; the deletion names the users that carried it', async () => {
    const [u1, u2] = await createUsers([userParams(uniqueName('erin')), userParams(uniqueName('frank'))]);
    const tagName = uniqueName('on-call');
    const created = await poll.createUserTag()({ type: 'ACTIVITY_TYPE_CREATE_USER_TAG', ...envelope(), parameters: { userTagName: tagName, userIds: [u1!, u2!] } });
    const { userTagId, userIds } = created.result.createUserTagResult!;
    expect([...userIds].sort()).toEqual([u1, u2].sort());

    const { userTags } = await client.listUserTags({ organizationId: orgId });
    const tag = userTags.find((t) => t.tagId === userTagId);
    expect(tag).toEqual({ tagId: userTagId, tagName, tagType: 'TAG_TYPE_USER', createdAt: expect.anything(), updatedAt: expect.anything() });
    expectRecentTimestamp(tag!.createdAt);
    expect((await client.getUser({ organizationId: orgId, userId: u1! })).user.userTags).toEqual([userTagId]);

    await expectFailedActivity(
      poll.createUserTag()({ type: 'ACTIVITY_TYPE_CREATE_USER_TAG', ...envelope(), parameters: { userTagName: tagName, userIds: [] } }),
      /user tag name must be unique/,
    );

    const deleted = await poll.deleteUserTags()({ type: 'ACTIVITY_TYPE_DELETE_USER_TAGS', ...envelope(), parameters: { userTagIds: [userTagId] } });
    expect(deleted.result.deleteUserTagsResult?.userTagIds).toEqual([userTagId]);
    expect([...(deleted.result.deleteUserTagsResult?.userIds ?? [])].sort()).toEqual([u1, u2].sort());
    expect((await client.listUserTags({ organizationId: orgId })).userTags.map((t) => t.tagId)).not.toContain(userTagId);
    expect((await client.getUser({ organizationId: orgId, userId: u2! })).user.userTags).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// API keys
// ---------------------------------------------------------------------------------------------

describe('API keys', () => {
  it('adds P-256 and ed25519 keys that sign as the user, lists them, and a deleted key is refused at once', async () => {
    const [userId] = await createUsers([userParams(uniqueName('gina'))]);
    const p256 = p256Key();
    const ed = ed25519Key();
    const ids = await createApiKeys(userId!, [p256Params('p256', p256, '3600'), { apiKeyName: 'ed', publicKey: ed.publicKey, curveType: 'API_KEY_CURVE_ED25519' }]);
    expect(ids).toHaveLength(2);

    const { apiKeys } = await client.getApiKeys({ organizationId: orgId, userId: userId! });
    expect(apiKeys.map((k) => k.apiKeyId).sort()).toEqual([...ids].sort());
    const { apiKey } = await client.getApiKey({ organizationId: orgId, apiKeyId: ids[0]! });
    expect(apiKey).toEqual({
      apiKeyId: ids[0],
      apiKeyName: 'p256',
      credential: { publicKey: p256.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_P256' },
      expirationSeconds: '3600',
      createdAt: expect.anything(),
      updatedAt: expect.anything(),
    });
    expect((await client.getApiKey({ organizationId: orgId, apiKeyId: ids[1]! })).apiKey.credential).toEqual({ publicKey: ed.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_ED25519' });
    expect((await client.getApiKeys({ organizationId: orgId })).apiKeys.map((k) => k.apiKeyId)).toEqual(expect.arrayContaining(ids));

    const p256Client = clientFor(p256);
    const edClient = new TurnkeyClient({ baseUrl: lk.baseUrl }, ed.stamper);
    expect((await p256Client.getWhoami({ organizationId: orgId })).userId).toBe(userId);
    expect((await edClient.getWhoami({ organizationId: orgId })).userId).toBe(userId);

    // The same public key again, for this user or another, is refused.
    await expectFailedActivity(poll.createApiKeys()({ type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', ...envelope(), parameters: { userId: rootUserId, apiKeys: [p256Params('copy', p256)] } }), /already registered to user/);

    const deleted = await poll.deleteApiKeys()({ type: 'ACTIVITY_TYPE_DELETE_API_KEYS', ...envelope(), parameters: { userId: userId!, apiKeyIds: [ids[0]!] } });
    expect(deleted.result.deleteApiKeysResult).toEqual({ apiKeyIds: [ids[0]] });
    // Both keys had just signed in (so the server had them cached): the deleted one is refused now.
    await expectUnauthenticated(p256Client.getWhoami({ organizationId: orgId }), 'PUBLIC_KEY_NOT_FOUND');
    expect((await edClient.getWhoami({ organizationId: orgId })).userId).toBe(userId);
    expect((await rejectionOf(client.getApiKey({ organizationId: orgId, apiKeyId: ids[0]! }), TurnkeyRequestError)).code).toBe(5);
    expect((await client.getApiKeys({ organizationId: orgId, userId: userId! })).apiKeys.map((k) => k.apiKeyId)).toEqual([ids[1]]);
  });

  it('refuses malformed keys with 400, and keys of another user or an unknown user in a FAILED activity', async () => {
    const [userId] = await createUsers([userParams(uniqueName('hank'))]);
    const create = (apiKeys: TApiKeyParams[], forUser = userId!) => client.createApiKeys({ type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', ...envelope(), parameters: { userId: forUser, apiKeys } });
    await expectInvalidRequest(create([{ apiKeyName: 'k', publicKey: 'ab'.repeat(33), curveType: 'API_KEY_CURVE_ED25519' }]), /apiKeys\[0\]: publicKey must be a 32-byte ed25519 public key/);
    await expectInvalidRequest(create([{ apiKeyName: 'k', publicKey: `02${'ff'.repeat(32)}`, curveType: 'API_KEY_CURVE_SECP256K1' }]), /publicKey is not a point of SECP256K1/);
    await expectInvalidRequest(create([p256Params('k', p256Key(), 'tomorrow')]), /expirationSeconds/);
    await expectFailedActivity(poll.createApiKeys()({ type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', ...envelope(), parameters: { userId: 'no-such-user', apiKeys: [p256Params('k', p256Key())] } }), /user not found: no-such-user/);

    const [rootKeyId] = (await client.getApiKeys({ organizationId: orgId, userId: rootUserId })).apiKeys.map((k) => k.apiKeyId);
    await expectFailedActivity(
      poll.deleteApiKeys()({ type: 'ACTIVITY_TYPE_DELETE_API_KEYS', ...envelope(), parameters: { userId: userId!, apiKeyIds: [rootKeyId!] } }),
      new RegExp(`API keys not found for user ${userId}: ${rootKeyId}`),
    );
    // The root key survived the refused deletion.
    expect((await client.getWhoami({ organizationId: orgId })).userId).toBe(rootUserId);
  });

  it('an API key stops authenticating when it expires', async () => {
    const [userId] = await createUsers([userParams(uniqueName('ivy'))]);
    const key = p256Key();
    const [apiKeyId] = await createApiKeys(userId!, [p256Params('short-lived', key, '2')]);
    const own = clientFor(key);
    expect((await own.getWhoami({ organizationId: orgId })).userId).toBe(userId);
    // Wait, for real, until the lifetime the server reports has passed since the key's creation.
    const { apiKey } = await client.getApiKey({ organizationId: orgId, apiKeyId: apiKeyId! });
    expect(apiKey.expirationSeconds).toBe('2');
    const expiresAtMs = Number(apiKey.createdAt.seconds) * 1000 + Number(apiKey.createdAt.nanos) / 1e6 + Number(apiKey.expirationSeconds) * 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAtMs - Date.now()) + 250));
    await expectUnauthenticated(own.getWhoami({ organizationId: orgId }), 'API_KEY_EXPIRED');
  });
});
