/**
 * The one thing a setup link allows: one passkey or API key for the bootstrap root user. It is an
 * activity like any other — `create_authenticators` / `create_api_keys` of the root user, signed
 * with the bootstrap API key Latchkey generated into bootstrap.json (the link stands in for that
 * file) and submitted through the engine, so it is in the activity log and the root quorum and
 * policies apply. The link is spent before the activity is submitted: a refused activity costs a
 * new link, never a second use of this one.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TEngine } from '@latchkey/activity-engine';
import { signP256 } from '@latchkey/crypto';
import { AppError, CREATE_API_KEYS_ACTIVITY, CREATE_AUTHENTICATORS_ACTIVITY, type TActivity } from '@latchkey/domain';
import { spendAdminSetupToken } from '@latchkey/platform';

export interface TBootstrapIdentity {
  organizationId: string;
  userId: string;
  apiPublicKey: string;
  apiPrivateKey?: string;
}

/**
 * bootstrap.json's identity.
 * @throws AppError UNAVAILABLE when the file is missing or unreadable
 */
export async function readBootstrapIdentity(dataDir: string): Promise<TBootstrapIdentity> {
  try {
    return JSON.parse(await readFile(join(resolve(dataDir), 'bootstrap.json'), 'utf8')) as TBootstrapIdentity;
  } catch {
    throw new AppError('UNAVAILABLE', 'bootstrap.json cannot be read from the data folder (LATCHKEY_DATA_DIR) of this admin app');
  }
}

export type TRootCredential =
  | { kind: 'passkey'; authenticator: Record<string, unknown> }
  | { kind: 'api-key'; apiKey: { apiKeyName: string; publicKey: string; curveType: 'API_KEY_CURVE_P256' } };

/**
 * Spends the setup token and registers the credential for the bootstrap root user.
 * @throws AppError UNAUTHENTICATED (token), REQUEST_NOT_AUTHORIZED (no bootstrap private key), or the engine's refusal
 */
export async function registerRootCredential(engine: TEngine, dataDir: string, token: string, credential: TRootCredential): Promise<{ activity: TActivity }> {
  const boot = await readBootstrapIdentity(dataDir);
  if (!boot.apiPrivateKey) {
    throw new AppError('REQUEST_NOT_AUTHORIZED', 'this installation was started with LATCHKEY_ROOT_API_PUBLIC_KEY: Latchkey never held the root private key, so sign in with that key instead of a setup link');
  }
  await spendAdminSetupToken(dataDir, token);
  const [path, type, parameters] =
    credential.kind === 'passkey'
      ? [CREATE_AUTHENTICATORS_ACTIVITY.path, CREATE_AUTHENTICATORS_ACTIVITY.versions[0].type, { userId: boot.userId, authenticators: [credential.authenticator] }]
      : [CREATE_API_KEYS_ACTIVITY.path, CREATE_API_KEYS_ACTIVITY.versions[0].type, { userId: boot.userId, apiKeys: [credential.apiKey] }];
  const raw = Buffer.from(JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: boot.organizationId, parameters }));
  const stamp = Buffer.from(JSON.stringify({ publicKey: boot.apiPublicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(boot.apiPrivateKey, raw) })).toString('base64url');
  return engine.submit(path, { 'x-stamp': stamp }, raw);
}
