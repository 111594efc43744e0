/**
 * What the auth proxy process reads of a config, through the public API's internal endpoint
 * (`POST /internal/v1/auth_proxy_config`): the config and its proxy user's key, still sealed — the
 * proxy opens it with the master key it shares with this process, so the key never crosses the
 * wire in the clear and the proxy never touches the database. The request itself must be sealed by
 * the same master key (`sealInternalRequest`), or it is refused as unauthenticated.
 */
import { internalRequestProblem, type TKeyVault } from '@latchkey/crypto';
import { AppError, AUTH_PROXY_INTERNAL_AAD, AUTH_PROXY_INTERNAL_HEADER, fromZodIssues, ZAuthProxyInternalRequestSchema, type TAuthProxyRuntime } from '@latchkey/domain';
import type { TStore } from '@latchkey/persistence';
import type { THeaders } from '../engine/engine.js';
import { configWire } from '../activities/auth-proxy/auth-proxy-shared.js';

/** How far an internal request's timestamp may be from this clock. */
const INTERNAL_WINDOW_MS = 60_000;

export type TAuthProxyRuntimeReader = (headers: THeaders, raw: Buffer) => Promise<TAuthProxyRuntime>;

/**
 * @throws AppError UNAUTHENTICATED for a request not sealed by this installation, BAD_REQUEST for a
 *   malformed body, NOT_FOUND naming the config id when it is unknown or disabled
 */
export function createAuthProxyRuntimeReader(store: TStore, vault: TKeyVault, now: () => number = Date.now): TAuthProxyRuntimeReader {
  return async (headers, raw) => {
    const h = headers[AUTH_PROXY_INTERNAL_HEADER];
    const problem = internalRequestProblem(vault, AUTH_PROXY_INTERNAL_AAD, Array.isArray(h) ? undefined : h, raw, now(), INTERNAL_WINDOW_MS);
    if (problem) throw new AppError('UNAUTHENTICATED', `internal request refused: ${AUTH_PROXY_INTERNAL_HEADER} ${problem}`);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError('BAD_REQUEST', 'the request body must be a JSON object');
    }
    const parsed = ZAuthProxyInternalRequestSchema.safeParse(body);
    if (!parsed.success) throw fromZodIssues('request', parsed.error.issues);
    const { configId } = parsed.data;
    const row = await store.authProxyConfigs.findById(configId);
    if (!row || !row.enabled || !row.sealedProxyPrivateKey || !row.proxyApiKeyId) {
      throw new AppError('NOT_FOUND', `auth proxy config not found or disabled: ${configId}`, { configId });
    }
    const key = await store.credentials.findApiKeyById(row.organizationId, row.proxyApiKeyId);
    if (!key) throw new AppError('NOT_FOUND', `auth proxy config not found or disabled: ${configId}`, { configId });
    const otpVerifier = (await store.system.serverKeys()).find((k) => k.purpose === 'otp_verifier');
    if (!otpVerifier) throw new Error('the server key otp_verifier is missing; run `latchkey migrate`');
    return { config: configWire(row), proxyApiPublicKey: key.publicKey, sealedProxyPrivateKey: row.sealedProxyPrivateKey, otpVerifierPublicKey: otpVerifier.publicKey };
  };
}
