/**
 * Shared pieces of the public API end-to-end tests: request builders in the exact shapes of
 * `@turnkey/http`'s wire types, an independent Ethereum address derivation (so addresses are
 * checked against our own arithmetic, not the server's), and a raw `fetch` helper for the cases
 * the published clients cannot express (tampered bodies, missing stamps, odd paths).
 */
import { createHash, createHmac } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { TurnkeyApiTypes } from '@turnkey/http';
import type { TCapturedMail } from '@latchkey/testkit';
import pg from 'pg';
import { expect } from 'vitest';

export type TCreateWalletRequest = TurnkeyApiTypes['v1CreateWalletRequest'];
export type TWalletAccountParams = TurnkeyApiTypes['v1WalletAccountParams'];
export type TAddressFormat = TurnkeyApiTypes['v1AddressFormat'];

/** BIP44 Ethereum path of account `index` (the layout Turnkey's own helpers use). */
export const ethereumPath = (index: number): string => `m/44'/60'/0'/0/${index}`;

export function accountParams(index: number, addressFormat: TAddressFormat = 'ADDRESS_FORMAT_ETHEREUM'): TWalletAccountParams {
  return { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: ethereumPath(index), addressFormat };
}

let nameCounter = 0;
/** A wallet name no other test (or earlier run on a reused database) has used. */
export function uniqueName(prefix: string): string {
  nameCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${nameCounter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The full `create_wallet` envelope, as a `TurnkeyClient` caller writes it. */
export function createWalletRequest(
  organizationId: string,
  walletName: string,
  accounts: TWalletAccountParams[] = [accountParams(0)],
  timestampMs: string = String(Date.now()),
): TCreateWalletRequest {
  return { type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs, organizationId, parameters: { walletName, accounts } };
}

/** EIP-55 mixed-case checksum of a 20-byte address (`0x` + 40 hex digits, any case). */
export function toChecksumAddress(address: string): string {
  const lower = address.toLowerCase().replace(/^0x/, '');
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i]!;
    out += parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/** Uncompressed SEC1 (`04…`, 65 bytes) of a secp256k1 public key given in either SEC1 form. */
export function uncompressedSecp256k1(publicKeyHex: string): Uint8Array {
  return secp256k1.Point.fromHex(publicKeyHex).toBytes(false);
}

/** keccak256(X‖Y)[12..32], EIP-55 checksummed: the Ethereum address of a secp256k1 key. */
export function ethereumAddressOf(publicKeyHex: string): string {
  const xy = uncompressedSecp256k1(publicKeyHex).subarray(1);
  return toChecksumAddress(`0x${bytesToHex(keccak_256(xy).subarray(12))}`);
}

export const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

export interface TRawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body when it is JSON, else undefined. */
  json: unknown;
}

/**
 * Resolves once `${baseUrl}/healthz` answers 200, polling every 100 ms; throws after `timeoutMs`,
 * or at once when `exited()` says the process serving it is gone, with `output()` in the message.
 */
export async function waitForHealthz(baseUrl: string, o: { name: string; timeoutMs: number; output: () => string; exited?: () => boolean }): Promise<void> {
  for (const deadline = Date.now() + o.timeoutMs; ; ) {
    if (o.exited?.()) throw new Error(`${o.name} exited before /healthz answered:\n${o.output()}`);
    if (await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`${o.name} not ready in ${o.timeoutMs / 1000} s:\n${o.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A request with exactly the given body and headers; redirects are reported, never followed. */
export async function rawRequest(
  url: string,
  init: { method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> } = {},
): Promise<TRawResponse> {
  const res = await fetch(url, {
    method: init.method ?? 'POST',
    headers: init.headers ?? {},
    redirect: 'manual',
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export interface TErrorBody {
  code: number;
  message: string;
  details: Array<{ '@type': string; turnkeyErrorCode: string; latchkeyErrorCode?: string }>;
}

/**
 * Asserts the grpc-gateway `rpcStatus` error shape, its HTTP status, gRPC code and Turnkey error
 * code, and that the response is JSON (the clients parse error bodies with `response.json()`).
 */
export function expectErrorResponse(res: TRawResponse, httpStatus: number, grpcCode: number, turnkeyErrorCode: string): TErrorBody {
  expect(res.status, res.text).toBe(httpStatus);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(res.headers.get('location')).toBeNull();
  const body = res.json as TErrorBody;
  expect(body).toEqual({
    code: grpcCode,
    message: expect.any(String),
    details: [expect.objectContaining({ '@type': 'type.googleapis.com/errors.v1.TurnkeyErrorDetail', turnkeyErrorCode })],
  });
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

/** Awaits a promise that must reject with an instance of `cls`, and returns that error. */
export async function rejectionOf<T extends Error>(promise: Promise<unknown>, cls: abstract new (...args: never[]) => T): Promise<T> {
  let value: unknown;
  try {
    value = await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(cls);
    return e as T;
  }
  throw new Error(`expected a ${cls.name} but the call succeeded with ${JSON.stringify(value)}`);
}

/** The `turnkeyErrorCode`s of an error's details (TurnkeyRequestError.details is `any[] | null`). */
export function turnkeyErrorCodes(details: unknown[] | null): string[] {
  return (details ?? []).map((d) => (d as { turnkeyErrorCode?: string }).turnkeyErrorCode ?? '');
}

/** `{seconds, nanos}` as decimal strings, within `slackSeconds` of now. */
export function expectRecentTimestamp(t: unknown, slackSeconds = 600): void {
  expect(t).toEqual({ seconds: expect.stringMatching(/^[0-9]+$/), nanos: expect.stringMatching(/^[0-9]+$/) });
  const { seconds, nanos } = t as { seconds: string; nanos: string };
  expect(Math.abs(Number(seconds) - Date.now() / 1000)).toBeLessThan(slackSeconds);
  expect(Number(nanos)).toBeLessThan(1_000_000_000);
}

// ---------------------------------------------------------------------------------------------
// Signing, export and import (signing-export-import.e2e.spec.ts): appended helpers.
// ---------------------------------------------------------------------------------------------

/**
 * The ed25519 key at a hardened-only path of a BIP-39 seed, by SLIP-0010 written out with
 * node:crypto's HMAC (not the server's derivation, nor the noble/scure stack it uses), so a
 * derivation mistake on either side shows up as a different address.
 * @throws Error for a malformed or non-hardened path (SLIP-0010 ed25519 has no public derivation).
 */
export function slip10Ed25519PrivateKey(seed: Uint8Array, path: string): Uint8Array {
  const segments = path.split('/');
  if (segments[0] !== 'm') throw new Error(`path must start with m/: ${path}`);
  let node = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  for (const segment of segments.slice(1)) {
    const match = /^([0-9]+)'$/.exec(segment);
    if (!match) throw new Error(`SLIP-0010 ed25519 derives hardened children only, got ${segment} in ${path}`);
    const index = Buffer.alloc(4);
    index.writeUInt32BE((Number(match[1]) + 0x80000000) >>> 0);
    node = createHmac('sha512', node.subarray(32)).update(Buffer.concat([Buffer.of(0), node.subarray(0, 32), index])).digest();
  }
  return Uint8Array.from(node.subarray(0, 32));
}

/** A secret as it passed through a test, and a label that names it without repeating it. */
export interface TSecret {
  label: string;
  value: string;
}

/** Where a secret form was found: `{where, label}` only, so a failure report never prints it. */
export interface TSecretHit {
  where: string;
  label: string;
}

/**
 * Every written form of a BIP-39 mnemonic a careless server could store or log: the phrase, its
 * words lowercased and joined by single spaces, and its UTF-8 bytes in hex and base64.
 */
export function mnemonicForms(label: string, mnemonic: string): TSecret[] {
  const words = mnemonic.trim().split(/\s+/).join(' ').toLowerCase();
  const utf8 = Buffer.from(words, 'utf8');
  return [
    { label: `${label} (phrase)`, value: mnemonic },
    { label: `${label} (lowercase words)`, value: words },
    { label: `${label} (utf-8 hex)`, value: utf8.toString('hex') },
    { label: `${label} (utf-8 base64)`, value: utf8.toString('base64') },
  ];
}

/** A private key (or seed) in hex, lowercase and uppercase, and in standard and URL-safe base64. */
export function keyForms(label: string, keyHex: string): TSecret[] {
  const bytes = Buffer.from(keyHex.replace(/^0x/, ''), 'hex');
  if (bytes.length < 16) throw new Error(`${label}: a key of ${bytes.length} bytes is too short to scan for`);
  return [
    { label: `${label} (hex)`, value: bytes.toString('hex') },
    { label: `${label} (HEX)`, value: bytes.toString('hex').toUpperCase() },
    { label: `${label} (base64)`, value: bytes.toString('base64') },
    { label: `${label} (base64url)`, value: bytes.toString('base64url') },
  ];
}

/** Each `{where, label}` of a secret form found in one of the named texts. */
export function findSecrets(texts: Record<string, string>, secrets: readonly TSecret[]): TSecretHit[] {
  const hits: TSecretHit[] = [];
  for (const [where, text] of Object.entries(texts)) {
    for (const { label, value } of secrets) if (text.includes(value)) hits.push({ where, label });
  }
  return hits;
}

/**
 * Every row of every table of schema `public` (and `latchkey_migrations`) as `table: row::text`
 * lines; bytea columns come out as `\x…` hex, so raw key bytes would be visible. `elsewhere`
 * lists the tables of any other non-system schema, which the dump does not cover.
 */
export async function dumpPublicSchema(databaseUrl: string): Promise<{ tables: string[]; elsewhere: string[]; dump: string }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
    );
    const tables = [...new Set([...rows.map((r) => r.table_name), 'latchkey_migrations'])];
    const { rows: others } = await db.query<{ name: string }>(
      "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('public', 'pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg\\_%' ORDER BY 1",
    );
    const lines: string[] = [];
    for (const table of tables) {
      const quoted = `"public"."${table.replaceAll('"', '""')}"`;
      const { rows: dumped } = await db.query<{ t: string }>(`SELECT t::text AS t FROM ${quoted} t`);
      for (const r of dumped) lines.push(`${table}: ${r.t}`);
    }
    return { tables, elsewhere: others.map((r) => r.name), dump: lines.join('\n') };
  } finally {
    await db.end();
  }
}

/** The code in an OTP mail: the first non-empty line after the default template's "Enter this code". */
export function codeFromMail(mail: TCapturedMail): string {
  const lines = mail.text.split('\n').map((l) => l.trim());
  const at = lines.findIndex((l) => l.startsWith('Enter this code'));
  const code = lines.slice(at + 1).find((l) => l.length > 0);
  if (at < 0 || !code) throw new Error(`no code in mail: ${mail.subject}`);
  return code;
}

/** The credential bundle in a recovery or e-mail auth mail (bs58check: base58 alphabet, long). */
export function bundleFromMail(mail: TCapturedMail): string {
  const m = /\b([1-9A-HJ-NP-Za-km-z]{80,})\b/.exec(mail.text);
  if (!m) throw new Error(`no credential bundle in mail: ${mail.subject}`);
  return m[1]!;
}

/** A client signature (raw r‖s over sha256(message)) by the P-256 key a verification token is bound to. */
export function clientSignature(tokenKey: { publicKey: string; privateKey: string }, message: string): TurnkeyApiTypes['v1ClientSignature'] {
  const digest = createHash('sha256').update(message, 'utf8').digest();
  const signature = p256.sign(digest, Buffer.from(tokenKey.privateKey, 'hex'), { prehash: false });
  return { publicKey: tokenKey.publicKey, scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256', message, signature: Buffer.from(signature).toString('hex') };
}
