/**
 * Activities that derive accounts give the same accounts whether the engine derives inline or on
 * the derivation pool's worker threads (the bundled apps use the pool; libs/platform creates it; the
 * platform's tests check how LATCHKEY_DERIVATION_WORKERS is read).
 */
import { createDerivationPool, encodeAddress, newId, SeedDeriver, type TDerivationPool } from '@latchkey/crypto';
import { keccak256, recoverAddress, Signature, toUtf8Bytes } from 'ethers';
import { stopTestPostgres } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletSeedAad } from '../src/keys/vault-aad.js';
import { createFixture, type TFixture } from '../src/testing/fixture.js';

// The worker's TypeScript source, through tsx (libs/crypto's test entry for it).
const workerUrl = new URL('../../crypto/src/derivation/derivation-worker.source.mjs', import.meta.url);
let pool: TDerivationPool;
let f: TFixture;
beforeAll(async () => {
  pool = createDerivationPool({ workerUrl, size: 2 });
  f = await createFixture({ services: { derivation: pool } });
});
afterAll(async () => {
  await f?.close();
  await pool?.close();
  await stopTestPostgres();
});

const eth = (i: number) => ({ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${i}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });

describe('account derivation on worker threads', () => {
  it('creates and extends wallets with the accounts inline derivation gives, and signs with them', async () => {
    // A wallet whose seed is known: the development mnemonic, sealed as create_wallet seals it.
    const mnemonic = 'test test test test test test test test test test test junk';
    const walletId = newId();
    await f.store.wallets.create({ id: walletId, organizationId: f.root.organizationId, name: 'known', sealedSeed: f.vault.seal(new TextEncoder().encode(mnemonic), walletSeedAad(walletId)), mnemonicLength: 12 }, []);
    // 40 accounts: split across both workers.
    const more = await f.submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId, accounts: Array.from({ length: 40 }, (_, i) => eth(i)) });
    expect(more.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const addresses = (more.result['createWalletAccountsResult'] as { addresses: string[] }).addresses;
    expect(addresses[0]).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    const deriver = SeedDeriver.fromMnemonic(mnemonic);
    expect(addresses).toEqual(
      Array.from({ length: 40 }, (_, i) => {
        const k = deriver.derive('CURVE_SECP256K1', eth(i).path);
        return encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', k.publicKey);
      }),
    );
    // Each stored key (sealed from the worker's result) signs as its address.
    const digest = keccak256(toUtf8Bytes('pooled'));
    const signed = await f.submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { signWith: addresses[39], payload: digest.slice(2), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' });
    const sig = signed.result['signRawPayloadResult'] as { r: string; s: string; v: string };
    expect(recoverAddress(digest, Signature.from({ r: `0x${sig.r}`, s: `0x${sig.s}`, v: parseInt(sig.v, 16) + 27 }))).toBe(addresses[39]);

    // create_wallet derives on the pool too: 20 distinct accounts of a fresh seed.
    const created = await f.submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'pooled', accounts: Array.from({ length: 20 }, (_, i) => eth(i)) });
    const fresh = (created.result['createWalletResult'] as { addresses: string[] }).addresses;
    expect(new Set(fresh).size).toBe(20);
    expect(fresh).not.toContain(addresses[0]);
  });

});
