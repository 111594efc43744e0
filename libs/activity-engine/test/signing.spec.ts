/** Signing through the engine with each kind of signWith, checked with independent libraries. */
import { ed25519 } from '@noble/curves/ed25519.js';
import { generateP256KeyPair, newId } from '@latchkey/crypto';
import type { TActivity } from '@latchkey/domain';
import { createAuthCache } from '../src/index.js';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { Signature, Transaction, hashMessage, recoverAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type TFixture } from '../src/testing/fixture.js';

let f: TFixture;
beforeAll(async () => {
  f = await createFixture();
});
afterAll(async () => {
  await f?.close();
  await stopTestPostgres();
});

const result = <T>(a: { result: Record<string, unknown> }, key: string) => a.result[key] as T;
type TSig = { r: string; s: string; v: string };
const recover = (digest: string, sig: TSig) => recoverAddress(digest, Signature.from({ r: `0x${sig.r}`, s: `0x${sig.s}`, v: parseInt(sig.v, 16) + 27 }));

describe('signing', () => {
  it('signs with a wallet account address, a private key id and a private key address', async () => {
    const w = result<{ addresses: string[] }>(
      await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', {
        walletName: 'signer',
        accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
      }),
      'createWalletResult',
    );
    const pk = result<{ privateKeys: { privateKeyId: string; addresses: { address: string }[] }[] }>(
      await f.submit('create_private_keys', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', {
        privateKeys: [{ privateKeyName: 'eth-key', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }],
      }),
      'createPrivateKeysResultV2',
    ).privateKeys[0]!;
    const message = 'hello latchkey';
    const digest = hashMessage(message);
    for (const [signWith, expected] of [
      [w.addresses[0]!, w.addresses[0]!],
      [pk.privateKeyId, pk.addresses[0]!.address],
      [pk.addresses[0]!.address, pk.addresses[0]!.address],
    ] as const) {
      const a = await f.submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
        signWith, payload: digest.slice(2), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP',
      });
      expect(a.status).toBe('ACTIVITY_STATUS_COMPLETED');
      expect(recover(digest, result<TSig>(a, 'signRawPayloadResult'))).toBe(expected);
    }

    const many = await f.submit('sign_raw_payloads', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', {
      signWith: w.addresses[0], payloads: ['00'.repeat(32), '11'.repeat(32)], encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    const sigs = result<{ signatures: TSig[] }>(many, 'signRawPayloadsResult').signatures;
    expect(sigs.map((s, i) => recover(`0x${(i === 0 ? '00' : '11').repeat(32)}`, s))).toEqual([w.addresses[0], w.addresses[0]]);

    const unsigned = Transaction.from({ type: 2, chainId: 1, nonce: 0, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, gasLimit: 21000n, to: pk.addresses[0]!.address, value: 1n });
    const tx = await f.submit('sign_transaction', 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', {
      signWith: w.addresses[0], unsignedTransaction: unsigned.unsignedSerialized.slice(2), type: 'TRANSACTION_TYPE_ETHEREUM',
    });
    expect(Transaction.from(`0x${result<{ signedTransaction: string }>(tx, 'signTransactionResult').signedTransaction}`).from).toBe(w.addresses[0]);
  });

  it('signs with ed25519 and fails the activity for a hash function the curve cannot use', async () => {
    const k = result<{ privateKeys: { privateKeyId: string }[] }>(
      await f.submit('create_private_keys', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', { privateKeys: [{ privateKeyName: 'sol', curve: 'CURVE_ED25519', privateKeyTags: [], addressFormats: [] }] }),
      'createPrivateKeysResultV2',
    ).privateKeys[0]!;
    const key = (await f.query<{ privateKey: { publicKey: string } }>('get_private_key', { privateKeyId: k.privateKeyId })).privateKey;
    const a = await f.submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
      signWith: k.privateKeyId, payload: 'gm', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
    });
    const sig = result<TSig>(a, 'signRawPayloadResult');
    expect(ed25519.verify(Buffer.from(sig.r + sig.s, 'hex'), new TextEncoder().encode('gm'), Buffer.from(key.publicKey, 'hex'))).toBe(true);
    const bad = await f.submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
      signWith: k.privateKeyId, payload: 'gm', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_SHA256',
    });
    expect(bad.status).toBe('ACTIVITY_STATUS_FAILED');
    const unknown = await f.submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
      signWith: 'nobody', payload: '00', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_SHA256',
    });
    expect(unknown.failure?.message).toMatch(/nothing to sign with/);
  });

  it('records each signature once, without a transaction: repeats and concurrent copies answer with one activity and one outbox event', async () => {
    const w = result<{ addresses: string[] }>(
      await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', {
        walletName: 'idempotent', accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
      }),
      'createWalletResult',
    );
    const body = (payload: string) =>
      JSON.stringify({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', timestampMs: String(Date.now()), organizationId: f.root.organizationId, parameters: { signWith: w.addresses[0], payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' } });
    const send = async (b: string, kp = f.root) => (await f.engine.submit('sign_raw_payload', f.stamp(b, kp), Buffer.from(b))).activity;
    const events = () => f.store.outbox.count();

    const before = await events();
    const once = body('aa'.repeat(32));
    const first = await send(once);
    expect(first.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await send(once)).id).toBe(first.id);
    const racing = body('bb'.repeat(32));
    const copies = await Promise.all([send(racing), send(racing), send(racing), send(racing)]);
    expect(new Set(copies.map((c) => c.id)).size).toBe(1);
    expect(copies.every((c) => c.status === 'ACTIVITY_STATUS_COMPLETED')).toBe(true);
    expect(await events()).toBe(before + 2);
    const stored = await f.store.activities.findById(f.root.organizationId, first.id);
    expect(stored).toMatchObject({ status: 'ACTIVITY_STATUS_COMPLETED', fingerprint: first.fingerprint, result: first.result, intent: first.intent });
    expect(stored!.updatedAt.getTime()).toBe(stored!.createdAt.getTime());
  });

  it('stops signing with a key the moment it is deleted, though signing caches its key lookups', async () => {
    const w = result<{ walletId: string; addresses: string[] }>(
      await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', {
        walletName: 'short-lived', accounts: [0, 1].map((i) => ({ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${i}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' })),
      }),
      'createWalletResult',
    );
    const pk = result<{ privateKeys: { privateKeyId: string; addresses: { address: string }[] }[] }>(
      await f.submit('create_private_keys', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', { privateKeys: [{ privateKeyName: 'short-lived', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }] }),
      'createPrivateKeysResultV2',
    ).privateKeys[0]!;
    const sign = (signWith: string) =>
      f.submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { signWith, payload: crypto.randomUUID().replaceAll('-', '').padEnd(64, '0'), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' });
    // Each signer twice: the second is served by the cache.
    for (const signWith of [w.addresses[0]!, w.addresses[1]!, pk.privateKeyId, pk.addresses[0]!.address]) {
      expect((await sign(signWith)).status).toBe('ACTIVITY_STATUS_COMPLETED');
      expect((await sign(signWith)).status).toBe('ACTIVITY_STATUS_COMPLETED');
    }
    const accounts = await f.store.wallets.listAccounts({ organizationId: f.root.organizationId, walletId: w.walletId, limit: 10 });
    const first = accounts.find((a) => a.address === w.addresses[0])!;
    expect((await f.submit('delete_wallet_accounts', 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', { walletAccountIds: [first.id], deleteWithoutExport: true })).status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await sign(w.addresses[0]!)).failure?.message).toMatch(/nothing to sign with/);
    expect((await sign(w.addresses[1]!)).status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await f.submit('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', { walletIds: [w.walletId], deleteWithoutExport: true })).status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await sign(w.addresses[1]!)).failure?.message).toMatch(/nothing to sign with/);
    expect((await f.submit('delete_private_keys', 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', { privateKeyIds: [pk.privateKeyId], deleteWithoutExport: true })).status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await sign(pk.privateKeyId)).failure?.message).toMatch(/nothing to sign with/);
    expect((await sign(pk.addresses[0]!.address)).failure?.message).toMatch(/nothing to sign with/);
    // Another process hears of deletions on the change feed: a message for the topic drops the entries.
    const other = createAuthCache(f.store);
    const w2 = result<{ addresses: string[] }>(
      await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'elsewhere', accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }] }),
      'createWalletResult',
    );
    expect((await other.signer(f.root.organizationId, w2.addresses[0]!))?.kind).toBe('account');
    expect(await other.signer(f.root.organizationId, 'nobody')).toBeNull();
    await f.store.wallets.softDeleteAccounts(f.root.organizationId, (await f.store.wallets.listAccounts({ organizationId: f.root.organizationId, walletId: (await f.store.wallets.list(f.root.organizationId)).find((x) => x.name === 'elsewhere')!.id, limit: 10 })).map((a) => a.id), new Date());
    expect((await other.signer(f.root.organizationId, w2.addresses[0]!))?.kind).toBe('account');
    other.invalidate(`signer:${f.root.organizationId}`);
    expect(await other.signer(f.root.organizationId, w2.addresses[0]!)).toBeNull();
  });

  it('answers a repeated signature with the original even once a policy denies the signer; a new one is refused', async () => {
    const w = result<{ addresses: string[] }>(
      await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', {
        walletName: 'policed', accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
      }),
      'createWalletResult',
    );
    const kp = generateP256KeyPair();
    const user = { ...f.root, ...kp };
    const userId = newId();
    await f.store.users.create({ id: userId, organizationId: f.root.organizationId, userName: 'signer' });
    await f.store.credentials.createApiKey({ id: newId(), organizationId: f.root.organizationId, userId, name: 'k', publicKey: kp.publicKey, curve: 'API_KEY_CURVE_P256', credentialType: 'CREDENTIAL_TYPE_API_KEY_P256' });
    const policy = (name: string, effect: string) =>
      f.submit('create_policy', 'ACTIVITY_TYPE_CREATE_POLICY_V3', { policyName: name, effect, consensus: `approvers.any(user, user.id == '${userId}')`, condition: "activity.action == 'SIGN'", notes: '' });
    expect((await policy('signer may sign', 'EFFECT_ALLOW')).status).toBe('ACTIVITY_STATUS_COMPLETED');

    const body = (payload: string) =>
      JSON.stringify({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', timestampMs: String(Date.now()), organizationId: f.root.organizationId, parameters: { signWith: w.addresses[0], payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' } });
    const send = async (b: string) => (await f.engine.submit('sign_raw_payload', f.stamp(b, user), Buffer.from(b))).activity;
    const signed = body('cc'.repeat(32));
    const first: TActivity = await send(signed);
    expect(first.status).toBe('ACTIVITY_STATUS_COMPLETED');
    // Allowed by a policy: the evaluation is recorded with the activity.
    expect(await f.store.policies.evaluations(f.root.organizationId, first.id)).toHaveLength(1);
    expect((await send(signed)).id).toBe(first.id);

    expect((await policy('signer may not sign', 'EFFECT_DENY')).status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await send(signed)).id).toBe(first.id);
    const refused = await send(body('dd'.repeat(32))).catch((e: unknown) => e);
    expect(refused).toMatchObject({ httpStatus: 403 });
  });
});
