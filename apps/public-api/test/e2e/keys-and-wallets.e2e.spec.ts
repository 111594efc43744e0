/**
 * Keys and wallets end to end: wallets on all three curves with every address format, the wallet
 * and wallet-account activities (create_wallet_accounts, update_wallet, delete_wallet_accounts,
 * delete_wallets), private keys with their tags, and the queries that read them back — against one
 * real Latchkey, driven only by the unmodified `@turnkey/http` and `@turnkey/sdk-server` clients.
 *
 * Every address is re-derived from the public key the server reports, with the chain's own
 * library (ethers, bitcoinjs-lib, @solana/web3.js, @ton/ton, …) rather than the server's encoders,
 * so an encoder and its unit test cannot agree on the same mistake. The table below is keyed by
 * every `v1AddressFormat`, so a format added to the wire types fails the typecheck until it has
 * an independent check here.
 */
import { ECDH } from 'node:crypto';
import { Ed25519PublicKey as AptosEd25519PublicKey } from '@aptos-labs/ts-sdk';
import * as ecc from '@bitcoinerlab/secp256k1';
import { encodeSecp256k1Pubkey, pubkeyToAddress } from '@cosmjs/amino';
import { Ed25519PublicKey as SuiEd25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import { bech32m } from '@scure/base';
import { PublicKey as SolanaPublicKey } from '@solana/web3.js';
import { StrKey } from '@stellar/stellar-base';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { TurnkeyActivityError, TurnkeyClient, TurnkeyRequestError, createActivityPoller, type TurnkeyApiTypes } from '@turnkey/http';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { Turnkey } from '@turnkey/sdk-server';
import type { TLatchkey } from '@latchkey/testkit';
import { latchkeyForThisFile } from './shared-platform.js';
import { initEccLib, networks, payments, type Network } from 'bitcoinjs-lib';
import { computeAddress } from 'ethers';
import { deriveAddress as xrpDeriveAddress } from 'ripple-keypairs';
import { utils as tronUtils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountParams,
  createWalletRequest,
  ethereumAddressOf,
  expectRecentTimestamp,
  rejectionOf,
  turnkeyErrorCodes,
  uniqueName,
  type TAddressFormat,
  type TWalletAccountParams,
} from './e2e-helpers.js';

type TCurve = TurnkeyApiTypes['v1Curve'];
type TActivity = TurnkeyApiTypes['v1Activity'];
type TWalletAccount = TurnkeyApiTypes['v1WalletAccount'];
type TPrivateKey = TurnkeyApiTypes['v1PrivateKey'];
type TPrivateKeyParams = TurnkeyApiTypes['v1PrivateKeyParams'];

// ---------------------------------------------------------------------------------------------
// Independent address derivation, one entry per wire format.
// ---------------------------------------------------------------------------------------------

/** P2TR needs an ECC backend in bitcoinjs-lib; @bitcoinerlab/secp256k1 is not the server's noble. */
initEccLib(ecc);

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The OpenSSL name of an ECDSA curve (node:crypto does the SEC1 conversions, not noble). */
const OPENSSL_CURVE = { CURVE_SECP256K1: 'secp256k1', CURVE_P256: 'prime256v1' } as const;

/** The SEC1 form of an ECDSA key, by OpenSSL; refuses ed25519 (it has no SEC1 form). */
function sec1(curve: TCurve, publicKey: Uint8Array, form: 'compressed' | 'uncompressed'): string {
  if (curve === 'CURVE_ED25519') throw new Error('ed25519 keys have no SEC1 form');
  return ECDH.convertKey(Buffer.from(publicKey), OPENSSL_CURVE[curve], undefined, 'hex', form) as string;
}

function defined(address: string | undefined, what: string): string {
  if (address === undefined) throw new Error(`bitcoinjs-lib produced no ${what} address`);
  return address;
}

/** Signet wallets use testnet's version bytes and `tb` hrp, so bitcoinjs-lib's testnet serves both. */
const BTC_NETWORKS = { MAINNET: networks.bitcoin, TESTNET: networks.testnet, SIGNET: networks.testnet, REGTEST: networks.regtest } as const;

/**
 * The conventional single-key script of each Bitcoin address type: P2SH is P2SH-P2WPKH (BIP-49),
 * P2WSH wraps `<pubkey> OP_CHECKSIG`, P2TR is BIP-86 (key path only, no script tree).
 */
function bitcoinAddress(net: keyof typeof BTC_NETWORKS, script: 'P2PKH' | 'P2SH' | 'P2WPKH' | 'P2WSH' | 'P2TR', pubkey: Uint8Array): string {
  const network = BTC_NETWORKS[net];
  switch (script) {
    case 'P2PKH':
      return defined(payments.p2pkh({ pubkey, network }).address, script);
    case 'P2SH':
      return defined(payments.p2sh({ redeem: payments.p2wpkh({ pubkey, network }), network }).address, script);
    case 'P2WPKH':
      return defined(payments.p2wpkh({ pubkey, network }).address, script);
    case 'P2WSH':
      return defined(payments.p2wsh({ redeem: payments.p2pk({ pubkey, network }), network }).address, script);
    case 'P2TR':
      return defined(payments.p2tr({ internalPubkey: pubkey.subarray(1, 33), network }).address, script);
  }
}

/**
 * Dogecoin's chain parameters (P2PKH 0x1e "D…", testnet 0x71 "n…"); bitcoinjs-lib does the rest.
 * Dogecoin has no segwit, so the `bech32` prefixes are placeholders the P2PKH encoder never reads.
 */
const DOGE_NETWORKS: Record<'MAINNET' | 'TESTNET', Network> = {
  MAINNET: { messagePrefix: '\x19Dogecoin Signed Message:\n', bech32: 'doge', bip32: { public: 0x02facafd, private: 0x02fac398 }, pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e },
  TESTNET: { messagePrefix: '\x19Dogecoin Signed Message:\n', bech32: 'tdge', bip32: { public: 0x043587cf, private: 0x04358394 }, pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 },
};

/**
 * A Spark address: bech32m of the protobuf SparkAddress message holding only the identity key
 * (field 1, 33 bytes: `0a 21 ‖ key`) under `spark` / `sparkrt`. No Spark library is installed, so
 * this one is written out here from the format's description rather than taken from a library.
 */
function sparkAddress(hrp: 'spark' | 'sparkrt', publicKey: Uint8Array): string {
  return bech32m.encode(hrp, bech32m.toWords(Uint8Array.from([0x0a, 0x21, ...publicKey])));
}

function tronAddress(publicKey: Uint8Array): string {
  // tronweb hashes the 64-byte X‖Y, so it needs the uncompressed point.
  const uncompressed = Buffer.from(sec1('CURVE_SECP256K1', publicKey, 'uncompressed'), 'hex');
  return tronUtils.crypto.getBase58CheckAddress(tronUtils.crypto.computeAddress(uncompressed));
}

/** TON wallets as wallet apps show them: workchain 0, default wallet ids, URL-safe non-bounceable. */
function tonAddress(version: 'V3R2' | 'V4R2' | 'V5R1', publicKey: Uint8Array): string {
  const key = Buffer.from(publicKey);
  const contract =
    version === 'V3R2'
      ? WalletContractV3R2.create({ workchain: 0, publicKey: key })
      : version === 'V4R2'
        ? WalletContractV4.create({ workchain: 0, publicKey: key })
        : WalletContractV5R1.create({ walletId: { networkGlobalId: -239, context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 } }, publicKey: key });
  return contract.address.toString({ urlSafe: true, bounceable: false });
}

