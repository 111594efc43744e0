/**
 * Signing, export and import end to end, against real Latchkey processes driven only by the
 * unmodified `@turnkey/http` and `@turnkey/sdk-server` clients, with bundles made and opened by the
 * unmodified `@turnkey/crypto`:
 * - sign_raw_payload(s) on the three curves with every kind of `signWith`, EIP-712 and EIP-7702;
 * - sign_transaction for Ethereum (legacy, EIP-2930, EIP-1559), Solana and Bitcoin PSBTs;
 * - export_wallet, export_wallet_account and export_private_key, and what exporting unlocks;
 * - init_import_* / import_wallet / import_private_key, and the one-time import targets;
 * - a secrets scan: no mnemonic, private key or opaque secret (import_secrets) that passed through the platform is in its
 *   database or in its trace-level logs.
 *
 * Signatures, keys and addresses are checked with libraries other than the server's wherever one
 * exists — ethers for secp256k1 recovery, EIP-712, EIP-7702, transactions and BIP-32; web3.js and
 * tweetnacl for Solana; bitcoinjs-lib with @bitcoinerlab/secp256k1 for PSBTs; node:crypto for
 * P-256 keys and SLIP-0010 — so a server-side mistake cannot be confirmed by the code that made
 * it. Raw P-256 and ed25519 signatures are verified with @noble/curves' `verify`.
 */
import { createECDH, createHash, randomBytes } from 'node:crypto';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58 } from '@scure/base';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import { Keypair, PublicKey, SystemProgram, Transaction as SolanaTransaction } from '@solana/web3.js';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { decryptExportBundle, decryptSecretBundle, encryptPrivateKeyToBundle, encryptSecretToBundle, encryptWalletToBundle, generateP256KeyPair } from '@turnkey/crypto';
import { TurnkeyActivityError, TurnkeyClient, createActivityPoller, type TurnkeyApiTypes } from '@turnkey/http';
import { Turnkey } from '@turnkey/sdk-server';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { createKeyVault, parseMasterKey } from '@latchkey/crypto';
import { authProxyKeyAad } from '@latchkey/domain';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { Psbt, networks, payments } from 'bitcoinjs-lib';
import {
  HDNodeWallet,
  Mnemonic,
  Signature,
  SigningKey,
  Transaction as EthTransaction,
  TypedDataEncoder,
  Wallet,
  computeAddress,
  keccak256,
  parseEther,
  parseUnits,
  recoverAddress,
  verifyAuthorization,
  verifyTypedData,
  type TransactionLike,
  type TypedDataField,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dumpPublicSchema,
  ethereumPath,
  findSecrets,
  keyForms,
  mnemonicForms,
  rejectionOf,
  slip10Ed25519PrivateKey,
  uniqueName,
  type TSecret,
  type TWalletAccountParams,
} from './e2e-helpers.js';

type TActivity = TurnkeyApiTypes['v1Activity'];
type TCurve = TurnkeyApiTypes['v1Curve'];
type TAddressFormat = TurnkeyApiTypes['v1AddressFormat'];
type TPayloadEncoding = TurnkeyApiTypes['v1PayloadEncoding'];
type THashFunction = TurnkeyApiTypes['v1HashFunction'];
type TTransactionType = TurnkeyApiTypes['v1TransactionType'];
type TSignature = TurnkeyApiTypes['v1SignRawPayloadResult'];

// ---------------------------------------------------------------------------------------------
// Independent checks.
// ---------------------------------------------------------------------------------------------

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'));
const sha256 = (b: Uint8Array): Uint8Array => Uint8Array.from(createHash('sha256').update(b).digest());
const keccak = (b: Uint8Array): Uint8Array => unhex(keccak256(b));

/** The wire shape of every `{r, s, v}`: 32-byte halves as 64 lowercase hex digits, v "00"/"01". */
function expectSignatureShape(sig: TSignature | undefined, curve: TCurve): TSignature {
  expect(sig).toEqual({ r: expect.stringMatching(/^[0-9a-f]{64}$/), s: expect.stringMatching(/^[0-9a-f]{64}$/), v: curve === 'CURVE_ED25519' ? '00' : expect.stringMatching(/^0[01]$/) });
  return sig!;
}

/** The signature as `@turnkey/ethers` assembles it from the activity result. */
const ethersSignature = (sig: TSignature): Signature => Signature.from({ r: `0x${sig.r}`, s: `0x${sig.s}`, v: parseInt(sig.v) + 27 });

/** The Ethereum address that produced `sig` over the 32-byte `digest`, by ethers' ecrecover. */
const recoveredAddress = (digest: Uint8Array, sig: TSignature): string => recoverAddress(digest, ethersSignature(sig));

/** r‖s as the 64-byte compact form noble and RFC 8032 use. */
const compact = (sig: TSignature): Uint8Array => unhex(sig.r + sig.s);

/** SEC1 compressed P-256 public key of a private key, by OpenSSL (node:crypto), not noble. */
function p256PublicKeyOf(privateKeyHex: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKeyHex, 'hex'));
  return ecdh.getPublicKey('hex', 'compressed');
}

const ED25519_SOLANA_PATH = "m/44'/501'/0'/0'";
const BITCOIN_P2WPKH_PATH = "m/84'/0'/0'/0/0";

/** The Solana address of the ed25519 key at `path` of a mnemonic: SLIP-0010, then tweetnacl. */
function solanaAddressOfMnemonic(mnemonic: string, path: string): string {
  const seed = unhex(Mnemonic.fromPhrase(mnemonic).computeSeed());
  return Keypair.fromSeed(slip10Ed25519PrivateKey(seed, path)).publicKey.toBase58();
}

/** Twelve English words whose BIP-39 checksum does not hold (so a server must refuse them). */
function mnemonicWithBadChecksum(): string {
  for (;;) {
    const words = generateMnemonic(english).split(' ');
    words[11] = english[(english.indexOf(words[11]!) + 1) % english.length]!;
    const phrase = words.join(' ');
    if (!validateMnemonic(phrase, english)) return phrase;
  }
}

/** The Ethereum address at `path` of a mnemonic, by ethers' BIP-32. */
const ethAddressOfMnemonic = (mnemonic: string, path: string): string => HDNodeWallet.fromPhrase(mnemonic, undefined, path).address;

// ---------------------------------------------------------------------------------------------
// A connection to one Latchkey: both clients, the organization, and the signer key to pin.
// ---------------------------------------------------------------------------------------------

interface TConn {
  orgId: string;
  userId: string;
  /** The key `@turnkey/crypto` must be told to trust (from /.well-known/latchkey.json). */
  signerPublicKey: string;
  client: TurnkeyClient;
  sdk: ReturnType<Turnkey['apiClient']>;
}

async function connect(lk: TLatchkey): Promise<TConn> {
  const { apiPublicKey, apiPrivateKey, organizationId, userId } = lk.bootstrap;
  if (!apiPrivateKey) throw new Error('bootstrap.json has no apiPrivateKey: Latchkey should generate one when LATCHKEY_ROOT_API_PUBLIC_KEY is unset');
  const wellKnown = (await (await fetch(`${lk.baseUrl}/.well-known/latchkey.json`)).json()) as { signerPublicKey: string };
  expect(wellKnown.signerPublicKey).toBe(lk.bootstrap.signerPublicKey);
  return {
    orgId: organizationId,
    userId,
    signerPublicKey: wellKnown.signerPublicKey,
    client: new TurnkeyClient({ baseUrl: lk.baseUrl }, new ApiKeyStamper({ apiPublicKey, apiPrivateKey })),
    sdk: new Turnkey({ apiBaseUrl: lk.baseUrl, apiPublicKey, apiPrivateKey, defaultOrganizationId: organizationId }).apiClient(),
  };
}

const envelope = (c: TConn) => ({ organizationId: c.orgId, timestampMs: String(Date.now()) });

/** The http client's pollers, as an integrator writes them. */
const poll = (c: TConn) => ({
  createWallet: createActivityPoller({ client: c.client, requestFn: c.client.createWallet }),
  createPrivateKeys: createActivityPoller({ client: c.client, requestFn: c.client.createPrivateKeys }),
  signRawPayload: createActivityPoller({ client: c.client, requestFn: c.client.signRawPayload }),
  signRawPayloads: createActivityPoller({ client: c.client, requestFn: c.client.signRawPayloads }),
  signTransaction: createActivityPoller({ client: c.client, requestFn: c.client.signTransaction }),
  exportWallet: createActivityPoller({ client: c.client, requestFn: c.client.exportWallet }),
  exportWalletAccount: createActivityPoller({ client: c.client, requestFn: c.client.exportWalletAccount }),
  exportPrivateKey: createActivityPoller({ client: c.client, requestFn: c.client.exportPrivateKey }),
  initImportWallet: createActivityPoller({ client: c.client, requestFn: c.client.initImportWallet }),
  importWallet: createActivityPoller({ client: c.client, requestFn: c.client.importWallet }),
  initImportPrivateKey: createActivityPoller({ client: c.client, requestFn: c.client.initImportPrivateKey }),
  importPrivateKey: createActivityPoller({ client: c.client, requestFn: c.client.importPrivateKey }),
  deleteWallets: createActivityPoller({ client: c.client, requestFn: c.client.deleteWallets }),
  deleteWalletAccounts: createActivityPoller({ client: c.client, requestFn: c.client.deleteWalletAccounts }),
  deletePrivateKeys: createActivityPoller({ client: c.client, requestFn: c.client.deletePrivateKeys }),
});

