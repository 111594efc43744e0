/**
 * The proxy's view of its configs: read from the public API's internal endpoint by a request
 * sealed with the installation's master key, the proxy user's key opened here with the same key
 * (so it never crosses the wire in the clear and the proxy never touches the database), and kept
 * for `ttlMs` so a burst of requests costs one read. A disabled or unknown config is remembered
 * for the same time (cheap refusals), so a change is seen within `ttlMs`.
 */
import { sealInternalRequest, type TKeyVault } from '@latchkey/crypto';
import { AppError, AUTH_PROXY_INTERNAL_AAD, AUTH_PROXY_INTERNAL_HEADER, AUTH_PROXY_INTERNAL_PATH, authProxyKeyAad, type TAuthProxyRuntime } from '@latchkey/domain';
import { appErrorOfResponse } from './public-api-client.js';

export interface TProxyConfig extends TAuthProxyRuntime {
  /** The proxy user's private key (hex), opened from the sealed copy. Never logged. */
  privateKeyHex: string;
}

export type TConfigSource = (configId: string) => Promise<TProxyConfig>;

export function createConfigSource(o: { publicApiUrl: string; vault: TKeyVault; ttlMs?: number; now?: () => number }): TConfigSource {
  const ttl = o.ttlMs ?? 1000;
  const now = o.now ?? Date.now;
  const cache = new Map<string, { at: number; value: Promise<TProxyConfig> }>();

  async function load(configId: string): Promise<TProxyConfig> {
    const body = Buffer.from(JSON.stringify({ configId }));
    let res: Response;
    try {
      res = await fetch(`${o.publicApiUrl}${AUTH_PROXY_INTERNAL_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [AUTH_PROXY_INTERNAL_HEADER]: sealInternalRequest(o.vault, AUTH_PROXY_INTERNAL_AAD, body, now()) },
        body,
      });
    } catch {
      throw new AppError('UNAVAILABLE', 'the auth proxy cannot reach the public API; retry later');
    }
    if (!res.ok) throw await appErrorOfResponse(res);
    const runtime = (await res.json()) as TAuthProxyRuntime;
    const privateKeyHex = Buffer.from(o.vault.open(runtime.sealedProxyPrivateKey, authProxyKeyAad(runtime.config.configId))).toString('hex');
    return { ...runtime, privateKeyHex };
  }

  return (configId) => {
    const t = now();
    const hit = cache.get(configId);
    if (hit && t - hit.at < ttl) return hit.value;
    if (cache.size > 10_000) cache.clear();
    const value = load(configId);
    cache.set(configId, { at: t, value });
    // A failure other than "not found" (the API restarting) is not remembered.
    value.catch((e: unknown) => {
      if (!(e instanceof AppError && e.code === 'NOT_FOUND')) cache.delete(configId);
    });
    return value;
  };
}