interface TFormatCheck {
  curves: readonly TCurve[];
  /** The address of `publicKey` (as the server reports it) computed by an independent library. */
  address: (publicKey: Uint8Array, curve: TCurve) => string;
}

const SECP = ['CURVE_SECP256K1'] as const;
const ED = ['CURVE_ED25519'] as const;
const btc = (net: keyof typeof BTC_NETWORKS, script: Parameters<typeof bitcoinAddress>[1]): TFormatCheck => ({ curves: SECP, address: (pk) => bitcoinAddress(net, script, pk) });
const ton = (version: Parameters<typeof tonAddress>[0]): TFormatCheck => ({ curves: ED, address: (pk) => tonAddress(version, pk) });

const FORMATS: Record<TAddressFormat, TFormatCheck> = {
  ADDRESS_FORMAT_COMPRESSED: {
    curves: ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'],
    // ed25519's "compressed" form is its raw 32-byte key.
    address: (pk, curve) => (curve === 'CURVE_ED25519' ? hex(pk) : sec1(curve, pk, 'compressed')),
  },
  ADDRESS_FORMAT_UNCOMPRESSED: { curves: ['CURVE_SECP256K1', 'CURVE_P256'], address: (pk, curve) => sec1(curve, pk, 'uncompressed') },
  ADDRESS_FORMAT_ETHEREUM: { curves: SECP, address: (pk) => computeAddress(`0x${hex(pk)}`) },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH: btc('MAINNET', 'P2PKH'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH: btc('MAINNET', 'P2SH'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH: btc('MAINNET', 'P2WPKH'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH: btc('MAINNET', 'P2WSH'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR: btc('MAINNET', 'P2TR'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH: btc('TESTNET', 'P2PKH'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH: btc('TESTNET', 'P2SH'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH: btc('TESTNET', 'P2WPKH'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH: btc('TESTNET', 'P2WSH'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR: btc('TESTNET', 'P2TR'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH: btc('SIGNET', 'P2PKH'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH: btc('SIGNET', 'P2SH'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH: btc('SIGNET', 'P2WPKH'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH: btc('SIGNET', 'P2WSH'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR: btc('SIGNET', 'P2TR'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH: btc('REGTEST', 'P2PKH'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH: btc('REGTEST', 'P2SH'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH: btc('REGTEST', 'P2WPKH'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH: btc('REGTEST', 'P2WSH'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR: btc('REGTEST', 'P2TR'),
  ADDRESS_FORMAT_DOGE_MAINNET: { curves: SECP, address: (pubkey) => defined(payments.p2pkh({ pubkey, network: DOGE_NETWORKS.MAINNET }).address, 'DOGE') },
  ADDRESS_FORMAT_DOGE_TESTNET: { curves: SECP, address: (pubkey) => defined(payments.p2pkh({ pubkey, network: DOGE_NETWORKS.TESTNET }).address, 'DOGE') },
  ADDRESS_FORMAT_SPARK_MAINNET: { curves: SECP, address: (pk) => sparkAddress('spark', pk) },
  ADDRESS_FORMAT_SPARK_REGTEST: { curves: SECP, address: (pk) => sparkAddress('sparkrt', pk) },
  ADDRESS_FORMAT_COSMOS: { curves: SECP, address: (pk) => pubkeyToAddress(encodeSecp256k1Pubkey(pk), 'cosmos') },
  ADDRESS_FORMAT_SEI: { curves: SECP, address: (pk) => pubkeyToAddress(encodeSecp256k1Pubkey(pk), 'sei') },
  ADDRESS_FORMAT_TRON: { curves: SECP, address: tronAddress },
  ADDRESS_FORMAT_XRP: { curves: SECP, address: (pk) => xrpDeriveAddress(hex(pk)) },
  ADDRESS_FORMAT_SOLANA: { curves: ED, address: (pk) => new SolanaPublicKey(pk).toBase58() },
  ADDRESS_FORMAT_SUI: { curves: ED, address: (pk) => new SuiEd25519PublicKey(pk).toSuiAddress() },
  ADDRESS_FORMAT_APTOS: { curves: ED, address: (pk) => new AptosEd25519PublicKey(pk).authKey().derivedAddress().toStringLong() },
  ADDRESS_FORMAT_XLM: { curves: ED, address: (pk) => StrKey.encodeEd25519PublicKey(Buffer.from(pk)) },
  ADDRESS_FORMAT_TON_V3R2: ton('V3R2'),
  ADDRESS_FORMAT_TON_V4R2: ton('V4R2'),
  ADDRESS_FORMAT_TON_V5R1: ton('V5R1'),
};

const ALL_FORMATS = Object.keys(FORMATS) as TAddressFormat[];
const formatsOf = (curve: TCurve): TAddressFormat[] => ALL_FORMATS.filter((f) => FORMATS[f].curves.includes(curve));

/** The public key shape each curve's accounts and keys carry: compressed SEC1, or raw ed25519. */
const PUBLIC_KEY_SHAPE: Record<TCurve, RegExp> = {
  CURVE_SECP256K1: /^0[23][0-9a-f]{64}$/,
  CURVE_P256: /^0[23][0-9a-f]{64}$/,
  CURVE_ED25519: /^[0-9a-f]{64}$/,
};

/** Every (format, address) whose address differs from the independent one; `[]` when all agree. */
function addressMismatches(curve: TCurve, publicKeyHex: string, addresses: ReadonlyArray<{ format?: TAddressFormat | undefined; address?: string | undefined }>) {
  const publicKey = Buffer.from(publicKeyHex, 'hex');
  return addresses
    .map(({ format, address }) => ({ format, address, expected: format ? FORMATS[format].address(publicKey, curve) : '(no format)' }))
    .filter((a) => a.address !== a.expected);
}

// ---------------------------------------------------------------------------------------------
// The server and the clients.
// ---------------------------------------------------------------------------------------------

let lk: TLatchkey;
let orgId: string;
let client: TurnkeyClient;

beforeAll(async () => {
  lk = await latchkeyForThisFile({ apps: ['public-api'] });
  const { apiPublicKey, apiPrivateKey, organizationId } = lk.bootstrap;
  if (!apiPrivateKey) throw new Error('bootstrap.json has no apiPrivateKey: Latchkey should generate one when LATCHKEY_ROOT_API_PUBLIC_KEY is unset');
  orgId = organizationId;
  client = new TurnkeyClient({ baseUrl: lk.baseUrl }, new ApiKeyStamper({ apiPublicKey, apiPrivateKey }));
});

afterAll(async () => {
  await lk?.stop();
});

/** `@turnkey/sdk-server`'s API client, as an integrator configures it. */
function sdkServerClient() {
  const { apiPublicKey, apiPrivateKey, organizationId } = lk.bootstrap;
  return new Turnkey({ apiBaseUrl: lk.baseUrl, apiPublicKey, apiPrivateKey: apiPrivateKey!, defaultOrganizationId: organizationId }).apiClient();
}

const envelope = () => ({ organizationId: orgId, timestampMs: String(Date.now()) });

const poll = {
  createWallet: () => createActivityPoller({ client, requestFn: client.createWallet }),
  createWalletAccounts: () => createActivityPoller({ client, requestFn: client.createWalletAccounts }),
  updateWallet: () => createActivityPoller({ client, requestFn: client.updateWallet }),
  deleteWallets: () => createActivityPoller({ client, requestFn: client.deleteWallets }),
  deleteWalletAccounts: () => createActivityPoller({ client, requestFn: client.deleteWalletAccounts }),
  createPrivateKeys: () => createActivityPoller({ client, requestFn: client.createPrivateKeys }),
  deletePrivateKeys: () => createActivityPoller({ client, requestFn: client.deletePrivateKeys }),
  createPrivateKeyTag: () => createActivityPoller({ client, requestFn: client.createPrivateKeyTag }),
  updatePrivateKeyTag: () => createActivityPoller({ client, requestFn: client.updatePrivateKeyTag }),
  deletePrivateKeyTags: () => createActivityPoller({ client, requestFn: client.deletePrivateKeyTags }),
};

/** Creates a wallet through the http client's poller and returns its id. */
async function createWallet(name: string, accounts: TWalletAccountParams[] = [accountParams(0)]): Promise<string> {
  const activity = await poll.createWallet()(createWalletRequest(orgId, name, accounts));
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  const walletId = activity.result.createWalletResult?.walletId;
  if (!walletId) throw new Error(`no createWalletResult in ${JSON.stringify(activity)}`);
  return walletId;
}

/** Every account of a wallet, in pages of 100. */
async function accountsOf(walletId: string): Promise<TWalletAccount[]> {
  const out: TWalletAccount[] = [];
  for (;;) {
    const after = out.at(-1)?.walletAccountId;
    const { accounts } = await client.getWalletAccounts({ organizationId: orgId, walletId, paginationOptions: { limit: '100', ...(after ? { after } : {}) } });
    out.push(...accounts);
    if (accounts.length < 100) return out;
  }
}

async function walletsNamed(name: string) {
  const { wallets } = await client.getWallets({ organizationId: orgId });
  return wallets.filter((w) => w.walletName === name);
}

/**
 * Awaits a poller call that must end in a FAILED activity (HTTP 200, not a request error), and
 * returns the recorded activity, whose failure message must match `reason`.
 */
async function expectFailedActivity(promise: Promise<unknown>, activityType: TActivity['type'], reason: RegExp): Promise<TActivity> {
  const err = await rejectionOf(promise, TurnkeyActivityError);
  expect(err.activityStatus).toBe('ACTIVITY_STATUS_FAILED');
  expect(err.activityType).toBe(activityType);
  const { activity } = await client.getActivity({ organizationId: orgId, activityId: err.activityId! });
  expect(activity.status).toBe('ACTIVITY_STATUS_FAILED');
  expect(activity.failure?.message).toMatch(reason);
  return activity;
}

/** Awaits a call that must be refused as a bad request (TurnkeyRequestError code 3, HTTP 400). */
async function expectInvalidRequest(promise: Promise<unknown>): Promise<TurnkeyRequestError> {
  const err = await rejectionOf(promise, TurnkeyRequestError);
  expect(err.code, err.message).toBe(3);
  expect(turnkeyErrorCodes(err.details)).toContain('REQUEST_INVALID');
  return err;
}

/** A NOT_FOUND query answer (TurnkeyRequestError code 5, HTTP 404). */
async function expectNotFound(promise: Promise<unknown>): Promise<void> {
  const err = await rejectionOf(promise, TurnkeyRequestError);
  expect(err.code, err.message).toBe(5);
}

// ---------------------------------------------------------------------------------------------
// Wallets on every curve.
// ---------------------------------------------------------------------------------------------

describe('address formats', () => {
  it('the independent table covers the 38 wire formats, each on the curves the specification gives it', () => {
    expect(ALL_FORMATS).toHaveLength(38);
    expect(formatsOf('CURVE_SECP256K1')).toHaveLength(31);
    expect(formatsOf('CURVE_ED25519').sort()).toEqual(
      ['COMPRESSED', 'SOLANA', 'SUI', 'APTOS', 'XLM', 'TON_V3R2', 'TON_V4R2', 'TON_V5R1'].map((f) => `ADDRESS_FORMAT_${f}`).sort(),
    );
    expect(formatsOf('CURVE_P256').sort()).toEqual(['ADDRESS_FORMAT_COMPRESSED', 'ADDRESS_FORMAT_UNCOMPRESSED']);
  });

  it('the independent encoders reproduce published addresses of the secp256k1 generator key', () => {
    // Key 1 (the generator G): addresses quoted across the ecosystem, so a mistake in this table's
    // wiring of a library (wrong network, wrong script) fails here and not only against the server.
    const g = Buffer.from('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex');
    const at = (f: TAddressFormat) => FORMATS[f].address(g, 'CURVE_SECP256K1');
    expect(at('ADDRESS_FORMAT_ETHEREUM')).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    expect(at('ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH')).toBe('1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH');
    expect(at('ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH')).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    expect(at('ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR')).toBe('bc1pmfr3p9j00pfxjh0zmgp99y8zftmd3s5pmedqhyptwy6lm87hf5sspknck9');
    expect(at('ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH')).toBe('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
    expect(at('ADDRESS_FORMAT_COSMOS')).toBe('cosmos1w508d6qejxtdg4y5r3zarvary0c5xw7k6ah60c');
    expect(at('ADDRESS_FORMAT_TRON')).toBe('TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC');
    expect(at('ADDRESS_FORMAT_XRP')).toBe('rBgGZ9tc4him9KBzD8fKFiQz3fSZpaSwMH');
    expect(at('ADDRESS_FORMAT_UNCOMPRESSED')).toBe(
      '0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8',
    );
  });
});

describe('create_wallet on every curve with every address format (through @turnkey/sdk-server)', () => {
  const cases: Array<{ curve: TCurve; pathFormat: 'PATH_FORMAT_BIP32'; path: string; otherPath: string }> = [
    { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/0'/0'/0/0", otherPath: "m/44'/60'/0'/0/0" },
    // SLIP-0010 ed25519 derives hardened children only.
    { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", otherPath: "m/44'/501'/1'/0'" },
    // SLIP-0010 P-256 also derives non-hardened children.
    { curve: 'CURVE_P256', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/0'/0'/0/0", otherPath: "m/44'/0'/0'/0/1" },
  ];

  it.each(cases)('$curve: every format of one key matches its independent encoding', async ({ curve, pathFormat, path, otherPath }) => {
    const formats = formatsOf(curve);
    // Every format at one path (so one key), plus one account at another path (another key).
    const accounts: TWalletAccountParams[] = [
      ...formats.map((addressFormat) => ({ curve, pathFormat, path, addressFormat })),
      { curve, pathFormat, path: otherPath, addressFormat: 'ADDRESS_FORMAT_COMPRESSED' },
    ];
    const name = uniqueName(`curve-${curve}`);
    const res = await sdkServerClient().createWallet({ walletName: name, accounts });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(res.addresses).toHaveLength(accounts.length);

    const listed = await accountsOf(res.walletId);
    expect(listed.map((a) => [a.curve, a.pathFormat, a.path, a.addressFormat])).toEqual(accounts.map((a) => [a.curve, a.pathFormat, a.path, a.addressFormat]));
    expect(listed.map((a) => a.address)).toEqual(res.addresses);

    const sameKey = listed.slice(0, formats.length);
    const publicKey = sameKey[0]!.publicKey!;
    expect(publicKey).toMatch(PUBLIC_KEY_SHAPE[curve]);
    expect(new Set(sameKey.map((a) => a.publicKey))).toEqual(new Set([publicKey]));
    expect(listed.at(-1)!.publicKey).toMatch(PUBLIC_KEY_SHAPE[curve]);
    expect(listed.at(-1)!.publicKey).not.toBe(publicKey);

    expect(addressMismatches(curve, publicKey, sameKey.map((a) => ({ format: a.addressFormat, address: a.address })))).toEqual([]);
    const other = listed.at(-1)!;
    expect(addressMismatches(curve, other.publicKey!, [{ format: other.addressFormat, address: other.address }])).toEqual([]);
  });

  it('gives an account added later at the same path the same key, and another wallet another key', async () => {
    // A wallet's seed is fixed: an account added later at a path repeats that path's key; another
    // wallet (another seed) gives another key at the same path.
    const path = "m/44'/501'/0'/0'";
    const solana = (addressFormat: TAddressFormat): TWalletAccountParams => ({ curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path, addressFormat });
    const a = await createWallet(uniqueName('seed-a'), [solana('ADDRESS_FORMAT_SOLANA')]);
    const b = await createWallet(uniqueName('seed-b'), [solana('ADDRESS_FORMAT_SOLANA')]);
    await poll.createWalletAccounts()({ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', ...envelope(), parameters: { walletId: a, accounts: [solana('ADDRESS_FORMAT_XLM')] } });
    const [accountsA, accountsB] = await Promise.all([accountsOf(a), accountsOf(b)]);
    expect(accountsA.map((x) => x.addressFormat)).toEqual(['ADDRESS_FORMAT_SOLANA', 'ADDRESS_FORMAT_XLM']);
    expect(accountsA[1]!.publicKey).toBe(accountsA[0]!.publicKey);
    expect(accountsB[0]!.publicKey).not.toBe(accountsA[0]!.publicKey);
    expect(accountsA[0]!.address).toBe(new SolanaPublicKey(Buffer.from(accountsA[0]!.publicKey!, 'hex')).toBase58());
  });

  it.each([12, 15, 18, 21, 24])('accepts mnemonicLength %i', async (mnemonicLength) => {
    const name = uniqueName(`mnemonic-${mnemonicLength}`);
    const base = createWalletRequest(orgId, name, [accountParams(0)]);
    const activity = await poll.createWallet()({ ...base, parameters: { ...base.parameters, mnemonicLength } });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.intent.createWalletIntent?.mnemonicLength).toBe(mnemonicLength);
    const walletId = activity.result.createWalletResult?.walletId ?? '';
    const [account] = await accountsOf(walletId);
    expect(account?.address).toBe(ethereumAddressOf(account?.publicKey ?? ''));
  });

  it.each([0, 11, 13, 25])('refuses mnemonicLength %i with HTTP 400 and creates nothing', async (mnemonicLength) => {
    const name = uniqueName(`mnemonic-bad-${mnemonicLength}`);
    const base = createWalletRequest(orgId, name, [accountParams(0)]);
    await expectInvalidRequest(client.createWallet({ ...base, parameters: { ...base.parameters, mnemonicLength } }));
    expect(await walletsNamed(name)).toEqual([]);
  });
});

describe('refused account parameters (HTTP 400, TurnkeyRequestError code 3)', () => {
  const mismatches: Array<[TAddressFormat, TCurve, TCurve[]]> = [
    ['ADDRESS_FORMAT_SOLANA', 'CURVE_SECP256K1', ['CURVE_ED25519']],
    ['ADDRESS_FORMAT_ETHEREUM', 'CURVE_ED25519', ['CURVE_SECP256K1']],
    ['ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR', 'CURVE_P256', ['CURVE_SECP256K1']],
    ['ADDRESS_FORMAT_UNCOMPRESSED', 'CURVE_ED25519', ['CURVE_SECP256K1', 'CURVE_P256']],
    ['ADDRESS_FORMAT_TON_V5R1', 'CURVE_P256', ['CURVE_ED25519']],
    ['ADDRESS_FORMAT_XLM', 'CURVE_SECP256K1', ['CURVE_ED25519']],
  ];

  it.each(mismatches)('create_wallet refuses %s on %s, naming the allowed curves', async (addressFormat, curve, allowed) => {
    const name = uniqueName('mismatch');
    const path = curve === 'CURVE_ED25519' ? "m/44'/0'/0'/0'" : "m/44'/0'/0'/0/0";
    const err = await expectInvalidRequest(client.createWallet(createWalletRequest(orgId, name, [{ curve, pathFormat: 'PATH_FORMAT_BIP32', path, addressFormat }])));
    for (const c of allowed) expect(err.message).toContain(c);
    expect(await walletsNamed(name)).toEqual([]);
  });

  it.each(["m/44'/501'/0'/0", "m/44'/501'/0/0'", 'm/0'])('create_wallet refuses the non-hardened ed25519 path %s and creates nothing', async (path) => {
    const name = uniqueName('ed25519-soft');
    await expectInvalidRequest(
      client.createWallet(createWalletRequest(orgId, name, [{ curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path, addressFormat: 'ADDRESS_FORMAT_SOLANA' }])),
    );
    expect(await walletsNamed(name)).toEqual([]);
  });

  it('create_wallet_accounts refuses a curve/format mismatch and a non-hardened ed25519 path, adding nothing', async () => {
    const walletId = await createWallet(uniqueName('accounts-refused'));
    const add = (account: TWalletAccountParams) =>
      client.createWalletAccounts({ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', ...envelope(), parameters: { walletId, accounts: [account] } });
    const mismatch = await expectInvalidRequest(add({ curve: 'CURVE_P256', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/0'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }));
    expect(mismatch.message).toContain('CURVE_SECP256K1');
    await expectInvalidRequest(add({ curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0", addressFormat: 'ADDRESS_FORMAT_SUI' }));
    expect(await accountsOf(walletId)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Wallet activities and get_wallet_account.
// ---------------------------------------------------------------------------------------------

describe('create_wallet_accounts', () => {
  it('with persist false returns the addresses and stores nothing; persisting later gives the same addresses', async () => {
    const walletId = await createWallet(uniqueName('persist'), [accountParams(0)]);
    const more = [accountParams(1), accountParams(2)];

    const preview = await poll.createWalletAccounts()({ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', ...envelope(), parameters: { walletId, accounts: more, persist: false } });
    expect(preview.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(preview.type).toBe('ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS');
    const previewed = preview.result.createWalletAccountsResult?.addresses ?? [];
    expect(previewed).toHaveLength(2);
    expect((await accountsOf(walletId)).map((a) => a.path)).toEqual([accountParams(0).path]);

    const stored = await poll.createWalletAccounts()({ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', ...envelope(), parameters: { walletId, accounts: more, persist: true } });
    expect(stored.result.createWalletAccountsResult?.addresses).toEqual(previewed);
    const listed = await accountsOf(walletId);
    expect(listed.map((a) => a.path)).toEqual([0, 1, 2].map((i) => accountParams(i).path));
    expect(listed.slice(1).map((a) => a.address)).toEqual(previewed);
    for (const a of listed) {
      expect(a.walletId).toBe(walletId);
      expect(a.address).toBe(computeAddress(`0x${a.publicKey}`));
    }
  });

  it('persists by default when persist is omitted, through @turnkey/sdk-server too', async () => {
    const walletId = await createWallet(uniqueName('persist-default'), [accountParams(0)]);
    const res = await sdkServerClient().createWalletAccounts({ walletId, accounts: [accountParams(3, 'ADDRESS_FORMAT_TRON')] });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(res.addresses).toHaveLength(1);
    const listed = await accountsOf(walletId);
    expect(listed).toHaveLength(2);
    const tron = listed[1]!;
    expect(tron.address).toBe(res.addresses[0]);
    expect(addressMismatches('CURVE_SECP256K1', tron.publicKey!, [{ format: tron.addressFormat, address: tron.address }])).toEqual([]);
  });

  it('records an unknown wallet and an already existing account as FAILED activities', async () => {
    await expectFailedActivity(
      poll.createWalletAccounts()({
        type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS',
        ...envelope(),
        parameters: { walletId: '01a00000-0000-7000-8000-000000000000', accounts: [accountParams(0)] },
      }),
      'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS',
      /wallet/i,
    );
    const walletId = await createWallet(uniqueName('existing-account'), [accountParams(0)]);
    await expectFailedActivity(
      poll.createWalletAccounts()({ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', ...envelope(), parameters: { walletId, accounts: [accountParams(1), accountParams(0)] } }),
      'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS',
      /account/i,
    );
    // All or nothing: the new account of the failed batch was not kept either.
    expect((await accountsOf(walletId)).map((a) => a.path)).toEqual([accountParams(0).path]);
  });
});

describe('get_wallet_account', () => {
  let walletId: string;
  let listed: TWalletAccount[];

  beforeAll(async () => {
    walletId = await createWallet(uniqueName('get-account'), [accountParams(0), accountParams(1), { ...accountParams(2), addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH', path: "m/84'/0'/0'/0/0" }]);
    listed = await accountsOf(walletId);
  });

  it('finds an account by address, equal to its list_wallet_accounts entry', async () => {
    for (const account of listed) {
      const { account: got } = await client.getWalletAccount({ organizationId: orgId, walletId, address: account.address });
      expect(got).toEqual(account);
    }
  });

  it('finds an account by path, equal to its list_wallet_accounts entry', async () => {
    for (const account of listed) {
      const { account: got } = await client.getWalletAccount({ organizationId: orgId, walletId, path: account.path });
      expect(got).toEqual(account);
    }
  });

  it('answers 404 for an address or path the wallet does not have, and for another wallet', async () => {
    await expectNotFound(client.getWalletAccount({ organizationId: orgId, walletId, address: '0x0000000000000000000000000000000000000001' }));
    await expectNotFound(client.getWalletAccount({ organizationId: orgId, walletId, path: accountParams(9).path }));
    const otherWallet = await createWallet(uniqueName('get-account-other'), [accountParams(5)]);
    await expectNotFound(client.getWalletAccount({ organizationId: orgId, walletId: otherWallet, address: listed[0]!.address }));
  });
});

describe('update_wallet', () => {
  it('renames a wallet; get_wallet and list_wallets show the new name', async () => {
    const oldName = uniqueName('rename-from');
    const newName = uniqueName('rename-to');
    const walletId = await createWallet(oldName);
    const { wallet: before } = await client.getWallet({ organizationId: orgId, walletId });

    const activity = await poll.updateWallet()({ type: 'ACTIVITY_TYPE_UPDATE_WALLET', ...envelope(), parameters: { walletId, walletName: newName } });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.type).toBe('ACTIVITY_TYPE_UPDATE_WALLET');
    expect(activity.result.updateWalletResult).toEqual({ walletId });

    const { wallet } = await client.getWallet({ organizationId: orgId, walletId });
    expect(wallet).toEqual({ ...before, walletName: newName, updatedAt: expect.anything() });
    expectRecentTimestamp(wallet.updatedAt);
    expect(await walletsNamed(oldName)).toEqual([]);
    expect((await walletsNamed(newName)).map((w) => w.walletId)).toEqual([walletId]);
    // Renaming does not touch the accounts.
    expect(await accountsOf(walletId)).toHaveLength(1);
  });

  it('records a rename to a taken name, and an unknown wallet, as FAILED activities', async () => {
    const taken = uniqueName('rename-taken');
    await createWallet(taken);
    const name = uniqueName('rename-keep');
    const walletId = await createWallet(name);
    await expectFailedActivity(
      poll.updateWallet()({ type: 'ACTIVITY_TYPE_UPDATE_WALLET', ...envelope(), parameters: { walletId, walletName: taken } }),
      'ACTIVITY_TYPE_UPDATE_WALLET',
      /unique|exists/i,
    );
    expect((await walletsNamed(name)).map((w) => w.walletId)).toEqual([walletId]);
    expect(await walletsNamed(taken)).toHaveLength(1);
    await expectFailedActivity(
      poll.updateWallet()({ type: 'ACTIVITY_TYPE_UPDATE_WALLET', ...envelope(), parameters: { walletId: '01a00000-0000-7000-8000-000000000000', walletName: uniqueName('x') } }),
      'ACTIVITY_TYPE_UPDATE_WALLET',
      /not found/i,
    );
  });
});

describe('delete_wallet_accounts', () => {
  it('refuses never-exported accounts without deleteWithoutExport (FAILED), deletes them with it', async () => {
    const walletId = await createWallet(uniqueName('del-accounts'), [0, 1, 2].map((i) => accountParams(i)));
    const [a0, a1, a2] = await accountsOf(walletId);
    const ids = [a1!.walletAccountId, a2!.walletAccountId];

    for (const parameters of [{ walletAccountIds: ids }, { walletAccountIds: ids, deleteWithoutExport: false }]) {
      await expectFailedActivity(
        poll.deleteWalletAccounts()({ type: 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', ...envelope(), parameters }),
        'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS',
        /export/i,
      );
      expect(await accountsOf(walletId)).toHaveLength(3);
    }

    const activity = await poll.deleteWalletAccounts()({ type: 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', ...envelope(), parameters: { walletAccountIds: ids, deleteWithoutExport: true } });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.type).toBe('ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS');
    expect([...(activity.result.deleteWalletAccountsResult?.walletAccountIds ?? [])].sort()).toEqual([...ids].sort());
    expect(await accountsOf(walletId)).toEqual([a0]);
    await expectNotFound(client.getWalletAccount({ organizationId: orgId, walletId, address: a1!.address }));
    await expectNotFound(client.getWalletAccount({ organizationId: orgId, walletId, path: a2!.path }));

    // The derivation is free again: re-adding it gives a new account with the same address.
    await poll.createWalletAccounts()({ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', ...envelope(), parameters: { walletId, accounts: [accountParams(1)] } });
    const after = await accountsOf(walletId);
    expect(after.map((a) => a.address)).toEqual([a0!.address, a1!.address]);
    expect(after[1]!.walletAccountId).not.toBe(a1!.walletAccountId);
  });

  it('is all or nothing: one unknown id fails the activity and deletes none', async () => {
    const walletId = await createWallet(uniqueName('del-accounts-unknown'), [accountParams(0), accountParams(1)]);
    const [, a1] = await accountsOf(walletId);
    await expectFailedActivity(
      poll.deleteWalletAccounts()({
        type: 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS',
        ...envelope(),
        parameters: { walletAccountIds: [a1!.walletAccountId, '01a00000-0000-7000-8000-000000000000'], deleteWithoutExport: true },
      }),
      'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS',
      /not found/i,
    );
    expect(await accountsOf(walletId)).toHaveLength(2);
  });
});

describe('delete_wallets', () => {
  it('refuses a never-exported wallet without deleteWithoutExport (FAILED), deletes it with it', async () => {
    const name = uniqueName('del-wallet');
    const walletId = await createWallet(name, [accountParams(0), accountParams(1)]);
    const [account] = await accountsOf(walletId);

    for (const parameters of [{ walletIds: [walletId] }, { walletIds: [walletId], deleteWithoutExport: false }]) {
      await expectFailedActivity(poll.deleteWallets()({ type: 'ACTIVITY_TYPE_DELETE_WALLETS', ...envelope(), parameters }), 'ACTIVITY_TYPE_DELETE_WALLETS', /export/i);
      const { wallet } = await client.getWallet({ organizationId: orgId, walletId });
      expect(wallet.walletName).toBe(name);
    }

    const activity = await poll.deleteWallets()({ type: 'ACTIVITY_TYPE_DELETE_WALLETS', ...envelope(), parameters: { walletIds: [walletId], deleteWithoutExport: true } });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.type).toBe('ACTIVITY_TYPE_DELETE_WALLETS');
    expect(activity.result.deleteWalletsResult).toEqual({ walletIds: [walletId] });

    await expectNotFound(client.getWallet({ organizationId: orgId, walletId }));
    await expectNotFound(client.getWalletAccounts({ organizationId: orgId, walletId }));
    await expectNotFound(client.getWalletAccount({ organizationId: orgId, walletId, address: account!.address }));
    expect(await walletsNamed(name)).toEqual([]);
    const { organizationData } = await client.getOrganization({ organizationId: orgId });
    expect((organizationData.wallets ?? []).map((w) => w.walletId)).not.toContain(walletId);
    // Its accounts are gone from the organization-wide listing too.
    const { accounts } = await client.getWalletAccounts({ organizationId: orgId, paginationOptions: { limit: '100' } });
    expect(accounts.filter((a) => a.walletId === walletId)).toEqual([]);
    // A deleted wallet takes no new accounts.
    await expectFailedActivity(
      poll.createWalletAccounts()({ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', ...envelope(), parameters: { walletId, accounts: [accountParams(5)] } }),
      'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS',
      /not found/i,
    );
  });

  it('frees the name of a deleted wallet (names are unique among live wallets)', async () => {
    const name = uniqueName('del-wallet-name');
    const first = await createWallet(name);
    await poll.deleteWallets()({ type: 'ACTIVITY_TYPE_DELETE_WALLETS', ...envelope(), parameters: { walletIds: [first], deleteWithoutExport: true } });
    const second = await createWallet(name);
    expect(second).not.toBe(first);
    expect((await walletsNamed(name)).map((w) => w.walletId)).toEqual([second]);
  });

  it('is all or nothing across several wallets, and an unknown id fails the activity', async () => {
    const a = await createWallet(uniqueName('del-many-a'));
    const b = await createWallet(uniqueName('del-many-b'));
    await expectFailedActivity(
      poll.deleteWallets()({ type: 'ACTIVITY_TYPE_DELETE_WALLETS', ...envelope(), parameters: { walletIds: [a, b, '01a00000-0000-7000-8000-000000000000'], deleteWithoutExport: true } }),
      'ACTIVITY_TYPE_DELETE_WALLETS',
      /not found/i,
    );
    await client.getWallet({ organizationId: orgId, walletId: a });
    await client.getWallet({ organizationId: orgId, walletId: b });

    const res = await sdkServerClient().deleteWallets({ walletIds: [a, b], deleteWithoutExport: true });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect([...res.walletIds].sort()).toEqual([a, b].sort());
    await expectNotFound(client.getWallet({ organizationId: orgId, walletId: a }));
    await expectNotFound(client.getWallet({ organizationId: orgId, walletId: b }));
  });
});

// ---------------------------------------------------------------------------------------------
// Private keys and tags.
// ---------------------------------------------------------------------------------------------

/** Creates private keys through the http client's poller; returns the activity's results in order. */
async function createPrivateKeys(privateKeys: TPrivateKeyParams[]) {
  const activity = await poll.createPrivateKeys()({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', ...envelope(), parameters: { privateKeys } });
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  expect(activity.type).toBe('ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2');
  const results = activity.result.createPrivateKeysResultV2?.privateKeys ?? [];
  expect(results).toHaveLength(privateKeys.length);
  return results.map((r) => ({ privateKeyId: r.privateKeyId ?? '', addresses: r.addresses ?? [] }));
}

const keyParams = (curve: TCurve, addressFormats: TAddressFormat[] = [], privateKeyTags: string[] = []): TPrivateKeyParams => ({
  privateKeyName: uniqueName(`pk-${curve}`),
  curve,
  addressFormats,
  privateKeyTags,
});

const getPrivateKey = async (privateKeyId: string): Promise<TPrivateKey> => (await client.getPrivateKey({ organizationId: orgId, privateKeyId })).privateKey;

describe('create_private_keys', () => {
  const curves: TCurve[] = ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'];
  let params: TPrivateKeyParams[];
  let created: Array<{ privateKeyId: string; addresses: Array<{ format?: TAddressFormat; address?: string }> }>;

  beforeAll(async () => {
    params = curves.map((c) => keyParams(c, formatsOf(c)));
    created = await createPrivateKeys(params);
  });

  it('returns one key per request, in order, with the requested address formats', () => {
    expect(new Set(created.map((c) => c.privateKeyId)).size).toBe(3);
    created.forEach((c, i) => {
      expect(c.privateKeyId).toEqual(expect.any(String));
      expect(c.addresses.map((a) => a.format)).toEqual(params[i]!.addressFormats);
    });
  });

  it.each(curves.map((c, i) => [c, i] as const))('%s: get_private_key has exactly the v1PrivateKey shape and independently correct addresses', async (curve, i) => {
    const key = await getPrivateKey(created[i]!.privateKeyId);
    expect(key).toEqual({
      privateKeyId: created[i]!.privateKeyId,
      publicKey: expect.stringMatching(PUBLIC_KEY_SHAPE[curve]),
      privateKeyName: params[i]!.privateKeyName,
      curve,
      // Queries list a key's addresses by format name; the activity result keeps request order.
      addresses: expect.arrayContaining(created[i]!.addresses),
      privateKeyTags: [],
      createdAt: expect.anything(),
      updatedAt: expect.anything(),
      exported: false,
      imported: false,
    });
    expect(Object.keys(key).sort()).toEqual(['addresses', 'createdAt', 'curve', 'exported', 'imported', 'privateKeyId', 'privateKeyName', 'privateKeyTags', 'publicKey', 'updatedAt']);
    expect(key.addresses).toHaveLength(created[i]!.addresses.length);
    for (const a of key.addresses) expect(Object.keys(a).sort()).toEqual(['address', 'format']);
    expectRecentTimestamp(key.createdAt);
    expectRecentTimestamp(key.updatedAt);
    expect(addressMismatches(curve, key.publicKey, key.addresses)).toEqual([]);
  });

  it('creates a key with no address formats (addresses empty) through @turnkey/sdk-server', async () => {
    const p = keyParams('CURVE_SECP256K1');
    const res = await sdkServerClient().createPrivateKeys({ privateKeys: [p] });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(res.privateKeys).toHaveLength(1);
    const id = res.privateKeys[0]!.privateKeyId!;
    const key = await getPrivateKey(id);
    expect(key).toEqual(expect.objectContaining({ privateKeyId: id, privateKeyName: p.privateKeyName, curve: 'CURVE_SECP256K1', addresses: [] }));
    expect(key.publicKey).toMatch(PUBLIC_KEY_SHAPE.CURVE_SECP256K1);
  });

  it('gives every key its own key pair', async () => {
    const more = await createPrivateKeys([keyParams('CURVE_ED25519'), keyParams('CURVE_ED25519')]);
    const keys = await Promise.all([...created, ...more].map((c) => getPrivateKey(c.privateKeyId)));
    expect(new Set(keys.map((k) => k.publicKey)).size).toBe(keys.length);
  });

  it('refuses a curve/format mismatch and a name repeated within the request with HTTP 400', async () => {
    const mismatch = keyParams('CURVE_ED25519', ['ADDRESS_FORMAT_ETHEREUM']);
    const err = await expectInvalidRequest(client.createPrivateKeys({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', ...envelope(), parameters: { privateKeys: [mismatch] } }));
    expect(err.message).toContain('CURVE_SECP256K1');
    const twin = keyParams('CURVE_P256');
    await expectInvalidRequest(client.createPrivateKeys({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', ...envelope(), parameters: { privateKeys: [twin, { ...twin }] } }));
    const { privateKeys } = await client.getPrivateKeys({ organizationId: orgId });
    expect(privateKeys.map((k) => k.privateKeyName)).not.toContain(mismatch.privateKeyName);
    expect(privateKeys.map((k) => k.privateKeyName)).not.toContain(twin.privateKeyName);
  });

  it('records a taken name and an unknown tag as FAILED activities, creating no key', async () => {
    const taken = params[0]!.privateKeyName;
    const fresh = keyParams('CURVE_SECP256K1');
    await expectFailedActivity(
      poll.createPrivateKeys()({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', ...envelope(), parameters: { privateKeys: [fresh, { ...keyParams('CURVE_SECP256K1'), privateKeyName: taken }] } }),
      'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
      /unique|exists/i,
    );
    const untagged = keyParams('CURVE_SECP256K1', [], ['01a00000-0000-7000-8000-000000000000']);
    await expectFailedActivity(
      poll.createPrivateKeys()({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', ...envelope(), parameters: { privateKeys: [untagged] } }),
      'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
      /tag/i,
    );
    const { privateKeys } = await client.getPrivateKeys({ organizationId: orgId });
    const names = privateKeys.map((k) => k.privateKeyName);
    expect(names.filter((n) => n === taken)).toHaveLength(1);
    expect(names).not.toContain(fresh.privateKeyName);
    expect(names).not.toContain(untagged.privateKeyName);
  });

  it('get_private_key of an unknown id is a 404', async () => {
    await expectNotFound(client.getPrivateKey({ organizationId: orgId, privateKeyId: '01a00000-0000-7000-8000-000000000000' }));
  });
});

describe('list_private_keys', () => {
  it('lists every live key exactly as get_private_key returns it', async () => {
    const created = await createPrivateKeys([keyParams('CURVE_SECP256K1', ['ADDRESS_FORMAT_ETHEREUM']), keyParams('CURVE_ED25519', ['ADDRESS_FORMAT_SOLANA'])]);
    const { privateKeys } = await client.getPrivateKeys({ organizationId: orgId });
    expect(new Set(privateKeys.map((k) => k.privateKeyId)).size).toBe(privateKeys.length);
    for (const { privateKeyId } of created) {
      const listed = privateKeys.find((k) => k.privateKeyId === privateKeyId);
      expect(listed).toEqual(await getPrivateKey(privateKeyId));
    }
    for (const k of privateKeys) expect(addressMismatches(k.curve, k.publicKey, k.addresses)).toEqual([]);
  });
});

describe('private key tags', () => {
  it('create, update (rename, add, remove) and delete a tag, as the keys and list_private_key_tags see it', async () => {
    const [a, b, c] = await createPrivateKeys([keyParams('CURVE_SECP256K1'), keyParams('CURVE_ED25519'), keyParams('CURVE_P256')]);
    const keyA = a!.privateKeyId;
    const keyB = b!.privateKeyId;
    const keyC = c!.privateKeyId;

    // create_private_key_tag, carried by A.
    const tagName = uniqueName('tag');
    const created = await poll.createPrivateKeyTag()({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', ...envelope(), parameters: { privateKeyTagName: tagName, privateKeyIds: [keyA] } });
    expect(created.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const tagId = created.result.createPrivateKeyTagResult?.privateKeyTagId ?? '';
    expect(created.result.createPrivateKeyTagResult).toEqual({ privateKeyTagId: expect.any(String), privateKeyIds: [keyA] });
    expect((await getPrivateKey(keyA)).privateKeyTags).toEqual([tagId]);
    expect((await getPrivateKey(keyB)).privateKeyTags).toEqual([]);

    const listedTag = async () => (await client.listPrivateKeyTags({ organizationId: orgId })).privateKeyTags.find((t) => t.tagId === tagId);
    const tag = await listedTag();
    expect(tag).toEqual({ tagId, tagName, tagType: 'TAG_TYPE_PRIVATE_KEY', createdAt: expect.anything(), updatedAt: expect.anything() });
    expectRecentTimestamp(tag?.createdAt);

    // update_private_key_tag: rename, move from A to B.
    const renamed = uniqueName('tag-renamed');
    const updated = await poll.updatePrivateKeyTag()({
      type: 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG',
      ...envelope(),
      parameters: { privateKeyTagId: tagId, newPrivateKeyTagName: renamed, addPrivateKeyIds: [keyB], removePrivateKeyIds: [keyA] },
    });
    expect(updated.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(updated.result.updatePrivateKeyTagResult).toEqual({ privateKeyTagId: tagId });
    expect((await listedTag())?.tagName).toBe(renamed);
    expect((await getPrivateKey(keyA)).privateKeyTags).toEqual([]);
    expect((await getPrivateKey(keyB)).privateKeyTags).toEqual([tagId]);

    // A key created with the tag carries it from the start.
    const [tagged] = await createPrivateKeys([keyParams('CURVE_SECP256K1', ['ADDRESS_FORMAT_XRP'], [tagId])]);
    const keyD = tagged!.privateKeyId;
    expect((await getPrivateKey(keyD)).privateKeyTags).toEqual([tagId]);

    // delete_private_key_tags: the result lists the tag and the keys that carried it (B and D).
    const deleted = await poll.deletePrivateKeyTags()({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS', ...envelope(), parameters: { privateKeyTagIds: [tagId] } });
    expect(deleted.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const result = deleted.result.deletePrivateKeyTagsResult;
    expect(result?.privateKeyTagIds).toEqual([tagId]);
    expect([...(result?.privateKeyIds ?? [])].sort()).toEqual([keyB, keyD].sort());
    expect(await listedTag()).toBeUndefined();
    for (const id of [keyA, keyB, keyC, keyD]) expect((await getPrivateKey(id)).privateKeyTags).toEqual([]);
  });

  it('keeps several tags on one key, and deleting one tag leaves the other', async () => {
    const [k] = await createPrivateKeys([keyParams('CURVE_SECP256K1')]);
    const key = k!.privateKeyId;
    const tags: string[] = [];
    for (const n of ['one', 'two']) {
      const act = await poll.createPrivateKeyTag()({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', ...envelope(), parameters: { privateKeyTagName: uniqueName(`tag-${n}`), privateKeyIds: [key] } });
      tags.push(act.result.createPrivateKeyTagResult?.privateKeyTagId ?? '');
    }
    expect([...(await getPrivateKey(key)).privateKeyTags].sort()).toEqual([...tags].sort());
    const deleted = await poll.deletePrivateKeyTags()({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS', ...envelope(), parameters: { privateKeyTagIds: [tags[0]!] } });
    expect(deleted.result.deletePrivateKeyTagsResult).toEqual({ privateKeyTagIds: [tags[0]], privateKeyIds: [key] });
    expect((await getPrivateKey(key)).privateKeyTags).toEqual([tags[1]]);
  });

  it('records a duplicate tag name, an unknown key, and an unknown tag as FAILED activities', async () => {
    const [k] = await createPrivateKeys([keyParams('CURVE_ED25519')]);
    const name = uniqueName('tag-dup');
    await poll.createPrivateKeyTag()({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', ...envelope(), parameters: { privateKeyTagName: name, privateKeyIds: [] } });
    await expectFailedActivity(
      poll.createPrivateKeyTag()({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', ...envelope(), parameters: { privateKeyTagName: name, privateKeyIds: [k!.privateKeyId] } }),
      'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG',
      /unique|exists/i,
    );
    expect((await getPrivateKey(k!.privateKeyId)).privateKeyTags).toEqual([]);
    const missingKey = uniqueName('tag-missing-key');
    await expectFailedActivity(
      poll.createPrivateKeyTag()({
        type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG',
        ...envelope(),
        parameters: { privateKeyTagName: missingKey, privateKeyIds: ['01a00000-0000-7000-8000-000000000000'] },
      }),
      'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG',
      /not found/i,
    );
    const { privateKeyTags } = await client.listPrivateKeyTags({ organizationId: orgId });
    expect(privateKeyTags.filter((t) => t.tagName === name)).toHaveLength(1);
    expect(privateKeyTags.map((t) => t.tagName)).not.toContain(missingKey);
    await expectFailedActivity(
      poll.deletePrivateKeyTags()({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS', ...envelope(), parameters: { privateKeyTagIds: ['01a00000-0000-7000-8000-000000000000'] } }),
      'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS',
      /not found/i,
    );
    await expectFailedActivity(
      poll.updatePrivateKeyTag()({
        type: 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG',
        ...envelope(),
        parameters: { privateKeyTagId: '01a00000-0000-7000-8000-000000000000', addPrivateKeyIds: [], removePrivateKeyIds: [] },
      }),
      'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG',
      /not found/i,
    );
  });
});

describe('delete_private_keys', () => {
  it('refuses never-exported keys without deleteWithoutExport (FAILED), deletes them with it', async () => {
    const [a, b] = await createPrivateKeys([keyParams('CURVE_SECP256K1', ['ADDRESS_FORMAT_ETHEREUM']), keyParams('CURVE_P256')]);
    const ids = [a!.privateKeyId, b!.privateKeyId];

    for (const parameters of [{ privateKeyIds: ids }, { privateKeyIds: ids, deleteWithoutExport: false }]) {
      await expectFailedActivity(poll.deletePrivateKeys()({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', ...envelope(), parameters }), 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', /export/i);
      for (const id of ids) expect((await getPrivateKey(id)).privateKeyId).toBe(id);
    }

    const activity = await poll.deletePrivateKeys()({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', ...envelope(), parameters: { privateKeyIds: ids, deleteWithoutExport: true } });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.type).toBe('ACTIVITY_TYPE_DELETE_PRIVATE_KEYS');
    expect([...(activity.result.deletePrivateKeysResult?.privateKeyIds ?? [])].sort()).toEqual([...ids].sort());
    for (const id of ids) await expectNotFound(client.getPrivateKey({ organizationId: orgId, privateKeyId: id }));
    const { privateKeys } = await client.getPrivateKeys({ organizationId: orgId });
    for (const id of ids) expect(privateKeys.map((k) => k.privateKeyId)).not.toContain(id);
  });

  it('frees the name of a deleted key (names are unique among live keys)', async () => {
    const p = keyParams('CURVE_SECP256K1');
    const [first] = await createPrivateKeys([p]);
    await poll.deletePrivateKeys()({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', ...envelope(), parameters: { privateKeyIds: [first!.privateKeyId], deleteWithoutExport: true } });
    const [second] = await createPrivateKeys([p]);
    expect(second!.privateKeyId).not.toBe(first!.privateKeyId);
    const { privateKeys } = await client.getPrivateKeys({ organizationId: orgId });
    expect(privateKeys.filter((k) => k.privateKeyName === p.privateKeyName).map((k) => k.privateKeyId)).toEqual([second!.privateKeyId]);
  });

  it('is all or nothing: one unknown id fails the activity and deletes none', async () => {
    const [a] = await createPrivateKeys([keyParams('CURVE_ED25519')]);
    await expectFailedActivity(
      poll.deletePrivateKeys()({
        type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS',
        ...envelope(),
        parameters: { privateKeyIds: [a!.privateKeyId, '01a00000-0000-7000-8000-000000000000'], deleteWithoutExport: true },
      }),
      'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS',
      /not found/i,
    );
    expect((await getPrivateKey(a!.privateKeyId)).privateKeyId).toBe(a!.privateKeyId);
  });
});

describe('get_organization with private keys', () => {
  it('lists the live private keys exactly as list_private_keys does, and not the deleted ones', async () => {
    const [kept, gone] = await createPrivateKeys([keyParams('CURVE_SECP256K1', ['ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR']), keyParams('CURVE_ED25519', ['ADDRESS_FORMAT_TON_V4R2'])]);
    await poll.deletePrivateKeys()({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', ...envelope(), parameters: { privateKeyIds: [gone!.privateKeyId], deleteWithoutExport: true } });
    const [{ organizationData }, { privateKeys }] = await Promise.all([client.getOrganization({ organizationId: orgId }), client.getPrivateKeys({ organizationId: orgId })]);
    const byId = (keys: TPrivateKey[]) => [...keys].sort((x, y) => x.privateKeyId.localeCompare(y.privateKeyId));
    expect(byId(organizationData.privateKeys ?? [])).toEqual(byId(privateKeys));
    const ids = (organizationData.privateKeys ?? []).map((k) => k.privateKeyId);
    expect(ids).toContain(kept!.privateKeyId);
    expect(ids).not.toContain(gone!.privateKeyId);
    expect((organizationData.privateKeys ?? []).find((k) => k.privateKeyId === kept!.privateKeyId)).toEqual(await getPrivateKey(kept!.privateKeyId));
  });

  it('lists the private key tags among organizationData.tags, as list_private_key_tags does', async () => {
    const tagName = uniqueName('org-tag');
    const act = await poll.createPrivateKeyTag()({ type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', ...envelope(), parameters: { privateKeyTagName: tagName, privateKeyIds: [] } });
    const tagId = act.result.createPrivateKeyTagResult?.privateKeyTagId;
    const [{ organizationData }, { privateKeyTags }] = await Promise.all([client.getOrganization({ organizationId: orgId }), client.listPrivateKeyTags({ organizationId: orgId })]);
    const listed = privateKeyTags.find((t) => t.tagId === tagId);
    expect(listed).toBeDefined();
    expect((organizationData.tags ?? []).find((t) => t.tagId === tagId)).toEqual(listed);
  });
});
