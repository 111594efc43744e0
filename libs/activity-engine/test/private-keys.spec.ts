/** Private keys and their tags, against a real database. */
import { encodeAddress, publicKeyForCurve } from '@latchkey/crypto';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyAad } from '../src/keys/vault-aad.js';
import { createFixture, type TFixture } from '../src/testing/fixture.js';

let f: TFixture;
beforeAll(async () => {
  f = await createFixture();
});
afterAll(async () => {
  await f?.close();
  await stopTestPostgres();
});

type TKey = { privateKeyId: string; publicKey: string; privateKeyName: string; curve: string; addresses: { format: string; address: string }[]; privateKeyTags: string[]; exported: boolean; imported: boolean };

async function createKeys(privateKeys: object[]) {
  return f.submit('create_private_keys', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', { privateKeys });
}
const getKey = async (privateKeyId: string) => (await f.query<{ privateKey: TKey }>('get_private_key', { privateKeyId })).privateKey;

describe('private keys', () => {
  it('creates keys on every curve with their addresses; the sealed key matches the public key', async () => {
    const a = await createKeys([
      { privateKeyName: 'k1', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH'] },
      { privateKeyName: 'k2', curve: 'CURVE_ED25519', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_SOLANA'] },
      { privateKeyName: 'k3', curve: 'CURVE_P256', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_COMPRESSED'] },
    ]);
    expect(a.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const created = (a.result['createPrivateKeysResultV2'] as { privateKeys: { privateKeyId: string; addresses: { format: string; address: string }[] }[] }).privateKeys;
    expect(created).toHaveLength(3);
    for (const [i, curve] of (['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'] as const).entries()) {
      const key = await getKey(created[i]!.privateKeyId);
      expect(key).toMatchObject({ privateKeyName: `k${i + 1}`, curve, exported: false, imported: false, privateKeyTags: [] });
      const row = await f.store.privateKeys.findById(f.root.organizationId, key.privateKeyId);
      const secret = f.vault.open(row!.sealedPrivateKey, privateKeyAad(key.privateKeyId));
      expect(Buffer.from(publicKeyForCurve(curve, secret)).toString('hex')).toBe(key.publicKey);
      for (const addr of key.addresses) expect(addr.address).toBe(encodeAddress(curve, addr.format, Buffer.from(key.publicKey, 'hex')));
    }
    expect(created[0]!.addresses.map((x) => x.format)).toEqual(['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH']);
    const listed = (await f.query<{ privateKeys: TKey[] }>('list_private_keys', {})).privateKeys;
    expect(listed.map((k) => k.privateKeyName)).toEqual(expect.arrayContaining(['k1', 'k2', 'k3']));
  });

  it('refuses a format the curve cannot encode with 400, and duplicate names as a FAILED activity', async () => {
    await expect(createKeys([{ privateKeyName: 'bad', curve: 'CURVE_ED25519', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }])).rejects.toMatchObject({ httpStatus: 400 });
    await createKeys([{ privateKeyName: 'same', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] }]);
    const dup = await createKeys([{ privateKeyName: 'same', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] }]);
    expect(dup.status).toBe('ACTIVITY_STATUS_FAILED');
  });

  it('tags keys, retags them, and deleting tags reports the keys that carried them', async () => {
    const a = await createKeys([
      { privateKeyName: 't1', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] },
      { privateKeyName: 't2', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] },
    ]);
    const [k1, k2] = (a.result['createPrivateKeysResultV2'] as { privateKeys: { privateKeyId: string }[] }).privateKeys.map((k) => k.privateKeyId);
    const tag = await f.submit('create_private_key_tag', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', { privateKeyTagName: 'hot', privateKeyIds: [k1] });
    const tagId = (tag.result['createPrivateKeyTagResult'] as { privateKeyTagId: string }).privateKeyTagId;
    expect((await getKey(k1!)).privateKeyTags).toEqual([tagId]);
    await f.submit('update_private_key_tag', 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG', { privateKeyTagId: tagId, newPrivateKeyTagName: 'warm', addPrivateKeyIds: [k2], removePrivateKeyIds: [k1] });
    expect((await getKey(k1!)).privateKeyTags).toEqual([]);
    expect((await getKey(k2!)).privateKeyTags).toEqual([tagId]);
    const tags = (await f.query<{ privateKeyTags: { tagId: string; tagName: string; tagType: string }[] }>('list_private_key_tags', {})).privateKeyTags;
    expect(tags).toContainEqual(expect.objectContaining({ tagId, tagName: 'warm', tagType: 'TAG_TYPE_PRIVATE_KEY' }));
    const del = await f.submit('delete_private_key_tags', 'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS', { privateKeyTagIds: [tagId] });
    expect(del.result['deletePrivateKeyTagsResult']).toEqual({ privateKeyTagIds: [tagId], privateKeyIds: [k2] });
    expect((await getKey(k2!)).privateKeyTags).toEqual([]);
    // A key created with a tag that does not exist fails.
    const missing = await createKeys([{ privateKeyName: 't3', curve: 'CURVE_SECP256K1', privateKeyTags: [tagId], addressFormats: [] }]);
    expect(missing.status).toBe('ACTIVITY_STATUS_FAILED');
  });

  it('deletes keys only with deleteWithoutExport until they are exported', async () => {
    const a = await createKeys([{ privateKeyName: 'gone', curve: 'CURVE_P256', privateKeyTags: [], addressFormats: [] }]);
    const [id] = (a.result['createPrivateKeysResultV2'] as { privateKeys: { privateKeyId: string }[] }).privateKeys.map((k) => k.privateKeyId);
    expect((await f.submit('delete_private_keys', 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', { privateKeyIds: [id] })).status).toBe('ACTIVITY_STATUS_FAILED');
    expect((await f.submit('delete_private_keys', 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', { privateKeyIds: [id], deleteWithoutExport: true })).status).toBe('ACTIVITY_STATUS_COMPLETED');
    await expect(getKey(id!)).rejects.toMatchObject({ httpStatus: 404 });
  });
});
