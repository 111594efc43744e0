/**
 * The engine against a real PostgreSQL (embedded, or DATABASE_URL): stamped requests built the
 * way the Turnkey client builds them, through authentication, policy, handler and persistence.
 */
import { generateP256KeyPair, newId } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';
import type { TStore } from '@latchkey/persistence';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type TEngine } from '../src/index.js';
import { createFixture, type TFixture, type TKeyPair } from '../src/testing/fixture.js';

let f: TFixture;
let store: TStore;
let engine: TEngine;
let root: TFixture['root'];
const stamp = (body: string, kp: TKeyPair) => f.stamp(body, kp);

function activityBody(parameters: object, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs: String(Date.now()), organizationId: root.organizationId, parameters, ...extra });
}

const ethAccount = (i: number) => ({ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${i}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });

async function submit(body: string, kp = root) {
  return engine.submit('create_wallet', stamp(body, kp), Buffer.from(body));
}

beforeAll(async () => {
  f = await createFixture();
  ({ store, engine, root } = f);
});

afterAll(async () => {
  await f?.close();
  await stopTestPostgres();
});

describe('activity engine', () => {
  it('creates a wallet and records the activity, its effects and an outbox event together', async () => {
    const outboxBefore = await store.outbox.count();
    const { activity } = await submit(activityBody({ walletName: 'w1', accounts: [ethAccount(0), ethAccount(1)] }));
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const result = activity.result['createWalletResult'] as { walletId: string; addresses: string[] };
    expect(result.addresses).toHaveLength(2);
    expect(result.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(activity.intent['createWalletIntent']).toMatchObject({ walletName: 'w1', mnemonicLength: 12 });
    expect(activity.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    const wallet = await store.wallets.findById(root.organizationId, result.walletId);
    expect(wallet?.sealedSeed).toMatch(/^v1\./);
    expect(wallet?.sealedSeed).not.toMatch(/ /); // no mnemonic words at rest
    expect(await store.outbox.count()).toBe(outboxBefore + 1);
  });

  it('returns the existing activity for an identical body', async () => {
    const body = activityBody({ walletName: 'same', accounts: [] });
    const a = await submit(body);
    const b = await submit(body);
    expect(b.activity.id).toBe(a.activity.id);
    expect((await store.wallets.list(root.organizationId)).filter((w) => w.name === 'same')).toHaveLength(1);
  });

  it('answers a submission that lost the race to an identical one with the winner, rolling its effects back', async () => {
    const created = await submit(activityBody({ walletName: 'racing', accounts: [] }));
    const walletId = (created.activity.result as { createWalletResult: { walletId: string } }).createWalletResult.walletId;
    const body = JSON.stringify({ type: 'ACTIVITY_TYPE_UPDATE_WALLET', timestampMs: String(Date.now()), organizationId: root.organizationId, parameters: { walletId, walletName: 'raced' } });
    const events = await store.outbox.count();
    const first = await engine.submit('update_wallet', stamp(body, root), Buffer.from(body));
    expect(first.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    // A second engine whose idempotency lookup misses once: as if it had looked before the first committed.
    let misses = 1;
    const late = createEngine({
      store: { ...store, activities: { ...store.activities, findByFingerprint: (o: string, fp: string) => (misses-- > 0 ? Promise.resolve(null) : store.activities.findByFingerprint(o, fp)) } },
      vault: f.vault,
      timestampWindowMs: 300_000,
    });
    const second = await late.submit('update_wallet', stamp(body, root), Buffer.from(body));
    expect(misses).toBe(-1);
    expect(second.activity.id).toBe(first.activity.id);
    expect(await store.outbox.count()).toBe(events + 1);
    expect((await store.activities.list({ organizationId: root.organizationId, limit: 100, types: ['ACTIVITY_TYPE_UPDATE_WALLET'] })).filter((a) => a.fingerprint === first.activity.fingerprint)).toHaveLength(1);
    expect((await store.wallets.findById(root.organizationId, walletId))?.name).toBe('raced');
  });

  it('records a FAILED activity and writes no effects when the handler refuses', async () => {
    await submit(activityBody({ walletName: 'dup', accounts: [] }));
    const before = (await store.wallets.list(root.organizationId)).length;
    const { activity } = await submit(activityBody({ walletName: 'dup', accounts: [ethAccount(0)] }));
    expect(activity.status).toBe('ACTIVITY_STATUS_FAILED');
    expect(activity.failure?.message).toMatch(/wallet name must be unique/);
    expect((await store.wallets.list(root.organizationId)).length).toBe(before);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const cases = [
      activityBody({ walletName: 'x', accounts: [{ ...ethAccount(0), path: 'not-a-path' }] }),
      activityBody({ walletName: 'x', accounts: [{ ...ethAccount(0), curve: 'CURVE_ED25519' }] }),
      activityBody({ walletName: '', accounts: [] }),
      JSON.stringify({ type: 'ACTIVITY_TYPE_CREATE_USERS_V4', timestampMs: String(Date.now()), organizationId: root.organizationId, parameters: {} }),
      activityBody({ walletName: 'stale', accounts: [] }, { timestampMs: String(Date.now() - 3_600_000) }),
    ];
    const before = await store.activities.list({ organizationId: root.organizationId, limit: 100 });
    for (const body of cases) {
      const err = await submit(body).catch((e: unknown) => e);
      expect(err, body).toBeInstanceOf(AppError);
      expect((err as AppError).httpStatus, body).toBe(400);
    }
    expect((await store.activities.list({ organizationId: root.organizationId, limit: 100 })).length).toBe(before.length);
  });

  it('denies a user no policy allows (the policy hook)', async () => {
    const kp = generateP256KeyPair();
    const userId = newId();
    await store.users.create({ id: userId, organizationId: root.organizationId, userName: 'plain' });
    await store.credentials.createApiKey({ id: newId(), organizationId: root.organizationId, userId, name: 'k', publicKey: kp.publicKey, curve: 'API_KEY_CURVE_P256', credentialType: 'CREDENTIAL_TYPE_API_KEY_P256' });
    const err = (await submit(activityBody({ walletName: 'nope', accounts: [] }), { ...root, ...kp }).catch((e: unknown) => e)) as AppError;
    expect(err.httpStatus).toBe(403);
    expect(err.toBody().details[0]).toMatchObject({ turnkeyErrorCode: 'REQUEST_NOT_AUTHORIZED' });
  });

  it('refuses unknown keys, tampered bodies and expired keys with 401', async () => {
    const body = activityBody({ walletName: 'z', accounts: [] });
    const stranger = generateP256KeyPair();
    const e1 = (await submit(body, { ...root, ...stranger }).catch((e: unknown) => e)) as AppError;
    expect(e1.code).toBe('PUBLIC_KEY_NOT_FOUND');
    const e2 = (await engine.submit('create_wallet', stamp(body, root), Buffer.from(body.replace('"z"', '"y"'))).catch((e: unknown) => e)) as AppError;
    expect(e2.code).toBe('SIGNATURE_INVALID');
    const kp = generateP256KeyPair();
    await store.credentials.createApiKey({
      id: newId(), organizationId: root.organizationId, userId: root.userId, name: 'old', publicKey: kp.publicKey,
      curve: 'API_KEY_CURVE_P256', credentialType: 'CREDENTIAL_TYPE_API_KEY_P256', expiresAt: new Date(Date.now() - 1000),
    });
    const e3 = (await submit(body, { ...root, ...kp }).catch((e: unknown) => e)) as AppError;
    expect(e3.code).toBe('API_KEY_EXPIRED');
  });

  it('pages wallet accounts with after and before in a stable order', async () => {
    const { activity } = await submit(activityBody({ walletName: 'paged', accounts: Array.from({ length: 25 }, (_, i) => ethAccount(i)) }));
    const walletId = (activity.result['createWalletResult'] as { walletId: string }).walletId;
    const list = async (paginationOptions?: object) => {
      const body = JSON.stringify({ organizationId: root.organizationId, walletId, ...(paginationOptions ? { paginationOptions } : {}) });
      return ((await engine.query('list_wallet_accounts', stamp(body, root), Buffer.from(body))) as { accounts: { walletAccountId: string; path: string }[] }).accounts;
    };
    const p1 = await list();
    const p2 = await list({ limit: '10', after: p1.at(-1)!.walletAccountId });
    const p3 = await list({ limit: '10', after: p2.at(-1)!.walletAccountId });
    expect([p1.length, p2.length, p3.length]).toEqual([10, 10, 5]);
    expect([...p1, ...p2, ...p3].map((a) => a.path)).toEqual(Array.from({ length: 25 }, (_, i) => `m/44'/60'/0'/0/${i}`));
    const back = await list({ limit: '3', before: p2[0]!.walletAccountId });
    expect(back.map((a) => a.walletAccountId)).toEqual(p1.slice(7).map((a) => a.walletAccountId));
    for (const limit of ['0', '101', 'ten']) {
      await expect(list({ limit })).rejects.toMatchObject({ httpStatus: 400 });
    }
  });

  it('authenticates a passkey (X-Stamp-Webauthn) against a stored authenticator', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const raw = publicKey.export({ format: 'jwk' });
    const uncompressed = Buffer.concat([Buffer.from([4]), Buffer.from(raw.x!, 'base64url'), Buffer.from(raw.y!, 'base64url')]);
    const credentialId = Buffer.from('credential-1').toString('base64url');
    await store.credentials.createAuthenticator({
      id: newId(), organizationId: root.organizationId, userId: root.userId, name: 'laptop', credentialId, publicKey: uncompressed.toString('hex'),
    });
    const body = JSON.stringify({ organizationId: root.organizationId });
    const challenge = Buffer.from(createHash('sha256').update(body).digest('hex')).toString('base64url');
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: 'https://app.example' }));
    const authData = Buffer.concat([createHash('sha256').update('app.example').digest(), Buffer.from([0x05, 0, 0, 0, 1])]);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), privateKey);
    const header = (sig: Buffer) => ({
      'x-stamp-webauthn': JSON.stringify({ authenticatorData: authData.toString('base64url'), clientDataJson: clientData.toString('base64url'), credentialId, signature: sig.toString('base64url') }),
    });
    const who = (await engine.query('whoami', header(signature), Buffer.from(body))) as { userId: string };
    expect(who.userId).toBe(root.userId);
    const tampered = Buffer.from(signature);
    tampered[tampered.length - 1]! ^= 1;
    await expect(engine.query('whoami', header(tampered), Buffer.from(body))).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' });
    const both = { ...header(signature), ...stamp(body, root) };
    await expect(engine.query('whoami', both, Buffer.from(body))).rejects.toMatchObject({ httpStatus: 401 });
  });
});
