/**
 * What the admin end-to-end specs share: an API-key stamper for the typed admin client (the
 * unmodified `@turnkey/api-key-stamper`, exactly what signs public-API calls), a session made by
 * `session.stampLogin`, the e-mail OTP sign-in as a browser does it (the code read from the
 * testkit's SMTP capture), the Turnkey SDK for setting up organizations, users, policies and TVC
 * apps, and sponsored-gas ledger rows for the Gas page.
 */
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import pg from 'pg';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import { Turnkey } from '@turnkey/sdk-server';
import type { TLatchkey } from '@latchkey/testkit';
import { createAdminClient, type TAdminClient, type TStamp } from '../../src/client/admin-client.js';

export type TKeyPair = { publicKey: string; privateKey: string };

export const apiKeyStamp = (key: TKeyPair): TStamp => {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  return (body) => stamper.stamp(body);
};

export const adminAs = (latchkey: TLatchkey, key?: TKeyPair): TAdminClient =>
  createAdminClient({ baseUrl: latchkey.adminUrl, ...(key ? { stamp: apiKeyStamp(key) } : {}) });

/** A fresh session key registered by `stamp_login` signed with `key`; returns the session key pair. */
export async function signIn(latchkey: TLatchkey, key: TKeyPair, organizationId: string, expirationSeconds?: string): Promise<TKeyPair> {
  const session = generateP256KeyPair();
  const { activity } = await adminAs(latchkey, key).session.stampLogin.mutate({
    type: 'ACTIVITY_TYPE_STAMP_LOGIN',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { publicKey: session.publicKey, ...(expirationSeconds ? { expirationSeconds } : {}) },
  });
  if (activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error(`stamp_login ended ${activity.status}`);
  return { publicKey: session.publicKey, privateKey: session.privateKey };
}

export const sdkAs = (latchkey: TLatchkey, key: TKeyPair, organizationId: string) =>
  new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: organizationId, activityPoller: { intervalMs: 20, numRetries: 0 } }).apiClient();

/**
 * The next OTP e-mail to `email` in the testkit's capture (other messages are passed over).
 * @returns its code
 */
export async function codeFor(latchkey: TLatchkey, email: string): Promise<string> {
  for (;;) {
    const m = await latchkey.mail.next({ timeoutMs: 20_000 });
    if (m.to.toLowerCase() === email.toLowerCase() && m.code) return m.code;
  }
}

/** `X-Stamp-Attested` with `session`, vouched for by a verification token bound to its public key. */
export const attestedStamp = (session: TKeyPair, verificationToken: string): TStamp => {
  const stamper = new ApiKeyStamper({ apiPublicKey: session.publicKey, apiPrivateKey: session.privateKey });
  return async (body) => {
    const { stampHeaderValue } = await stamper.stamp(body);
    const plain = JSON.parse(Buffer.from(stampHeaderValue, 'base64url').toString('utf8')) as { publicKey: string; signature: string };
    const attested = { publicKey: plain.publicKey, signature: plain.signature, scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', publicKeyAttestation: verificationToken };
    return { stampHeaderName: 'X-Stamp-Attested', stampHeaderValue: Buffer.from(JSON.stringify(attested)).toString('base64url') };
  };
};

/** The whole e-mail sign-in, as the dashboard does it: code mailed, verified for a fresh key, stamp_login attested. */
export async function signInByEmail(latchkey: TLatchkey, organizationId: string, email: string): Promise<TKeyPair> {
  const anonymous = createAdminClient({ baseUrl: latchkey.adminUrl });
  const { otpId } = await anonymous.session.otpInit.mutate({ organizationId, email });
  const otpCode = await codeFor(latchkey, email);
  const session = generateP256KeyPair();
  const { verificationToken } = await anonymous.session.otpVerify.mutate({ organizationId, otpId, otpCode, publicKey: session.publicKey });
  const { activity } = await createAdminClient({ baseUrl: latchkey.adminUrl, stamp: attestedStamp(session, verificationToken) }).session.stampLogin.mutate({
    type: 'ACTIVITY_TYPE_STAMP_LOGIN',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { publicKey: session.publicKey },
  });
  if (activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error(`stamp_login ended ${activity.status}`);
  return { publicKey: session.publicKey, privateKey: session.privateKey };
}

/** A TVC operator: a P-256 key (uncompressed public key in hex) that signs manifest bytes (DER hex). */
export function operatorKey(): { publicKey: string; sign(text: string): string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const hex = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  return { publicKey: hex, sign: (text) => sign('sha256', Buffer.from(text, 'utf8'), privateKey as KeyObject).toString('hex') };
}

/** A TVC app with a 1-of-1 manifest set and one deployment of it (created, not approved), through sdk-server. */
export async function createTvcFixture(sdk: ReturnType<typeof sdkAs>) {
  const operator = operatorKey();
  const app = await sdk.createTvcApp({
    name: unique('tvc-app'),
    quorumPublicKey: operatorKey().publicKey,
    manifestSetParams: { name: 'approvers', threshold: 1, newOperators: [{ name: 'alice-operator', publicKey: operator.publicKey }] },
    shareSetParams: { name: 'holders', threshold: 1, newOperators: [{ name: 'share-operator', publicKey: operatorKey().publicKey }] },
  });
  const deployment = await sdk.createTvcDeployment({
    appId: app.appId,
    qosVersion: 'v0.5.0',
    pivotContainerImageUrl: `ghcr.io/acme/enclave-app@sha256:${'a1'.repeat(32)}`,
    pivotPath: '/app/server',
    pivotArgs: ['--port', '3000'],
    expectedPivotDigest: 'b'.repeat(64),
    healthCheckType: 'TVC_HEALTH_CHECK_TYPE_HTTP',
    healthCheckPort: 3000,
    publicIngressPort: 443,
  });
  return { appId: app.appId, operatorId: app.manifestSetOperatorIds[0]!, operator, deploymentId: deployment.deploymentId, manifestId: deployment.manifestId };
}

/**
 * Rows of the sponsored-gas ledger, `minutesAgo` before the database's now. The receipt watcher
 * writes them after a sponsored send is mined (gas-sponsorship.e2e proves that against an EVM
 * node); the admin's Gas page only reads them, so its tests write them as the watcher would.
 */
export async function insertGasLedger(latchkey: TLatchkey, organizationId: string, rows: { usd: string; minutesAgo: number }[]): Promise<void> {
  const db = new pg.Client({ connectionString: await latchkey.databaseUrl() });
  await db.connect();
  try {
    for (const r of rows) {
      await db.query(`INSERT INTO gas_ledger_entries (id, organization_id, activity_id, usage_usd, created_at) VALUES ($1, $2, NULL, $3::numeric, now() - make_interval(mins => $4::int))`, [randomUUID(), organizationId, r.usd, r.minutesAgo]);
    }
  } finally {
    await db.end();
  }
}

let n = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${n++}`;

/** A call the server must refuse; returns the refusal's tRPC error data and message. */
export async function refused(p: Promise<unknown>): Promise<{ code: string; status: number; message: string; wire: unknown }> {
  try {
    const v = await p;
    throw new Error(`expected a refusal, got ${JSON.stringify(v).slice(0, 300)}`);
  } catch (e) {
    const err = e as { name?: string; message: string; data?: { latchkeyCode: string; httpStatus: number }; shape?: unknown };
    if (err.name !== 'TRPCClientError' || !err.data) throw e;
    return { code: err.data.latchkeyCode, status: err.data.httpStatus, message: err.message, wire: err.shape };
  }
}
