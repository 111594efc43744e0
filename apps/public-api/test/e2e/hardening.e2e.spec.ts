/**
 * Issue 17's findings 3, 4 (the cheap refusal) and 8, and `/readyz`, against one real Latchkey
 * (the built launcher) driven by the unmodified Turnkey clients, and by raw `fetch` where a client
 * cannot say it (NUL and lone surrogates in the JSON text, self-made keys).
 *
 * - Bad bytes: `\u0000` or an unpaired surrogate anywhere in a body is a 400 naming the field's
 *   path, before the organization or the signature is looked at, and nothing is written. A stamp by
 *   a key nobody holds is refused 401 before its body is read at all, whatever the body says.
 * - signWith: an Ethereum address matches whatever its letter case; a base58 (Solana) one only exactly.
 * - An unknown key is refused 401 (the same answer whatever the body, and without reading it once the
 *   miss is cached); a key created through create_api_keys after its miss was cached is usable at
 *   once (the change feed drops the cached miss).
 * - `/readyz` is ready only while the database holds exactly this build's migrations.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import { TurnkeyActivityError, TurnkeyClient, createActivityPoller, type TurnkeyApiTypes } from '@turnkey/http';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpPublicSchema, ethereumPath, expectErrorResponse, rawRequest, rejectionOf, toChecksumAddress, uniqueName } from './e2e-helpers.js';

type TWalletAccountParams = TurnkeyApiTypes['v1WalletAccountParams'];

let lk: TLatchkey;
let orgId: string;
let client: TurnkeyClient;
let rootStamper: ApiKeyStamper;

beforeAll(async () => {
  lk = await startLatchkey({ apps: ['public-api'] });
  const { apiPublicKey, apiPrivateKey, organizationId } = lk.bootstrap;
  orgId = organizationId;
  rootStamper = new ApiKeyStamper({ apiPublicKey, apiPrivateKey: apiPrivateKey! });
  client = new TurnkeyClient({ baseUrl: lk.baseUrl }, rootStamper);
});

afterAll(async () => {
  await lk?.stop();
});

/** Posts exactly `body` (JSON text, escapes and all), stamped by `stamper`. */
async function post(path: string, body: string, stamper: ApiKeyStamper = rootStamper) {
  const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
  return rawRequest(`${lk.baseUrl}${path}`, { body, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
}

const selfMade = () => {
  const { publicKey, privateKey } = generateP256KeyPair();
  return { publicKey, privateKey, stamper: new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey }) };
};

const fieldOf = (body: unknown) => ((body as { details: Array<{ fields?: { field?: string } }> }).details[0]?.fields?.field);

