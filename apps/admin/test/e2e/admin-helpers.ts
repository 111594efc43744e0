/**
 * What the admin end-to-end specs share: an API-key stamper for the typed admin client (the
 * unmodified `@turnkey/api-key-stamper`, exactly what signs public-API calls), a session made by
 * `session.stampLogin`, and the Turnkey SDK for setting up organizations, users and policies.
 */
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