/**
 * Awaits a poller call that must end in a FAILED activity (HTTP 200, not a request error), and
 * returns the recorded activity, whose failure message must match `reason`.
 */
async function expectFailedActivity(c: TConn, promise: Promise<unknown>, activityType: TActivity['type'], reason: RegExp): Promise<TActivity> {
  const err = await rejectionOf(promise, TurnkeyActivityError);
  expect(err.activityStatus).toBe('ACTIVITY_STATUS_FAILED');
  expect(err.activityType).toBe(activityType);
  const { activity } = await c.client.getActivity({ organizationId: c.orgId, activityId: err.activityId! });
  expect(activity.status).toBe('ACTIVITY_STATUS_FAILED');
  expect(activity.failure?.message).toMatch(reason);
  return activity;
}

interface TAccount {
  address: string;
  publicKey: string;
  path: string;
}

/** Creates a wallet; returns its id and its accounts in request order (from get_wallet_accounts). */
async function createWallet(c: TConn, accounts: TWalletAccountParams[], name = uniqueName('sign-wallet')): Promise<{ walletId: string; accounts: TAccount[] }> {
  const activity = await poll(c).createWallet({ type: 'ACTIVITY_TYPE_CREATE_WALLET', ...envelope(c), parameters: { walletName: name, accounts } });
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  const walletId = activity.result.createWalletResult?.walletId ?? '';
  const { accounts: listed } = await c.client.getWalletAccounts({ organizationId: c.orgId, walletId });
  expect(listed.map((a) => a.address)).toEqual(activity.result.createWalletResult?.addresses);
  return { walletId, accounts: listed.map((a) => ({ address: a.address, publicKey: a.publicKey ?? '', path: a.path })) };
}

interface TKey {
  privateKeyId: string;
  publicKey: string;
  /** The first address (the one format requested), '' when none was. */
  address: string;
}

async function createPrivateKey(c: TConn, curve: TCurve, addressFormats: TAddressFormat[]): Promise<TKey> {
  const activity = await poll(c).createPrivateKeys({
    type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
    ...envelope(c),
    parameters: { privateKeys: [{ privateKeyName: uniqueName(`sign-${curve}`), curve, addressFormats, privateKeyTags: [] }] },
  });
  const privateKeyId = activity.result.createPrivateKeysResultV2?.privateKeys?.[0]?.privateKeyId ?? '';
  const { privateKey } = await c.client.getPrivateKey({ organizationId: c.orgId, privateKeyId });
  return { privateKeyId, publicKey: privateKey.publicKey, address: privateKey.addresses[0]?.address ?? '' };
}

