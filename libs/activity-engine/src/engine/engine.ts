/**
 * The engine's front door: one call per HTTP request, after which a route only serialises.
 * `query` serves reads (the caller's organization or its sub-organizations); `submit` performs
 * activities.
 */
import type { TKeyVault } from '@latchkey/crypto';
import { AppError, fromZodIssues, type TActivity } from '@latchkey/domain';
import type { TStore } from '@latchkey/persistence';
import { createActivityRegistry, type TActivityRegistry } from '../registry.js';
import { createQueryRegistry } from '../queries/registry.js';
import { createAuthCache, type TAuthCache } from './auth-cache.js';
import { createAuthenticator } from './authenticate.js';
import { clientAddressOf, createIpAllowlistGate } from './ip-allowlist.js';
import { activityForCaller } from './consensus.js';
import { createPolicyEvaluator, type TPolicyEvaluator } from './policy-decision.js';
import { unconfiguredServices, type TEngineServices } from './services.js';
import { isRecoveryKey, recoveryKeyRefused, submitActivity } from './submit-activity.js';

export interface TEngineOptions {
  store: TStore;
  vault: TKeyVault;
  timestampWindowMs: number;
  /** How long a waiting activity's votes count, from the first; default 24 h (LATCHKEY_APPROVAL_WINDOW_SECONDS). */
  approvalWindowMs?: number;
  now?: () => number;
  policy?: TPolicyEvaluator;
  registry?: TActivityRegistry;
  cache?: TAuthCache;
  /** Mail, SMS and OIDC for the login activities; without them those activities fail cleanly. */
  services?: TEngineServices;
  /**
   * Told of every activity a submission answers with (a vote: the voted-on activity), for the
   * metrics' count by type and status. Synchronous and cheap: it runs on the request's path.
   */
  onActivity?: (activity: Pick<TActivity, 'type' | 'status'>) => void;
}

/** Turnkey's documented approval window: votes lapse 24 hours after the first. */
export const DEFAULT_APPROVAL_WINDOW_MS = 86_400_000;

export type THeaders = Record<string, string | string[] | undefined>;

export function createEngine(opts: TEngineOptions) {
  const now = opts.now ?? Date.now;
  const cache = opts.cache ?? createAuthCache(opts.store, { now });
  const services = opts.services ?? unconfiguredServices();
  const { authenticate, refuseCachedStranger } = createAuthenticator(opts.store, cache, now, services);
  const registry = opts.registry ?? createActivityRegistry();
  const policy = opts.policy ?? createPolicyEvaluator();
  const queryByPath = createQueryRegistry();
  const approvalWindowMs = opts.approvalWindowMs ?? DEFAULT_APPROVAL_WINDOW_MS;
  // Every stamped request passes its organization's IP allowlists before anything is done for it.
  const assertClientAllowed = createIpAllowlistGate(cache);

  /**
   * Authenticates a read and checks the signer may read its target: the signer's own organization
   * or one of its sub-organizations. Recovery and attested credentials read nothing but whoami.
   * @throws AppError 401 (stamp), 400 (body), 404 (organization), 403 (not readable)
   */
  async function authorizeRead(headers: THeaders, raw: Buffer, opts: { loginViaParent?: boolean; path?: string } = {}) {
    const auth = await authenticate(headers, raw);
    const { principal, body } = auth;
    // whoami aimed at the parent with a sub-organization's key names the sub-organization.
    const organization = auth.loginOrganization && opts.loginViaParent ? auth.loginOrganization : auth.organization;
    if (isRecoveryKey(principal) && opts.path !== 'whoami') throw recoveryKeyRefused();
    if (principal.credential.kind === 'attested') throw new AppError('REQUEST_NOT_AUTHORIZED', 'request not authorized: an attested stamp can only submit stamp_login');
    const readable = principal.organizationId === organization.id || principal.organizationId === organization.parentOrganizationId;
    if (!readable) throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: the signer's organization cannot read organization ${organization.id}`);
    return { principal, organization, body };
  }

  return {
    cache,
    authorizeRead,
    /**
     * A refusal known from the headers alone (a stamp by a public key no live API key holds, a
     * cached miss), for the HTTP layer to answer before reading the body; `undefined` otherwise.
     * Exactly the error `query`/`submit` would throw for the same request.
     */
    refuseCachedStranger,
    /**
     * Answers `POST /public/v1/query/<path>`.
     * @throws AppError (401/400/403/404) — never for a fault of the server's own
     */
    async query(path: string, headers: THeaders, raw: Buffer): Promise<unknown> {
      const def = queryByPath(path);
      // Authenticate first: an unauthenticated caller learns nothing, not even which paths exist.
      if (!def) {
        await authenticate(headers, raw);
        throw new AppError('NOT_FOUND', `unknown query endpoint: /public/v1/query/${path}`);
      }
      const { principal, organization, body } = await authorizeRead(headers, raw, { loginViaParent: def.loginViaParent === true, path });
      const allowed = assertClientAllowed(principal, headers);
      if (allowed) await allowed;
      const req = def.request.safeParse(body);
      if (!req.success) throw fromZodIssues('request', req.error.issues);
      return def.handle({ store: opts.store, cache, principal, organization, services, consensus: { store: opts.store, registry, policy, approvalWindowMs } }, req.data);
    },

    /**
     * Answers `POST /public/v1/submit/<path>` with `{activity}`.
     * @throws AppError (401/400/403/404)
     */
    async submit(path: string, headers: THeaders, raw: Buffer): Promise<{ activity: TActivity }> {
      const { principal, body, organization, loginOrganization } = await authenticate(headers, raw);
      if (principal.credential.kind === 'read-only-session') {
        throw new AppError('UNAUTHENTICATED', 'X-Session: a read-only session can only query (POST /public/v1/query/*); submit activities with a stamp (X-Stamp or X-Stamp-Webauthn)');
      }
      await assertClientAllowed(principal, headers);
      const deps = { store: opts.store, vault: opts.vault, registry, policy, timestampWindowMs: opts.timestampWindowMs, approvalWindowMs, now, services, cache, onCommitted: (m: string) => cache.invalidate(m) };
      const activity = await submitActivity(deps, { path, principal, organization, loginOrganization, body, raw, clientAddress: clientAddressOf(headers) });
      opts.onActivity?.(activity);
      if (activity.status !== 'ACTIVITY_STATUS_CONSENSUS_NEEDED') return { activity };
      // A waiting activity carries its votes and what the caller may still do.
      const row = await opts.store.activities.findById(activity.organizationId, activity.id);
      return { activity: row ? await activityForCaller(deps, row, principal.userId, new Date(now())) : activity };
    },
  };
}
export type TEngine = ReturnType<typeof createEngine>;
