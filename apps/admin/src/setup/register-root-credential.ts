/**
 * The one thing a setup link allows: one passkey or API key for the bootstrap root user. It is an
 * activity like any other — `create_authenticators` / `create_api_keys` of the root user, signed
 * with the bootstrap API key Latchkey generated into bootstrap.json (the link stands in for that
 * file) and submitted through the engine, so it is in the activity log and the root quorum and
 * policies apply. The link is spent before the activity is submitted: a refused activity costs a
 * new link, never a second use of this one.
 */
import type { TEngine } from '@latchkey/activity-engine';
import { CREATE_API_KEYS_ACTIVITY, CREATE_AUTHENTICATORS_ACTIVITY, type TActivity } from '@latchkey/domain';
import { spendAdminSetupToken } from '@latchkey/platform';
import { bootstrapSigner, readBootstrapIdentity, submitAsBootstrap } from './bootstrap-signer.js';

export type TRootCredential =
  | { kind: 'passkey'; authenticator: Record<string, unknown> }
  | { kind: 'api-key'; apiKey: { apiKeyName: string; publicKey: string; curveType: 'API_KEY_CURVE_P256' } };

/**
 * Spends the setup token and registers the credential for the bootstrap root user.
 * @throws AppError UNAUTHENTICATED (token), REQUEST_NOT_AUTHORIZED (no bootstrap private key), or the engine's refusal
 */
export async function registerRootCredential(engine: TEngine, dataDir: string, token: string, credential: TRootCredential): Promise<{ activity: TActivity }> {
  const signer = bootstrapSigner(await readBootstrapIdentity(dataDir), 'a setup link');
  await spendAdminSetupToken(dataDir, token);
  const activity =
    credential.kind === 'passkey'
      ? await submitAsBootstrap(engine, signer, CREATE_AUTHENTICATORS_ACTIVITY, signer.organizationId, { userId: signer.userId, authenticators: [credential.authenticator] })
      : await submitAsBootstrap(engine, signer, CREATE_API_KEYS_ACTIVITY, signer.organizationId, { userId: signer.userId, apiKeys: [credential.apiKey] });
  return { activity };
}