const ethAccount = (index: number): TWalletAccountParams => ({ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: ethereumPath(index), addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
const btcAccount: TWalletAccountParams = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: BITCOIN_P2WPKH_PATH, addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH' };
const solAccount = (account = 0): TWalletAccountParams => ({ curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/501'/${account}'/0'`, addressFormat: 'ADDRESS_FORMAT_SOLANA' });

async function signRaw(c: TConn, signWith: string, payload: string, encoding: TPayloadEncoding, hashFunction: THashFunction): Promise<TSignature> {
  const activity = await poll(c).signRawPayload({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', ...envelope(c), parameters: { signWith, payload, encoding, hashFunction } });
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  expect(activity.type).toBe('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2');
  expect(activity.intent.signRawPayloadIntentV2).toEqual({ signWith, payload, encoding, hashFunction });
  return activity.result.signRawPayloadResult!;
}

async function signTx(c: TConn, signWith: string, unsignedTransaction: string, type: TTransactionType): Promise<string> {
  const activity = await poll(c).signTransaction({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', ...envelope(c), parameters: { signWith, unsignedTransaction, type } });
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  const signed = activity.result.signTransactionResult?.signedTransaction ?? '';
  expect(signed).toMatch(/^[0-9a-f]+$/);
  return signed;
}

/** A fresh client-side target key pair, as the export iframe makes one. */
const newTarget = () => generateP256KeyPair();

async function decrypt(c: TConn, exportBundle: string, embeddedKey: string, opts: { mnemonic?: boolean; solana?: boolean } = {}): Promise<string> {
  return decryptExportBundle({
    exportBundle,
    embeddedKey,
    organizationId: c.orgId,
    dangerouslyOverrideSignerPublicKey: c.signerPublicKey,
    returnMnemonic: opts.mnemonic ?? false,
    ...(opts.solana ? { keyFormat: 'SOLANA' as const } : {}),
  });
}

async function exportWallet(c: TConn, walletId: string): Promise<string> {
  const target = newTarget();
  const activity = await poll(c).exportWallet({ type: 'ACTIVITY_TYPE_EXPORT_WALLET', ...envelope(c), parameters: { walletId, targetPublicKey: target.publicKeyUncompressed } });
  expect(activity.result.exportWalletResult?.walletId).toBe(walletId);
  return decrypt(c, activity.result.exportWalletResult?.exportBundle ?? '', target.privateKey, { mnemonic: true });
}

async function exportAccount(c: TConn, address: string, solana = false): Promise<string> {
  const target = newTarget();
  const activity = await poll(c).exportWalletAccount({ type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', ...envelope(c), parameters: { address, targetPublicKey: target.publicKeyUncompressed } });
  expect(activity.result.exportWalletAccountResult?.address).toBe(address);
  return decrypt(c, activity.result.exportWalletAccountResult?.exportBundle ?? '', target.privateKey, { solana });
}

async function exportKey(c: TConn, privateKeyId: string, opts: { solana?: boolean; compressedTarget?: boolean } = {}): Promise<string> {
  const target = newTarget();
  const targetPublicKey = opts.compressedTarget ? target.publicKey : target.publicKeyUncompressed;
  const activity = await poll(c).exportPrivateKey({ type: 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', ...envelope(c), parameters: { privateKeyId, targetPublicKey } });
  expect(activity.result.exportPrivateKeyResult?.privateKeyId).toBe(privateKeyId);
  return decrypt(c, activity.result.exportPrivateKeyResult?.exportBundle ?? '', target.privateKey, { solana: opts.solana ?? false });
}

async function initImport(c: TConn, kind: 'wallet' | 'privateKey'): Promise<string> {
  if (kind === 'wallet') {
    const activity = await poll(c).initImportWallet({ type: 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', ...envelope(c), parameters: { userId: c.userId } });
    return activity.result.initImportWalletResult?.importBundle ?? '';
  }
  const activity = await poll(c).initImportPrivateKey({ type: 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY', ...envelope(c), parameters: { userId: c.userId } });
  return activity.result.initImportPrivateKeyResult?.importBundle ?? '';
}

const encryptMnemonic = (c: TConn, mnemonic: string, importBundle: string) =>
  encryptWalletToBundle({ mnemonic, importBundle, userId: c.userId, organizationId: c.orgId, dangerouslyOverrideSignerPublicKey: c.signerPublicKey });

const encryptKey = (c: TConn, privateKey: string, keyFormat: 'HEXADECIMAL' | 'SOLANA', importBundle: string) =>
  encryptPrivateKeyToBundle({ privateKey, keyFormat, importBundle, userId: c.userId, organizationId: c.orgId, dangerouslyOverrideSignerPublicKey: c.signerPublicKey });

async function importWallet(c: TConn, mnemonic: string, accounts: TWalletAccountParams[]): Promise<{ walletId: string; addresses: string[] }> {
  const encryptedBundle = await encryptMnemonic(c, mnemonic, await initImport(c, 'wallet'));
  const activity = await poll(c).importWallet({ type: 'ACTIVITY_TYPE_IMPORT_WALLET', ...envelope(c), parameters: { userId: c.userId, walletName: uniqueName('imported'), encryptedBundle, accounts } });
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  return { walletId: activity.result.importWalletResult?.walletId ?? '', addresses: activity.result.importWalletResult?.addresses ?? [] };
}

async function importKey(c: TConn, privateKey: string, keyFormat: 'HEXADECIMAL' | 'SOLANA', curve: TCurve, addressFormats: TAddressFormat[]): Promise<TKey> {
  const encryptedBundle = await encryptKey(c, privateKey, keyFormat, await initImport(c, 'privateKey'));
  const activity = await poll(c).importPrivateKey({
    type: 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY',
    ...envelope(c),
    parameters: { userId: c.userId, privateKeyName: uniqueName('imported-key'), encryptedBundle, curve, addressFormats },
  });
  expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  const privateKeyId = activity.result.importPrivateKeyResult?.privateKeyId ?? '';
  const { privateKey: key } = await c.client.getPrivateKey({ organizationId: c.orgId, privateKeyId });
  expect(key.addresses).toEqual(activity.result.importPrivateKeyResult?.addresses);
  return { privateKeyId, publicKey: key.publicKey, address: key.addresses[0]?.address ?? '' };
}

// ---------------------------------------------------------------------------------------------
// The main server and the signers every signing test uses.
// ---------------------------------------------------------------------------------------------

let lk: TLatchkey;
let c: TConn;
/** A secp256k1 wallet: an Ethereum account and a Bitcoin P2WPKH account. */
let evm: { walletId: string; eth: TAccount; btc: TAccount };
/** An ed25519 wallet with a Solana account. */
let sol: { walletId: string; account: TAccount };
let secpKey: TKey;
let p256Key: TKey;
let edKey: TKey;

beforeAll(async () => {
  lk = await startLatchkey({ timeoutMs: 110_000 });
  c = await connect(lk);
  const w = await createWallet(c, [ethAccount(0), btcAccount]);
  evm = { walletId: w.walletId, eth: w.accounts[0]!, btc: w.accounts[1]! };
  const s = await createWallet(c, [solAccount()]);
  sol = { walletId: s.walletId, account: s.accounts[0]! };
  secpKey = await createPrivateKey(c, 'CURVE_SECP256K1', ['ADDRESS_FORMAT_ETHEREUM']);
  p256Key = await createPrivateKey(c, 'CURVE_P256', ['ADDRESS_FORMAT_COMPRESSED']);
  edKey = await createPrivateKey(c, 'CURVE_ED25519', ['ADDRESS_FORMAT_SOLANA']);
}, 180_000);

afterAll(async () => {
  await lk?.stop();
});

describe('the signers', () => {
  it('have the addresses their public keys give, by independent encoders', () => {
    expect(evm.eth.address).toBe(computeAddress(`0x${evm.eth.publicKey}`));
    expect(evm.btc.address).toBe(payments.p2wpkh({ pubkey: unhex(evm.btc.publicKey), network: networks.bitcoin }).address);
    expect(sol.account.address).toBe(new PublicKey(unhex(sol.account.publicKey)).toBase58());
    expect(secpKey.address).toBe(computeAddress(`0x${secpKey.publicKey}`));
    expect(p256Key.address).toBe(p256Key.publicKey);
    expect(edKey.address).toBe(new PublicKey(unhex(edKey.publicKey)).toBase58());
  });
});

// ---------------------------------------------------------------------------------------------
// (1) sign_raw_payload and sign_raw_payloads.
// ---------------------------------------------------------------------------------------------

type TSignWithKind = 'wallet account address' | 'private key id' | 'private key address';
const SIGN_WITH_KINDS: readonly TSignWithKind[] = ['wallet account address', 'private key id', 'private key address'];

describe('sign_raw_payload on secp256k1 (recovered with ethers)', () => {
  /** `signWith` of each kind, and the Ethereum address its signatures must recover to. */
  const signer = (kind: TSignWithKind): { signWith: string; address: string } => {
    switch (kind) {
      case 'wallet account address':
        return { signWith: evm.eth.address, address: evm.eth.address };
      case 'private key id':
        return { signWith: secpKey.privateKeyId, address: secpKey.address };
      case 'private key address':
        return { signWith: secpKey.address, address: secpKey.address };
    }
  };

  it.each(SIGN_WITH_KINDS)('signWith = %s: HEXADECIMAL + KECCAK256, TEXT_UTF8 + SHA256, HEXADECIMAL + NO_OP', async (kind) => {
    const { signWith, address } = signer(kind);

    const bytes = randomBytes(45);
    const keccakSig = expectSignatureShape(await signRaw(c, signWith, hex(bytes), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256'), 'CURVE_SECP256K1');
    expect(recoveredAddress(keccak(bytes), keccakSig)).toBe(address);

    const text = `Latchkey ✓ ${kind} ${Date.now()}`;
    const shaSig = expectSignatureShape(await signRaw(c, signWith, text, 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256'), 'CURVE_SECP256K1');
    expect(recoveredAddress(sha256(Buffer.from(text, 'utf8')), shaSig)).toBe(address);
    // The hash function asked for is the one applied: the other digest recovers someone else.
    expect(recoveredAddress(keccak(Buffer.from(text, 'utf8')), shaSig)).not.toBe(address);

    const digest = randomBytes(32);
    const noOpSig = expectSignatureShape(await signRaw(c, signWith, `0x${hex(digest)}`, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP'), 'CURVE_SECP256K1');
    expect(recoveredAddress(digest, noOpSig)).toBe(address);
  });

  it('answers through @turnkey/sdk-server too, with the same signature as the http client (RFC 6979)', async () => {
    const payload = hex(randomBytes(32));
    const res = await c.sdk.signRawPayload({ signWith: evm.eth.address, payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const sig = expectSignatureShape({ r: res.r, s: res.s, v: res.v }, 'CURVE_SECP256K1');
    expect(recoveredAddress(unhex(payload), sig)).toBe(evm.eth.address);
    expect(await signRaw(c, evm.eth.address, payload, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP')).toEqual(sig);
  });
});

describe('sign_raw_payload on P-256 (verified with noble over the requested digest)', () => {
  it.each(['private key id', 'private key address'] as const)('signWith = %s: SHA256, KECCAK256 and NO_OP', async (kind) => {
    const signWith = kind === 'private key id' ? p256Key.privateKeyId : p256Key.address;
    const publicKey = unhex(p256Key.publicKey);
    const verify = (sig: TSignature, digest: Uint8Array) => p256.verify(compact(sig), digest, publicKey, { prehash: false });

    const text = `p-256 ${kind} ${Date.now()}`;
    const utf8 = Buffer.from(text, 'utf8');
    const shaSig = expectSignatureShape(await signRaw(c, signWith, text, 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256'), 'CURVE_P256');
    expect(verify(shaSig, sha256(utf8))).toBe(true);
    expect(verify(shaSig, keccak(utf8))).toBe(false);

    const bytes = randomBytes(77);
    const keccakSig = expectSignatureShape(await signRaw(c, signWith, hex(bytes), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256'), 'CURVE_P256');
    expect(verify(keccakSig, keccak(bytes))).toBe(true);
    expect(verify(keccakSig, sha256(bytes))).toBe(false);

    const digest = randomBytes(32);
    const noOpSig = expectSignatureShape(await signRaw(c, signWith, hex(digest), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP'), 'CURVE_P256');
    expect(verify(noOpSig, digest)).toBe(true);
  });
});

describe('sign_raw_payload on ed25519 (verified with noble, RFC 8032)', () => {
  const signers = () =>
    ({
      'wallet account address (SOLANA account of an ed25519 wallet)': { signWith: sol.account.address, publicKey: sol.account.publicKey },
      'private key id': { signWith: edKey.privateKeyId, publicKey: edKey.publicKey },
      'private key address': { signWith: edKey.address, publicKey: edKey.publicKey },
    }) as const;

  it.each(['wallet account address (SOLANA account of an ed25519 wallet)', 'private key id', 'private key address'] as const)(
    'signWith = %s: TEXT_UTF8 and HEXADECIMAL with NOT_APPLICABLE',
    async (kind) => {
      const { signWith, publicKey } = signers()[kind];
      const text = `ed25519 ${kind} ${Date.now()}`;
      const textSig = expectSignatureShape(await signRaw(c, signWith, text, 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_NOT_APPLICABLE'), 'CURVE_ED25519');
      expect(ed25519.verify(compact(textSig), Buffer.from(text, 'utf8'), unhex(publicKey))).toBe(true);

      const bytes = randomBytes(200);
      const bytesSig = expectSignatureShape(await signRaw(c, signWith, hex(bytes), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NOT_APPLICABLE'), 'CURVE_ED25519');
      expect(ed25519.verify(compact(bytesSig), bytes, unhex(publicKey))).toBe(true);
      expect(ed25519.verify(compact(bytesSig), sha256(bytes), unhex(publicKey))).toBe(false);
    },
  );
});

describe('sign_raw_payload with Ethereum encodings', () => {
  const domain = { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' };
  const types: Record<string, TypedDataField[]> = {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'nonce', type: 'uint256' },
    ],
  };
  const mail = {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: [{ name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' }],
    contents: 'Hello, Bob!',
    nonce: 7n,
  };
  /** The payload `@turnkey/ethers` sends for signTypedData: ethers' full EIP-712 payload as JSON. */
  const typedDataPayload = () => JSON.stringify(TypedDataEncoder.getPayload(domain, types, mail));

  it.each(['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_KECCAK256'] as const)('EIP712 with %s verifies with ethers verifyTypedData, for an account and a private key', async (hashFunction) => {
    for (const { signWith, address } of [
      { signWith: evm.eth.address, address: evm.eth.address },
      { signWith: secpKey.privateKeyId, address: secpKey.address },
    ]) {
      const sig = expectSignatureShape(await signRaw(c, signWith, typedDataPayload(), 'PAYLOAD_ENCODING_EIP712', hashFunction), 'CURVE_SECP256K1');
      expect(verifyTypedData(domain, types, mail, ethersSignature(sig))).toBe(address);
      expect(verifyTypedData(domain, types, { ...mail, nonce: 8n }, ethersSignature(sig))).not.toBe(address);
    }
  });

  it('EIP7702_AUTHORIZATION verifies with ethers verifyAuthorization', async () => {
    const auth = { chainId: 1, address: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B', nonce: 5 };
    const sig = expectSignatureShape(await signRaw(c, evm.eth.address, JSON.stringify(auth), 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_NO_OP'), 'CURVE_SECP256K1');
    expect(verifyAuthorization({ address: auth.address, chainId: BigInt(auth.chainId), nonce: BigInt(auth.nonce) }, ethersSignature(sig))).toBe(evm.eth.address);
  });
});

describe('sign_raw_payloads', () => {
  it('signs every payload in order with one key (http client, secp256k1 account)', async () => {
    const payloads = [randomBytes(10), randomBytes(32), randomBytes(100)];
    const activity = await poll(c).signRawPayloads({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
      ...envelope(c),
      parameters: { signWith: evm.eth.address, payloads: payloads.map(hex), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' },
    });
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.type).toBe('ACTIVITY_TYPE_SIGN_RAW_PAYLOADS');
    const signatures = activity.result.signRawPayloadsResult?.signatures ?? [];
    expect(signatures).toHaveLength(payloads.length);
    signatures.forEach((sig, i) => expect(recoveredAddress(keccak(payloads[i]!), expectSignatureShape(sig, 'CURVE_SECP256K1'))).toBe(evm.eth.address));
  });

  it('signs ed25519 payloads through @turnkey/sdk-server', async () => {
    const texts = ['one', 'two ✓', 'three'];
    const res = await c.sdk.signRawPayloads({ signWith: edKey.privateKeyId, payloads: texts, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(res.signatures).toHaveLength(3);
    texts.forEach((t, i) => {
      const sig = expectSignatureShape(res.signatures?.[i], 'CURVE_ED25519');
      expect(ed25519.verify(compact(sig), Buffer.from(t, 'utf8'), unhex(edKey.publicKey))).toBe(true);
    });
  });

  it('fails the whole activity when one payload cannot be signed', async () => {
    await expectFailedActivity(
      c,
      poll(c).signRawPayloads({
        type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
        ...envelope(c),
        parameters: { signWith: evm.eth.address, payloads: [hex(randomBytes(32)), hex(randomBytes(31))], encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' },
      }),
      'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
      /32 bytes/,
    );
  });
});

describe('sign_raw_payload refusals (FAILED activities)', () => {
  const failRaw = (signWith: string, payload: string, encoding: TPayloadEncoding, hashFunction: THashFunction, reason: RegExp) =>
    expectFailedActivity(
      c,
      poll(c).signRawPayload({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', ...envelope(c), parameters: { signWith, payload, encoding, hashFunction } }),
      'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      reason,
    );

  it('a hash function the curve cannot use', async () => {
    await failRaw(sol.account.address, 'hi', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256', /NOT_APPLICABLE/);
    await failRaw(evm.eth.address, 'hi', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_NOT_APPLICABLE', /NOT_APPLICABLE/);
    await failRaw(p256Key.privateKeyId, 'hi', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_NOT_APPLICABLE', /NOT_APPLICABLE/);
  });

  it('a NO_OP payload that is not a 32-byte digest, and an Ethereum encoding on another curve', async () => {
    await failRaw(evm.eth.address, hex(randomBytes(33)), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP', /32 bytes/);
    await failRaw(p256Key.privateKeyId, '{"types":{},"primaryType":"EIP712Domain","domain":{}}', 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NO_OP', /SECP256K1/);
  });

  it('a signWith that is neither an account address nor a private key id or address', async () => {
    await failRaw('0x0000000000000000000000000000000000000001', 'hi', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256', /nothing to sign with/);
    await failRaw('01a00000-0000-7000-8000-000000000000', 'hi', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256', /nothing to sign with/);
  });
});

// ---------------------------------------------------------------------------------------------
// (2) sign_transaction.
// ---------------------------------------------------------------------------------------------

describe('sign_transaction TRANSACTION_TYPE_ETHEREUM (decoded with ethers)', () => {
  const base: TransactionLike = {
    chainId: 1n,
    nonce: 7,
    gasLimit: 21_000n,
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: parseEther('0.0123'),
    data: '0xdeadbeef',
  };
  const cases: Array<[string, TransactionLike]> = [
    ['legacy (EIP-155)', { ...base, type: 0, gasPrice: parseUnits('20', 'gwei') }],
    ['EIP-2930', { ...base, type: 1, gasPrice: parseUnits('21', 'gwei'), accessList: [{ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', storageKeys: [`0x${'00'.repeat(31)}01`] }] }],
    ['EIP-1559', { ...base, type: 2, maxFeePerGas: parseUnits('30', 'gwei'), maxPriorityFeePerGas: parseUnits('2', 'gwei') }],
  ];

  it.each(cases)('%s, signed by a wallet account: the sender is the account and nothing else changed', async (_name, fields) => {
    const unsigned = EthTransaction.from(fields);
    const signedHex = await signTx(c, evm.eth.address, unsigned.unsignedSerialized.slice(2), 'TRANSACTION_TYPE_ETHEREUM');
    const signed = EthTransaction.from(`0x${signedHex}`);
    expect(signed.isSigned()).toBe(true);
    expect(signed.from).toBe(evm.eth.address);
    expect(signed.type).toBe(unsigned.type);
    expect(signed.unsignedSerialized).toBe(unsigned.unsignedSerialized);
  });

  it('EIP-1559 signed by a private key id, through @turnkey/sdk-server', async () => {
    const unsigned = EthTransaction.from(cases[2]![1]);
    const res = await c.sdk.signTransaction({ signWith: secpKey.privateKeyId, unsignedTransaction: unsigned.unsignedSerialized.slice(2), type: 'TRANSACTION_TYPE_ETHEREUM' });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const signed = EthTransaction.from(`0x${res.signedTransaction}`);
    expect(signed.from).toBe(secpKey.address);
    expect(signed.unsignedSerialized).toBe(unsigned.unsignedSerialized);
  });

  it('records malformed RLP and a key on the wrong curve as FAILED activities', async () => {
    const sign = (signWith: string, unsignedTransaction: string) =>
      poll(c).signTransaction({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', ...envelope(c), parameters: { signWith, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' } });
    await expectFailedActivity(c, sign(evm.eth.address, 'c0ffee'), 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', /RLP/);
    await expectFailedActivity(c, sign(evm.eth.address, 'zz'), 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', /hexadecimal/);
    const ok = EthTransaction.from(cases[2]![1]).unsignedSerialized.slice(2);
    await expectFailedActivity(c, sign(sol.account.address, ok), 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', /SECP256K1/);
  });
});

describe('sign_transaction TRANSACTION_TYPE_SOLANA (checked with @solana/web3.js verifySignatures)', () => {
  const blockhash = () => Keypair.generate().publicKey.toBase58();

  it.each(['wallet account address', 'private key id', 'private key address'] as const)('a transfer whose only signer is the fee payer; signWith = %s', async (kind) => {
    const owner = kind === 'wallet account address' ? sol.account.address : edKey.address;
    const signWith = kind === 'private key id' ? edKey.privateKeyId : owner;
    const from = new PublicKey(owner);
    const tx = new SolanaTransaction({ feePayer: from, recentBlockhash: blockhash() }).add(
      SystemProgram.transfer({ fromPubkey: from, toPubkey: Keypair.generate().publicKey, lamports: 12_345 }),
    );
    const unsigned = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
    const signed = SolanaTransaction.from(Buffer.from(await signTx(c, signWith, unsigned.toString('hex'), 'TRANSACTION_TYPE_SOLANA'), 'hex'));
    expect(signed.verifySignatures()).toBe(true);
    expect(signed.signatures.map((s) => s.publicKey.toBase58())).toEqual([owner]);
    expect(signed.serializeMessage().equals(tx.serializeMessage())).toBe(true);
  });

  it('fills its own slot and keeps another signer’s signature (fee payer signed first, locally)', async () => {
    const feePayer = Keypair.generate();
    const from = new PublicKey(sol.account.address);
    const tx = new SolanaTransaction({ feePayer: feePayer.publicKey, recentBlockhash: blockhash() }).add(
      SystemProgram.transfer({ fromPubkey: from, toPubkey: Keypair.generate().publicKey, lamports: 1 }),
    );
    tx.partialSign(feePayer);
    const feePayerSig = Buffer.from(tx.signatures[0]!.signature!);
    expect(tx.verifySignatures()).toBe(false);
    const unsigned = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('hex');
    const signed = SolanaTransaction.from(Buffer.from(await signTx(c, sol.account.address, unsigned, 'TRANSACTION_TYPE_SOLANA'), 'hex'));
    expect(signed.verifySignatures()).toBe(true);
    expect(signed.signatures.map((s) => s.publicKey.toBase58())).toEqual([feePayer.publicKey.toBase58(), sol.account.address]);
    expect(Buffer.from(signed.signatures[0]!.signature!).equals(feePayerSig)).toBe(true);
  });

  it('records bytes that are not a transaction, and a transaction the key is not a signer of, as FAILED', async () => {
    const sign = (unsignedTransaction: string) =>
      poll(c).signTransaction({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', ...envelope(c), parameters: { signWith: sol.account.address, unsignedTransaction, type: 'TRANSACTION_TYPE_SOLANA' } });
    await expectFailedActivity(c, sign('0102'), 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', /invalid Solana transaction/);
    const stranger = Keypair.generate();
    const foreign = new SolanaTransaction({ feePayer: stranger.publicKey, recentBlockhash: blockhash() }).add(
      SystemProgram.transfer({ fromPubkey: stranger.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 }),
    );
    await expectFailedActivity(c, sign(foreign.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('hex')), 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', /not one of the transaction's .*signer/);
  });
});

describe('sign_transaction TRANSACTION_TYPE_BITCOIN (PSBT finalized and validated with bitcoinjs-lib)', () => {
  /** A PSBT spending one P2WPKH output of the account's key (an invented previous output). */
  function psbtSpendingAccount(value = 100_000n): Psbt {
    const pubkey = unhex(evm.btc.publicKey);
    const psbt = new Psbt({ network: networks.bitcoin });
    psbt.addInput({ hash: hex(randomBytes(32)), index: 1, witnessUtxo: { script: payments.p2wpkh({ pubkey, network: networks.bitcoin }).output!, value } });
    const to = payments.p2wpkh({ pubkey: secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true), network: networks.bitcoin }).address!;
    psbt.addOutput({ address: to, value: value - 1_000n });
    return psbt;
  }

  const validator = (pubkey: Uint8Array, msghash: Uint8Array, signature: Uint8Array): boolean => ecc.verify(msghash, pubkey, signature);

  it.each(['hex', 'base64'] as const)('a %s PSBT comes back signed (not finalized); it validates, finalizes and extracts', async (encoding) => {
    const psbt = psbtSpendingAccount();
    const unsigned = encoding === 'hex' ? psbt.toHex() : psbt.toBase64();
    const signedHex = await signTx(c, evm.btc.address, unsigned, 'TRANSACTION_TYPE_BITCOIN');
    const signed = Psbt.fromHex(signedHex, { network: networks.bitcoin });
    expect(signed.data.inputs[0]?.partialSig?.map((p) => hex(p.pubkey))).toEqual([evm.btc.publicKey]);
    expect(signed.validateSignaturesOfInput(0, validator, unhex(evm.btc.publicKey))).toBe(true);
    signed.finalizeAllInputs();
    const tx = signed.extractTransaction();
    expect(tx.ins[0]?.witness.map((w) => hex(w))[1]).toBe(evm.btc.publicKey);
    // Inputs and outputs are those of the unsigned PSBT.
    expect(tx.ins.map((i) => [hex(i.hash), i.index])).toEqual(psbt.txInputs.map((i) => [hex(i.hash), i.index]));
    expect(tx.outs.map((o) => [hex(o.script), o.value])).toEqual(psbt.txOutputs.map((o) => [hex(o.script), o.value]));
  });

  it('records a non-PSBT and a PSBT with no input of the key as FAILED activities', async () => {
    const sign = (signWith: string, unsignedTransaction: string) =>
      poll(c).signTransaction({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', ...envelope(c), parameters: { signWith, unsignedTransaction, type: 'TRANSACTION_TYPE_BITCOIN' } });
    await expectFailedActivity(c, sign(evm.btc.address, 'deadbeef'), 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', /PSBT/);
    // The Ethereum account is another key of the same wallet: none of the PSBT's inputs are its.
    await expectFailedActivity(c, sign(evm.eth.address, psbtSpendingAccount().toHex()), 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', /no unfinalized input .* this key/);
  });
});

// ---------------------------------------------------------------------------------------------
// (3) Export.
// ---------------------------------------------------------------------------------------------

describe('export_wallet', () => {
  it('gives a mnemonic whose derived accounts are the wallet’s (ethers BIP-32, SLIP-0010); the wallet is then exported', async () => {
    const { walletId, accounts } = await createWallet(c, [ethAccount(0), ethAccount(3), solAccount(0)]);
    const { wallet: before } = await c.client.getWallet({ organizationId: c.orgId, walletId });
    expect(before.exported).toBe(false);

    const mnemonic = await exportWallet(c, walletId);
    expect(mnemonic.split(' ')).toHaveLength(12);
    expect(ethAddressOfMnemonic(mnemonic, ethereumPath(0))).toBe(accounts[0]!.address);
    expect(ethAddressOfMnemonic(mnemonic, ethereumPath(3))).toBe(accounts[1]!.address);
    expect(solanaAddressOfMnemonic(mnemonic, ED25519_SOLANA_PATH)).toBe(accounts[2]!.address);

    const { wallet } = await c.client.getWallet({ organizationId: c.orgId, walletId });
    expect(wallet).toEqual({ ...before, exported: true, updatedAt: expect.anything() });
  });

  it('an exported wallet is deleted without deleteWithoutExport; a never-exported one is not', async () => {
    const exported = await createWallet(c, [ethAccount(0)]);
    const kept = await createWallet(c, [ethAccount(0)]);
    await exportWallet(c, exported.walletId);
    const deleted = await poll(c).deleteWallets({ type: 'ACTIVITY_TYPE_DELETE_WALLETS', ...envelope(c), parameters: { walletIds: [exported.walletId] } });
    expect(deleted.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(deleted.result.deleteWalletsResult?.walletIds).toEqual([exported.walletId]);
    await expectFailedActivity(
      c,
      poll(c).deleteWallets({ type: 'ACTIVITY_TYPE_DELETE_WALLETS', ...envelope(c), parameters: { walletIds: [kept.walletId] } }),
      'ACTIVITY_TYPE_DELETE_WALLETS',
      /export/i,
    );
  });

  it('through @turnkey/sdk-server; the bundle is signed by the published signer key, and without the override @turnkey/crypto rejects it', async () => {
    const { walletId, accounts } = await createWallet(c, [ethAccount(0)]);
    const target = newTarget();
    const res = await c.sdk.exportWallet({ walletId, targetPublicKey: target.publicKeyUncompressed });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const envelopeJson = JSON.parse(res.exportBundle) as { version: string; data: string; enclaveQuorumPublic: string };
    expect(envelopeJson.version).toBe('v1.0.0');
    expect(envelopeJson.enclaveQuorumPublic).toBe(c.signerPublicKey);
    expect(JSON.parse(Buffer.from(envelopeJson.data, 'hex').toString('utf8'))).toEqual({ encappedPublic: expect.stringMatching(/^04[0-9a-f]{128}$/), ciphertext: expect.stringMatching(/^[0-9a-f]+$/), organizationId: c.orgId });

    // Turnkey's production signer key is the default: a self-hosted bundle must not pass it.
    const noOverride = decryptExportBundle({ exportBundle: res.exportBundle, embeddedKey: target.privateKey, organizationId: c.orgId, returnMnemonic: true });
    await expect(noOverride).rejects.toThrow(/signer key/i);
    // Another organization id is refused by the client too.
    await expect(
      decryptExportBundle({ exportBundle: res.exportBundle, embeddedKey: target.privateKey, organizationId: '01a00000-0000-7000-8000-000000000000', dangerouslyOverrideSignerPublicKey: c.signerPublicKey, returnMnemonic: true }),
    ).rejects.toThrow(/organization id/i);
    // Another embedded key cannot open it.
    await expect(decrypt(c, res.exportBundle, newTarget().privateKey, { mnemonic: true })).rejects.toThrow();

    const mnemonic = await decrypt(c, res.exportBundle, target.privateKey, { mnemonic: true });
    expect(ethAddressOfMnemonic(mnemonic, ethereumPath(0))).toBe(accounts[0]!.address);
  });

  it('records an unknown wallet as a FAILED activity', async () => {
    await expectFailedActivity(
      c,
      poll(c).exportWallet({ type: 'ACTIVITY_TYPE_EXPORT_WALLET', ...envelope(c), parameters: { walletId: '01a00000-0000-7000-8000-000000000000', targetPublicKey: newTarget().publicKeyUncompressed } }),
      'ACTIVITY_TYPE_EXPORT_WALLET',
      /not found/i,
    );
  });
});

describe('export_wallet_account', () => {
  it('gives the account’s private key: ethers derives its address (secp256k1), tweetnacl its Solana key (keyFormat SOLANA)', async () => {
    const { walletId, accounts } = await createWallet(c, [ethAccount(0), ethAccount(1), solAccount(0)]);
    const [eth0, eth1, solana] = accounts as [TAccount, TAccount, TAccount];

    const ethKey = await exportAccount(c, eth0.address);
    expect(ethKey).toMatch(/^[0-9a-f]{64}$/);
    expect(new Wallet(`0x${ethKey}`).address).toBe(eth0.address);
    expect(SigningKey.computePublicKey(`0x${ethKey}`, true)).toBe(`0x${eth0.publicKey}`);

    const solanaSecret = await exportAccount(c, solana.address, true);
    const keypair = Keypair.fromSecretKey(base58.decode(solanaSecret));
    expect(keypair.publicKey.toBase58()).toBe(solana.address);

    // Exporting an account is not exporting the wallet: the seed did not leave.
    const { wallet } = await c.client.getWallet({ organizationId: c.orgId, walletId });
    expect(wallet.exported).toBe(false);

    // The exported accounts can be deleted without deleteWithoutExport, the other one cannot.
    const { accounts: listed } = await c.client.getWalletAccounts({ organizationId: c.orgId, walletId });
    const idOf = (address: string) => listed.find((a) => a.address === address)!.walletAccountId;
    const deleteAccounts = (walletAccountIds: string[]) =>
      poll(c).deleteWalletAccounts({ type: 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', ...envelope(c), parameters: { walletAccountIds } });
    await expectFailedActivity(c, deleteAccounts([idOf(eth1.address)]), 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', /export/i);
    const deleted = await deleteAccounts([idOf(eth0.address), idOf(solana.address)]);
    expect(deleted.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const { accounts: left } = await c.client.getWalletAccounts({ organizationId: c.orgId, walletId });
    expect(left.map((a) => a.address)).toEqual([eth1.address]);
  });

  it('records an unknown address as a FAILED activity', async () => {
    await expectFailedActivity(
      c,
      poll(c).exportWalletAccount({
        type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
        ...envelope(c),
        parameters: { address: '0x0000000000000000000000000000000000000002', targetPublicKey: newTarget().publicKeyUncompressed },
      }),
      'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
      /not found/i,
    );
  });
});

describe('export_private_key', () => {
  it('secp256k1: the key derives the key’s public key and Ethereum address; get_private_key shows exported', async () => {
    const key = await createPrivateKey(c, 'CURVE_SECP256K1', ['ADDRESS_FORMAT_ETHEREUM']);
    const privateKeyHex = await exportKey(c, key.privateKeyId);
    expect(privateKeyHex).toMatch(/^[0-9a-f]{64}$/);
    expect(computeAddress(`0x${privateKeyHex}`)).toBe(key.address);
    expect(SigningKey.computePublicKey(`0x${privateKeyHex}`, true)).toBe(`0x${key.publicKey}`);
    const { privateKey } = await c.client.getPrivateKey({ organizationId: c.orgId, privateKeyId: key.privateKeyId });
    expect(privateKey.exported).toBe(true);
    expect(privateKey.imported).toBe(false);
  });

  it('P-256, to a compressed target key: OpenSSL derives the key’s public key', async () => {
    const key = await createPrivateKey(c, 'CURVE_P256', []);
    const privateKeyHex = await exportKey(c, key.privateKeyId, { compressedTarget: true });
    expect(p256PublicKeyOf(privateKeyHex)).toBe(key.publicKey);
  });

  it('ed25519 with keyFormat SOLANA: the keypair is the key’s', async () => {
    const key = await createPrivateKey(c, 'CURVE_ED25519', ['ADDRESS_FORMAT_SOLANA']);
    const keypair = Keypair.fromSecretKey(base58.decode(await exportKey(c, key.privateKeyId, { solana: true })));
    expect(keypair.publicKey.toBase58()).toBe(key.address);
    expect(hex(keypair.publicKey.toBytes())).toBe(key.publicKey);
  });

  it('an exported key is deleted without deleteWithoutExport; a never-exported one is not', async () => {
    const exported = await createPrivateKey(c, 'CURVE_SECP256K1', []);
    const kept = await createPrivateKey(c, 'CURVE_SECP256K1', []);
    const res = await c.sdk.exportPrivateKey({ privateKeyId: exported.privateKeyId, targetPublicKey: newTarget().publicKeyUncompressed });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(res.privateKeyId).toBe(exported.privateKeyId);
    const deleted = await poll(c).deletePrivateKeys({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', ...envelope(c), parameters: { privateKeyIds: [exported.privateKeyId] } });
    expect(deleted.result.deletePrivateKeysResult?.privateKeyIds).toEqual([exported.privateKeyId]);
    await expectFailedActivity(
      c,
      poll(c).deletePrivateKeys({ type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', ...envelope(c), parameters: { privateKeyIds: [kept.privateKeyId] } }),
      'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS',
      /export/i,
    );
  });

  it('records an unknown key and an invalid target key as FAILED activities, exporting nothing', async () => {
    const exportTo = (privateKeyId: string, targetPublicKey: string) =>
      poll(c).exportPrivateKey({ type: 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', ...envelope(c), parameters: { privateKeyId, targetPublicKey } });
    await expectFailedActivity(c, exportTo('01a00000-0000-7000-8000-000000000000', newTarget().publicKeyUncompressed), 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', /not found/i);
    const key = await createPrivateKey(c, 'CURVE_SECP256K1', []);
    // Not a point on P-256.
    await expectFailedActivity(c, exportTo(key.privateKeyId, `04${'11'.repeat(64)}`), 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', /not a point on P-256/);
    const { privateKey } = await c.client.getPrivateKey({ organizationId: c.orgId, privateKeyId: key.privateKeyId });
    expect(privateKey.exported).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// (4) Import.
// ---------------------------------------------------------------------------------------------

describe('import_wallet', () => {
  it('imports a known mnemonic: the accounts are ethers’ and SLIP-0010’s, the wallet is imported and signs', async () => {
    const mnemonic = generateMnemonic(english, 256);
    const accounts = [ethAccount(0), ethAccount(1), solAccount(0)];
    const importBundle = await initImport(c, 'wallet');
    const encryptedBundle = await encryptMnemonic(c, mnemonic, importBundle);
    const walletName = uniqueName('import-wallet');
    // Through @turnkey/sdk-server, as a server-side integrator imports.
    const res = await c.sdk.importWallet({ userId: c.userId, walletName, encryptedBundle, accounts });
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(res.addresses).toEqual([ethAddressOfMnemonic(mnemonic, ethereumPath(0)), ethAddressOfMnemonic(mnemonic, ethereumPath(1)), solanaAddressOfMnemonic(mnemonic, ED25519_SOLANA_PATH)]);

    const { wallet } = await c.client.getWallet({ organizationId: c.orgId, walletId: res.walletId });
    expect(wallet).toEqual(expect.objectContaining({ walletId: res.walletId, walletName, imported: true, exported: false }));

    const digest = randomBytes(32);
    const sig = await signRaw(c, res.addresses[0]!, hex(digest), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP');
    expect(recoveredAddress(digest, sig)).toBe(res.addresses[0]);

    // And it exports back to the same phrase.
    expect(await exportWallet(c, res.walletId)).toBe(mnemonic);
  });

  it('the import bundle is signed by the published signer key; without the override @turnkey/crypto rejects it', async () => {
    const importBundle = await initImport(c, 'wallet');
    const parsed = JSON.parse(importBundle) as { enclaveQuorumPublic: string; data: string };
    expect(parsed.enclaveQuorumPublic).toBe(c.signerPublicKey);
    expect(JSON.parse(Buffer.from(parsed.data, 'hex').toString('utf8'))).toEqual({ organizationId: c.orgId, userId: c.userId, targetPublic: expect.stringMatching(/^04[0-9a-f]{128}$/) });
    await expect(encryptWalletToBundle({ mnemonic: generateMnemonic(english), importBundle, userId: c.userId, organizationId: c.orgId })).rejects.toThrow(/signer key/i);
  });

  it('an import target is one-time: re-sending the bundle, or encrypting another mnemonic to it, fails', async () => {
    const importBundle = await initImport(c, 'wallet');
    const first = await encryptMnemonic(c, generateMnemonic(english), importBundle);
    const importWith = (encryptedBundle: string, walletName: string) =>
      poll(c).importWallet({ type: 'ACTIVITY_TYPE_IMPORT_WALLET', ...envelope(c), parameters: { userId: c.userId, walletName, encryptedBundle, accounts: [ethAccount(0)] } });
    const ok = await importWith(first, uniqueName('one-time'));
    expect(ok.status).toBe('ACTIVITY_STATUS_COMPLETED');

    const again = uniqueName('one-time-again');
    await expectFailedActivity(c, importWith(first, again), 'ACTIVITY_TYPE_IMPORT_WALLET', /import target|init_import_wallet/i);
    const second = await encryptMnemonic(c, generateMnemonic(english), importBundle);
    const other = uniqueName('one-time-other');
    await expectFailedActivity(c, importWith(second, other), 'ACTIVITY_TYPE_IMPORT_WALLET', /import target|init_import_wallet/i);
    const { wallets } = await c.client.getWallets({ organizationId: c.orgId });
    expect(wallets.map((w) => w.walletName)).not.toContain(again);
    expect(wallets.map((w) => w.walletName)).not.toContain(other);
  });

  it('a bundle encrypted to a private-key import target is not a wallet import', async () => {
    const encryptedBundle = await encryptMnemonic(c, generateMnemonic(english), await initImport(c, 'privateKey'));
    await expectFailedActivity(
      c,
      poll(c).importWallet({ type: 'ACTIVITY_TYPE_IMPORT_WALLET', ...envelope(c), parameters: { userId: c.userId, walletName: uniqueName('wrong-kind'), encryptedBundle, accounts: [ethAccount(0)] } }),
      'ACTIVITY_TYPE_IMPORT_WALLET',
      /import target|init_import_wallet/i,
    );
  });

  it('init_import_wallet for a user that does not exist fails', async () => {
    await expectFailedActivity(
      c,
      poll(c).initImportWallet({ type: 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', ...envelope(c), parameters: { userId: '01a00000-0000-7000-8000-000000000000' } }),
      'ACTIVITY_TYPE_INIT_IMPORT_WALLET',
      /user/i,
    );
  });
});

describe('import_private_key', () => {
  it('HEXADECIMAL secp256k1: the public key and Ethereum address are the known key’s; it signs and exports back', async () => {
    const secret = secp256k1.utils.randomSecretKey();
    const key = await importKey(c, hex(secret), 'HEXADECIMAL', 'CURVE_SECP256K1', ['ADDRESS_FORMAT_ETHEREUM']);
    const wallet = new Wallet(`0x${hex(secret)}`);
    expect(key.publicKey).toBe(SigningKey.computePublicKey(wallet.signingKey.publicKey, true).slice(2));
    expect(key.address).toBe(wallet.address);
    const { privateKey } = await c.client.getPrivateKey({ organizationId: c.orgId, privateKeyId: key.privateKeyId });
    expect(privateKey).toEqual(expect.objectContaining({ curve: 'CURVE_SECP256K1', imported: true, exported: false }));

    const text = 'imported key signs';
    const sig = await signRaw(c, key.address, text, 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_KECCAK256');
    expect(recoveredAddress(keccak(Buffer.from(text)), sig)).toBe(wallet.address);
    expect(await exportKey(c, key.privateKeyId)).toBe(hex(secret));
  });

  it('SOLANA ed25519 (a bs58 web3.js keypair): the public key and address are the keypair’s; it signs a transaction', async () => {
    const keypair = Keypair.generate();
    const key = await importKey(c, base58.encode(keypair.secretKey), 'SOLANA', 'CURVE_ED25519', ['ADDRESS_FORMAT_SOLANA']);
    expect(key.publicKey).toBe(hex(keypair.publicKey.toBytes()));
    expect(key.address).toBe(keypair.publicKey.toBase58());

    const tx = new SolanaTransaction({ feePayer: keypair.publicKey, recentBlockhash: Keypair.generate().publicKey.toBase58() }).add(
      SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5 }),
    );
    const signedHex = await signTx(c, key.address, tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('hex'), 'TRANSACTION_TYPE_SOLANA');
    // ed25519 is deterministic: the server's signature is the one the keypair itself makes.
    tx.sign(keypair);
    expect(signedHex).toBe(tx.serialize().toString('hex'));
  });

  it('an import target is one-time, and refuses a wallet-kind target', async () => {
    const importBundle = await initImport(c, 'privateKey');
    const encryptedBundle = await encryptKey(c, hex(secp256k1.utils.randomSecretKey()), 'HEXADECIMAL', importBundle);
    const importWith = (bundle: string, privateKeyName: string) =>
      poll(c).importPrivateKey({
        type: 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY',
        ...envelope(c),
        parameters: { userId: c.userId, privateKeyName, encryptedBundle: bundle, curve: 'CURVE_SECP256K1', addressFormats: [] },
      });
    expect((await importWith(encryptedBundle, uniqueName('pk-once'))).status).toBe('ACTIVITY_STATUS_COMPLETED');
    const again = uniqueName('pk-again');
    await expectFailedActivity(c, importWith(encryptedBundle, again), 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', /import target|init_import_private_key/i);

    const walletKind = await encryptKey(c, hex(secp256k1.utils.randomSecretKey()), 'HEXADECIMAL', await initImport(c, 'wallet'));
    const wrongKind = uniqueName('pk-wrong-kind');
    await expectFailedActivity(c, importWith(walletKind, wrongKind), 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', /import target|init_import_private_key/i);
    const { privateKeys } = await c.client.getPrivateKeys({ organizationId: c.orgId });
    expect(privateKeys.map((k) => k.privateKeyName)).not.toContain(again);
    expect(privateKeys.map((k) => k.privateKeyName)).not.toContain(wrongKind);
  });
});

// ---------------------------------------------------------------------------------------------
// (5) Secrets scan: nothing secret in the database or the trace-level logs.
// ---------------------------------------------------------------------------------------------

/**
 * Enables the auth proxy with the root key, has the proxy forward an init_otp (so it fetches its
 * key sealed, opens it and stamps with it), and returns that key, opened here the way the proxy
 * opens it (the master key in the data folder): the secret the scan then looks for.
 */
async function useAuthProxy(lk: TLatchkey): Promise<{ privateKey: string; publicKey: string }> {
  const b = lk.bootstrap;
  const body = JSON.stringify({ type: 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY', timestampMs: String(Date.now()), organizationId: b.organizationId, parameters: {} });
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: b.apiPublicKey, apiPrivateKey: b.apiPrivateKey! }).stamp(body);
  const enabled = await fetch(`${lk.baseUrl}/public/v1/submit/enable_auth_proxy`, { method: 'POST', headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue }, body });
  expect(enabled.status).toBe(200);
  const { configId } = ((await enabled.json()) as { activity: { result: { enableAuthProxyResult: { configId: string } } } }).activity.result.enableAuthProxyResult;
  const forwarded = await fetch(`${lk.authProxyUrl}/v1/otp_init_v2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': configId },
    body: JSON.stringify({ otpType: 'OTP_TYPE_EMAIL', contact: 'scan@example.com' }),
  });
  expect(forwarded.status).toBe(200);
  expect(((await forwarded.json()) as { otpId?: string }).otpId).toBeTruthy();

  const db = new pg.Client({ connectionString: await lk.databaseUrl() });
  await db.connect();
  try {
    const row = (
      await db.query<{ sealed: string; public_key: string }>(
        'SELECT c.sealed_proxy_private_key AS sealed, k.public_key FROM auth_proxy_configs c JOIN api_keys k ON k.id = c.proxy_api_key_id WHERE c.id = $1',
        [configId],
      )
    ).rows[0]!;
    const vault = createKeyVault(parseMasterKey(await readFile(join(lk.dataDir, 'master.key'), 'utf8')));
    const privateKey = Buffer.from(vault.open(row.sealed, authProxyKeyAad(configId))).toString('hex');
    // It is the real key: its public half is the proxy user's API key.
    expect(Buffer.from(p256.getPublicKey(Buffer.from(privateKey, 'hex'), true)).toString('hex')).toBe(row.public_key);
    return { privateKey, publicKey: row.public_key };
  } finally {
    await db.end();
  }
}

/**
 * Imports an opaque secret (issue 16 §6: init_import_secrets, import_secrets), exports it back and
 * checks it; returns its forms for the scan: the text, its UTF-8 hex and base64.
 */
async function roundTripOpaqueSecret(c: TConn): Promise<TSecret[]> {
  const suite = 'TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1' as const;
  const value = `opaque-${randomBytes(16).toString('hex')}-token`;
  const init = await c.client.initImportSecrets({ type: 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS', ...envelope(c), parameters: { encryptionSuite: suite, numSecrets: 1 } });
  const target = init.activity.result.initImportSecretsResult!.enclaveTargetMessages[0]!;
  const sealed = await encryptSecretToBundle({ plaintext: value, ingressTargetBundle: target, organizationId: c.orgId, dangerouslyOverrideSignerPublicKey: c.signerPublicKey });
  const { secretIds } = await c.sdk.importSecrets({ secrets: [{ name: uniqueName('scan-secret'), ...sealed, encryptionSuite: suite }] });
  const client = generateP256KeyPair();
  const { secretPayloads } = await c.sdk.exportSecrets({ secrets: [{ secretId: secretIds[0]!, targetPublicKey: client.publicKey, encryptionSuite: suite }] });
  expect(await decryptSecretBundle({ secretPayload: secretPayloads[0]!, embeddedPrivateKey: client.privateKey, organizationId: c.orgId, dangerouslyOverrideSignerPublicKey: c.signerPublicKey })).toBe(value);
  const bytes = Buffer.from(value, 'utf8');
  return [
    { label: 'imported opaque secret (text)', value },
    { label: 'imported opaque secret (utf-8 hex)', value: bytes.toString('hex') },
    { label: 'imported opaque secret (base64)', value: bytes.toString('base64') },
  ];
}

describe('secrets scan (a dedicated server logging at trace level)', () => {
  let traced: TLatchkey;
  let t: TConn;
  /** Every mnemonic and private key that passed through the platform in this block. */
  const secrets: TSecret[] = [];
  /** Public material the same flows stored: the dump must contain it, or the scan proves nothing. */
  const publicKeys: string[] = [];
  let dump = '';
  let tables: string[] = [];
  let elsewhere: string[] = [];

  const addMnemonic = (label: string, mnemonic: string) => {
    secrets.push(...mnemonicForms(label, mnemonic));
    // @scure/bip39 computes the seed of any phrase (ethers refuses a bad checksum).
    secrets.push(...keyForms(`${label} BIP-39 seed`, hex(mnemonicToSeedSync(mnemonic))));
  };

  beforeAll(async () => {
    traced = await startLatchkey({ env: { LATCHKEY_LOG_LEVEL: 'trace' }, timeoutMs: 110_000 });
    t = await connect(traced);

    // Made by the server: a wallet (Ethereum + Solana accounts) and a secp256k1 private key.
    const created = await createWallet(t, [ethAccount(0), solAccount(0)]);
    const createdKey = await createPrivateKey(t, 'CURVE_SECP256K1', ['ADDRESS_FORMAT_ETHEREUM']);
    // Brought in: a known mnemonic, a known secp256k1 key (hex) and a known Solana keypair.
    const knownMnemonic = generateMnemonic(english);
    const knownHex = hex(secp256k1.utils.randomSecretKey());
    const knownSolana = Keypair.generate();
    addMnemonic('imported mnemonic', knownMnemonic);
    secrets.push(...keyForms('imported secp256k1 key', knownHex));
    secrets.push(...keyForms('imported ed25519 key', hex(knownSolana.secretKey.subarray(0, 32))));
    secrets.push({ label: 'imported ed25519 keypair (base58)', value: base58.encode(knownSolana.secretKey) });
    const imported = await importWallet(t, knownMnemonic, [ethAccount(0), solAccount(0)]);
    const importedKey = await importKey(t, knownHex, 'HEXADECIMAL', 'CURVE_SECP256K1', ['ADDRESS_FORMAT_ETHEREUM']);
    const importedSolana = await importKey(t, base58.encode(knownSolana.secretKey), 'SOLANA', 'CURVE_ED25519', ['ADDRESS_FORMAT_SOLANA']);

    // Sign with each.
    for (const [signWith, address] of [
      [created.accounts[0]!.address, created.accounts[0]!.address],
      [createdKey.privateKeyId, createdKey.address],
      [imported.addresses[0]!, imported.addresses[0]!],
      [importedKey.address, importedKey.address],
    ] as const) {
      const digest = randomBytes(32);
      expect(recoveredAddress(digest, await signRaw(t, signWith, hex(digest), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP'))).toBe(address);
    }
    for (const solanaAddress of [created.accounts[1]!.address, imported.addresses[1]!, importedSolana.address]) {
      const sig = await signRaw(t, solanaAddress, 'scan', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_NOT_APPLICABLE');
      expect(ed25519.verify(compact(sig), Buffer.from('scan'), new PublicKey(solanaAddress).toBytes())).toBe(true);
    }

    // Export each, collecting what the client decrypts.
    const createdMnemonic = await exportWallet(t, created.walletId);
    addMnemonic('created wallet mnemonic', createdMnemonic);
    expect(await exportWallet(t, imported.walletId)).toBe(knownMnemonic);
    const ethAccountKey = await exportAccount(t, created.accounts[0]!.address);
    secrets.push(...keyForms('created wallet Ethereum account key', ethAccountKey));
    const solAccountSecret = await exportAccount(t, created.accounts[1]!.address, true);
    secrets.push(...keyForms('created wallet Solana account key', hex(base58.decode(solAccountSecret).subarray(0, 32))));
    secrets.push({ label: 'created wallet Solana account keypair (base58)', value: solAccountSecret });
    secrets.push(...keyForms('imported wallet Ethereum account key', HDNodeWallet.fromPhrase(knownMnemonic, undefined, ethereumPath(0)).privateKey));
    const importedSolanaAccountKey = slip10Ed25519PrivateKey(unhex(Mnemonic.fromPhrase(knownMnemonic).computeSeed()), ED25519_SOLANA_PATH);
    expect(Keypair.fromSeed(importedSolanaAccountKey).publicKey.toBase58()).toBe(imported.addresses[1]);
    secrets.push(...keyForms('imported wallet Solana account key', hex(importedSolanaAccountKey)));
    const createdKeyHex = await exportKey(t, createdKey.privateKeyId);
    secrets.push(...keyForms('created private key', createdKeyHex));
    expect(await exportKey(t, importedKey.privateKeyId)).toBe(knownHex);
    const importedSolanaSecret = await exportKey(t, importedSolana.privateKeyId, { solana: true });
    expect(importedSolanaSecret).toBe(base58.encode(knownSolana.secretKey));

    // The exported secrets are the keys the server reports publicly (so they are the real ones).
    expect(new Wallet(`0x${ethAccountKey}`).address).toBe(created.accounts[0]!.address);
    expect(computeAddress(`0x${createdKeyHex}`)).toBe(createdKey.address);
    expect(ethAddressOfMnemonic(createdMnemonic, ethereumPath(0))).toBe(created.accounts[0]!.address);

    // Refused imports: the failure messages recorded and logged must not echo what was sent.
    const badChecksum = mnemonicWithBadChecksum();
    const withPassphrase = generateMnemonic(english);
    addMnemonic('refused mnemonic (bad checksum)', badChecksum);
    addMnemonic('refused mnemonic (with passphrase)', withPassphrase);
    secrets.push({ label: 'refused BIP-39 passphrase', value: 'correct horse battery staple 42' });
    for (const [text, reason] of [
      [badChecksum, /valid BIP39/],
      [`${withPassphrase}\n--PASS--\ncorrect horse battery staple 42`, /passphrase/],
    ] as const) {
      const encryptedBundle = await encryptMnemonic(t, text, await initImport(t, 'wallet'));
      await expectFailedActivity(
        t,
        poll(t).importWallet({ type: 'ACTIVITY_TYPE_IMPORT_WALLET', ...envelope(t), parameters: { userId: t.userId, walletName: uniqueName('refused'), encryptedBundle, accounts: [ethAccount(0)] } }),
        'ACTIVITY_TYPE_IMPORT_WALLET',
        reason,
      );
    }
    // An ed25519 key pair whose public half is not the private half's.
    const mismatched = Buffer.concat([randomBytes(32), Keypair.generate().publicKey.toBytes()]);
    secrets.push(...keyForms('refused ed25519 key', hex(mismatched.subarray(0, 32))));
    // As raw 64 bytes: @turnkey/crypto's keyFormat SOLANA would send only the first 32.
    const rawBundle = await encryptKey(t, hex(mismatched), 'HEXADECIMAL', await initImport(t, 'privateKey'));
    await expectFailedActivity(
      t,
      poll(t).importPrivateKey({
        type: 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY',
        ...envelope(t),
        parameters: { userId: t.userId, privateKeyName: uniqueName('refused-key'), encryptedBundle: rawBundle, curve: 'CURVE_ED25519', addressFormats: [] },
      }),
      'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY',
      /inconsistent/,
    );

    // The auth proxy's key: made by enable_auth_proxy, fetched sealed by the proxy process, opened
    // there and used to stamp what it forwards (here an init_otp), never to be seen in the clear.
    // An opaque secret (import_secrets / export_secrets), in the same bundles as the keys.
    secrets.push(...(await roundTripOpaqueSecret(t)));

    const proxyKey = await useAuthProxy(traced);
    secrets.push(...keyForms('auth proxy user key', proxyKey.privateKey));

    publicKeys.push(created.accounts[0]!.publicKey, createdKey.publicKey, importedKey.publicKey, importedSolana.publicKey, proxyKey.publicKey);
    ({ tables, elsewhere, dump } = await dumpPublicSchema(await traced.databaseUrl()));
  }, 240_000);

  afterAll(async () => {
    await traced?.stop();
  });

  it('collected every secret form (4 mnemonics, 9 keys with the auth proxy’s)', () => {
    expect(secrets.filter((s) => s.label.endsWith('(phrase)'))).toHaveLength(4);
    expect(secrets.filter((s) => s.label.endsWith('(hex)') && !s.label.includes('seed'))).toHaveLength(9);
    expect(secrets.filter((s) => s.label.startsWith('imported opaque secret'))).toHaveLength(3);
    for (const s of secrets) expect(s.value.length).toBeGreaterThanOrEqual(16);
  });

  it('the dump covers every table, and contains the public keys (so a stored secret would be seen)', () => {
    expect(elsewhere).toEqual([]);
    expect(tables).toContain('latchkey_migrations');
    expect(tables.length).toBeGreaterThan(5);
    for (const publicKey of publicKeys) expect(dump).toContain(publicKey);
    // The scanner itself finds a planted secret form.
    const planted = secrets[0]!;
    expect(findSecrets({ dump: `${dump}\n${planted.value}` }, secrets)).toContainEqual({ where: 'dump', label: planted.label });
  });

  it('the logs were written below info level and cover the signing, export and import requests', () => {
    const output = traced.output();
    // pino writes debug (20) lines only when the level is debug or trace.
    expect(output).toMatch(/"level":20,/);
    for (const path of ['sign_raw_payload', 'export_wallet', 'export_wallet_account', 'export_private_key', 'import_wallet', 'import_private_key', 'enable_auth_proxy', 'init_otp', 'init_import_secrets', 'import_secrets', 'export_secrets']) {
      expect(output).toContain(`/public/v1/submit/${path}"`);
    }
    // The proxy process logged too: the request it served and its read of the sealed config.
    expect(output).toContain('/v1/otp_init_v2"');
    expect(output).toContain('/internal/v1/auth_proxy_config"');
  });

  it('no mnemonic, seed, private key or opaque secret — in any form — is in the database', () => {
    expect(findSecrets({ database: dump }, secrets)).toEqual([]);
  });

  it('no mnemonic, seed, private key or opaque secret — in any form — is in the server’s logs', () => {
    expect(findSecrets({ logs: traced.output() }, secrets)).toEqual([]);
  });
});
