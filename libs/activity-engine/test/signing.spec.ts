/** Signing through the engine with each kind of signWith, checked with independent libraries. */
import { ed25519 } from '@noble/curves/ed25519.js';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { Signature, Transaction, hashMessage, recoverAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type TFixture } from './fixture.js';

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
});
