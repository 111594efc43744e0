/**
 * What the policy end-to-end specs share: clients for a key (sdk-server with a quick poller, so a
 * waiting activity comes back after one short poll, and `@turnkey/http`), members of the
 * organization with their own API keys, and the shape of a refusal as the clients raise it.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import { TurnkeyClient } from '@turnkey/http';
import { Turnkey } from '@turnkey/sdk-server';
import type { TLatchkey } from '@latchkey/testkit';
import { turnkeyErrorCodes, uniqueName } from './e2e-helpers.js';

export type TKeyPair = { publicKey: string; privateKey: string };

export interface TMember {
  userId: string;
  key: TKeyPair;
}

/** The clients and builders of one running Latchkey's root organization. */
export function policyE2e(latchkey: TLatchkey) {
  const orgId = latchkey.bootstrap.organizationId;
  const rootKey: TKeyPair = { publicKey: latchkey.bootstrap.apiPublicKey, privateKey: latchkey.bootstrap.apiPrivateKey! };
  const sdk = (key: TKeyPair) =>
    new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: orgId, activityPoller: { intervalMs: 20, numRetries: 0 } }).apiClient();
  const http = (key: TKeyPair) => new TurnkeyClient({ baseUrl: latchkey.baseUrl }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }));
  /** A user of the organization with one P-256 API key, created by the root user. */
  const member = async (name: string, userTags: string[] = []): Promise<TMember> => {
    const key = generateP256KeyPair();
    const { userIds } = await sdk(rootKey).createUsers({
      users: [{ userName: uniqueName(name), apiKeys: [{ apiKeyName: 'k', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [], userTags }],
    });
    return { userId: userIds[0]!, key };
  };
  return { orgId, rootKey, sdk, http, member };
}

export interface TRefusal {
  /** The gRPC code TurnkeyRequestError carries (3 invalid argument, 7 permission denied). */
  code: number;
  message: string;
  codes: string[];
  /** Latchkey's `fields` of the first detail: what the refusal is about. */
  fields: Record<string, unknown>;
}

/** Awaits a request the server must refuse; anything else (an answer, another error) fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<TRefusal> {
  try {
    const value = await promise;
    throw new Error(`expected a refusal, got ${JSON.stringify(value).slice(0, 300)}`);
  } catch (e) {
    const err = e as { name?: string; message: string; code?: number; details?: unknown[] | null };
    if (err.name !== 'TurnkeyRequestError') throw e;
    const first = (err.details?.[0] ?? {}) as { fields?: Record<string, unknown> };
    return { code: err.code ?? -1, message: err.message, codes: turnkeyErrorCodes(err.details ?? null), fields: first.fields ?? {} };
  }
}