describe('finding 3: NUL and lone surrogates are a 400 naming the field, never a 500', () => {
  it('refuses organizationId "\\u0000" or "\\ud800" 400 naming the field when the key is held, 401 for a self-made key (submit and query routes)', async () => {
    const { stamper } = selfMade();
    for (const org of ['\\u0000', '\\ud800', 'org\\u0000x']) {
      for (const [path, body] of [
        ['/public/v1/query/whoami', `{"organizationId":"${org}"}`],
        ['/public/v1/query/get_wallets', `{"organizationId":"${org}"}`],
        ['/public/v1/submit/create_wallet', `{"type":"ACTIVITY_TYPE_CREATE_WALLET","timestampMs":"${Date.now()}","organizationId":"${org}","parameters":{"walletName":"w","accounts":[]}}`],
      ] as const) {
        // The root key is held (by an organization other than the one named): the body is read and refused.
        const err = expectErrorResponse(await post(path, body, rootStamper), 400, 3, 'REQUEST_INVALID');
        expect(err.message, `${path} ${org}`).toMatch(/^organizationId: contains (U\+0000|an unpaired UTF-16 surrogate \(U\+D800\))/);
        expect(fieldOf(err)).toBe('organizationId');
        // A key nobody holds: refused on the key alone, the body never parsed, so nothing of it reaches PostgreSQL either.
        expectErrorResponse(await post(path, body, stamper), 401, 16, 'PUBLIC_KEY_NOT_FOUND');
      }
    }
    expect(lk.output()).not.toMatch(/unhandled error|"level":50/);
  });

  it('refuses a lone surrogate inside a nested parameter of an authenticated activity, naming its path, and writes nothing', async () => {
    const databaseUrl = await lk.databaseUrl();
    const before = (await dumpPublicSchema(databaseUrl)).dump;
    const walletName = uniqueName('bad-bytes');
    const body = JSON.stringify({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { walletName, accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/\ud800", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }] },
    });
    expect(body).toContain('\\ud800'); // JSON.stringify escapes the lone surrogate: the server sees the escape
    // A free-text field zod lets through: on the landed code this one reached PostgreSQL (500).
    const named = await post('/public/v1/submit/create_wallet', body.replace('\\ud800', '0').replace(`"walletName":"${walletName}"`, `"walletName":"${walletName}\\udfff"`));
    expect(fieldOf(expectErrorResponse(named, 400, 3, 'REQUEST_INVALID'))).toBe('parameters.walletName');
    const res = await post('/public/v1/submit/create_wallet', body);
    const err = expectErrorResponse(res, 400, 3, 'REQUEST_INVALID');
    expect(fieldOf(err)).toBe('parameters.accounts[0].path');
    expect(err.message).toMatch(/^parameters\.accounts\[0\]\.path: contains an unpaired UTF-16 surrogate \(U\+D800\)/);
    // An object key with NUL, and NUL in an array element, on a query route.
    const keyed = await post('/public/v1/submit/create_wallet', body.replace('"walletName"', '"\\u0000x":1,"walletName"').replace('\\ud800', '0'));
    expect(fieldOf(expectErrorResponse(keyed, 400, 3, 'REQUEST_INVALID'))).toBe('parameters["\\u0000x"]');
    const listed = await post('/public/v1/query/get_wallet_accounts', `{"organizationId":"${orgId}","walletId":"x","paginationOptions":{"limit":"10"},"extra":["ok","\\u0000"]}`);
    expect(fieldOf(expectErrorResponse(listed, 400, 3, 'REQUEST_INVALID'))).toBe('extra[1]');
    expect((await dumpPublicSchema(databaseUrl)).dump).toBe(before);
    expect(lk.output()).not.toMatch(/unhandled error|"level":50/);
  });

  it('still accepts paired surrogates (an emoji in a wallet name)', async () => {
    const walletName = `${uniqueName('emoji')} 😀`;
    const activity = await createActivityPoller({ client, requestFn: client.createWallet })({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { walletName, accounts: [] },
    });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });
});

describe('finding 8: signWith matches an Ethereum address in any letter case, and nothing else loosely', () => {
  const eth: TWalletAccountParams = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: ethereumPath(0), addressFormat: 'ADDRESS_FORMAT_ETHEREUM' };
  const sol: TWalletAccountParams = { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' };
  type THash = 'HASH_FUNCTION_KECCAK256' | 'HASH_FUNCTION_NOT_APPLICABLE';
  const sign = (signWith: string, hashFunction: THash = 'HASH_FUNCTION_KECCAK256') =>
    createActivityPoller({ client, requestFn: client.signRawPayload })({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { signWith, payload: 'case does not matter', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction },
    });
  const signatureOf = async (signWith: string, hashFunction?: THash) => {
    const activity = await sign(signWith, hashFunction);
    expect(activity.status, signWith).toBe('ACTIVITY_STATUS_COMPLETED');
    return activity.result.signRawPayloadResult;
  };
  const refused = async (signWith: string, hashFunction?: THash) => {
    const err = await rejectionOf(sign(signWith, hashFunction), TurnkeyActivityError);
    expect(err.activityStatus).toBe('ACTIVITY_STATUS_FAILED');
    const { activity } = await client.getActivity({ organizationId: orgId, activityId: err.activityId! });
    expect(activity.failure?.message).toMatch(/nothing to sign with/);
  };
  const swapCase = (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

  it('a wallet account: lowercase and uppercase-hex spellings sign as the checksummed address does', async () => {
    const created = await createActivityPoller({ client, requestFn: client.createWallet })({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { walletName: uniqueName('case'), accounts: [eth, sol] },
    });
    const [ethAddress, solAddress] = created.result.createWalletResult!.addresses as [string, string];
    expect(ethAddress).toBe(toChecksumAddress(ethAddress));
    expect(ethAddress).not.toBe(ethAddress.toLowerCase()); // a mixed-case checksum, so the test means something
    const reference = await signatureOf(ethAddress);
    expect(await signatureOf(ethAddress.toLowerCase())).toEqual(reference);
    expect(await signatureOf(`0x${ethAddress.slice(2).toUpperCase()}`)).toEqual(reference);
    // Base58 is case-sensitive: the Solana address with its case changed names nothing.
    await signatureOf(solAddress, 'HASH_FUNCTION_NOT_APPLICABLE');
    await refused(swapCase(solAddress), 'HASH_FUNCTION_NOT_APPLICABLE');
    // And an Ethereum-looking address that is not ours is still nothing.
    await refused(`0x${'ab'.repeat(20)}`);
  });

  it('a private key by its Ethereum address, in any case', async () => {
    const created = await createActivityPoller({ client, requestFn: client.createPrivateKeys })({
      type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { privateKeys: [{ privateKeyName: uniqueName('case-key'), curve: 'CURVE_SECP256K1', addressFormats: ['ADDRESS_FORMAT_ETHEREUM'], privateKeyTags: [] }] },
    });
    const address = created.result.createPrivateKeysResultV2!.privateKeys![0]!.addresses![0]!.address!;
    const reference = await signatureOf(address);
    expect(await signatureOf(address.toLowerCase())).toEqual(reference);
    expect(await signatureOf(`0x${address.slice(2).toUpperCase()}`)).toEqual(reference);
  });
});

describe('finding 4: unknown keys are refused cheaply, and a key created afterwards works at once', () => {
  it('refuses a self-made key 401 PUBLIC_KEY_NOT_FOUND, again and again; after create_api_keys it is accepted at once', async () => {
    const stranger = selfMade();
    const body = JSON.stringify({ organizationId: orgId });
    for (let i = 0; i < 5; i++) expectErrorResponse(await post('/public/v1/query/whoami', body, stranger.stamper), 401, 16, 'PUBLIC_KEY_NOT_FOUND');
    // Whatever the body says: not JSON, an organization that does not exist — the same refusal,
    // so a stranger cannot tell which organizations exist.
    for (const other of ['{not json', '{"organizationId":"no-such-organization"}']) {
      const err = expectErrorResponse(await post('/public/v1/query/whoami', other, stranger.stamper), 401, 16, 'PUBLIC_KEY_NOT_FOUND');
      expect(err.message).toContain(stranger.publicKey);
    }
    // A known key with a signature over other bytes is still a signature error, not "not found".
    const other = await rootStamper.stamp('{"organizationId":"elsewhere"}');
    const forged = await rawRequest(`${lk.baseUrl}/public/v1/query/whoami`, { body, headers: { 'content-type': 'application/json', [other.stampHeaderName]: other.stampHeaderValue } });
    expectErrorResponse(forged, 401, 16, 'SIGNATURE_INVALID');
    const activity = await createActivityPoller({ client, requestFn: client.createApiKeys })({
      type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { userId: lk.bootstrap.userId, apiKeys: [{ apiKeyName: uniqueName('late'), publicKey: stranger.publicKey, curveType: 'API_KEY_CURVE_P256' }] },
    });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    // No wait: the cached miss was dropped when the key's creation was announced.
    const res = await post('/public/v1/query/whoami', body, stranger.stamper);
    expect(res.status, res.text).toBe(200);
  });
});

describe('/readyz', () => {
  it('is ready with this build’s migrations, 503 naming the reason when the database has one it does not know, while /healthz stays 200', async () => {
    const ready = await rawRequest(`${lk.baseUrl}/readyz`, { method: 'GET' });
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: 'ready' });
    const db = new pg.Client({ connectionString: await lk.databaseUrl() });
    await db.connect();
    try {
      await db.query("INSERT INTO latchkey_migrations (name, checksum) VALUES ('9999_from_a_newer_build.sql', 'x')");
      await new Promise((r) => setTimeout(r, 1100)); // the probe reuses an answer for 1 s
      const notReady = await rawRequest(`${lk.baseUrl}/readyz`, { method: 'GET' });
      const err = expectErrorResponse(notReady, 503, 14, 'UNAVAILABLE');
      expect(err.message).toMatch(/^not ready: the database has 1 migration\(s\) this build does not know \(9999_from_a_newer_build\.sql\)/);
      expect(notReady.headers.get('retry-after')).toBe('5');
      expect((await rawRequest(`${lk.baseUrl}/healthz`, { method: 'GET' })).status).toBe(200);
    } finally {
      await db.query("DELETE FROM latchkey_migrations WHERE name = '9999_from_a_newer_build.sql'");
      await db.end();
    }
    await new Promise((r) => setTimeout(r, 1100));
    expect((await rawRequest(`${lk.baseUrl}/readyz`, { method: 'GET' })).status).toBe(200);
  });
});
