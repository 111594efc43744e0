/**
 * IP allowlists, enforced (issue 16 §2). Every stamped request, once its stamp verifies and
 * before anything else is done for it, passes the allowlists of the organization its credential
 * lives in: the organization-level list (when `enabled`) and, for an API key, that key's own list.
 * A request from outside either is a 403 that names the rule set, never its rules.
 *
 * The client address is what the HTTP layer puts on the request's headers under `CLIENT_ADDRESS`
 * (a registry symbol, as the rate limiter's hook, so the engine imports no HTTP code): the socket
 * peer, or the X-Forwarded-For entry added by a proxy of LATCHKEY_TRUSTED_PROXIES — the address
 * the per-IP rate limit counts. A request without one (an in-process caller) or a rule that does
 * not parse is an evaluation error, decided by the list's `onEvaluationError` (default DENY).
 */
import { AppError, cidrContains, parseCidr, parseIpAddress, type TCidr } from '@latchkey/domain';
import type { TIpAllowlistRow } from '@latchkey/persistence';
import type { TAuthCache } from './auth-cache.js';
import type { TPrincipal } from './principal.js';

/** Where the HTTP layer puts the client address on a request's headers (`Symbol.for`, shared by name). */
export const CLIENT_ADDRESS = Symbol.for('latchkey.clientAddress');

/** The client address the HTTP layer recorded on these headers, if any. */
export function clientAddressOf(headers: object): string | undefined {
  const v = (headers as Record<symbol, unknown>)[CLIENT_ADDRESS];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Which list a verdict is about, as a refusal names it. */
export type TAllowlistScope = 'organization' | 'api-key';

type TVerdict = 'inside' | 'outside' | 'error';

const compiled = new WeakMap<TIpAllowlistRow, (TCidr | undefined)[]>();

/** Whether `address` is inside a list's rules; `error` when the address or a rule cannot be read. */
export function allowlistVerdict(list: Pick<TIpAllowlistRow, 'rules'>, address: string | undefined): TVerdict {
  const ip = address === undefined ? undefined : parseIpAddress(address);
  if (!ip) return 'error';
  let blocks = compiled.get(list as TIpAllowlistRow);
  if (!blocks) {
    blocks = list.rules.map((r) => {
      const b = parseCidr(r.cidr);
      return 'error' in b ? undefined : b;
    });
    compiled.set(list as TIpAllowlistRow, blocks);
  }
  if (blocks.some((b) => b !== undefined && cidrContains(b, ip))) return 'inside';
  return blocks.includes(undefined) ? 'error' : 'outside';
}

/** Whether a list lets the address through: inside, or an evaluation error the list forgives. */
export function allowlistAdmits(list: TIpAllowlistRow, address: string | undefined): boolean {
  const verdict = allowlistVerdict(list, address);
  return verdict === 'inside' || (verdict === 'error' && list.onEvaluationError === 'ALLOW');
}

/** The lists that apply to a credential of the organization: the enabled organization-level one, and an API key's own. */
export function applicableAllowlists(lists: readonly TIpAllowlistRow[], principal: TPrincipal): { scope: TAllowlistScope; list: TIpAllowlistRow }[] {
  const out: { scope: TAllowlistScope; list: TIpAllowlistRow }[] = [];
  const org = lists.find((l) => l.publicKey === '');
  if (org?.enabled) out.push({ scope: 'organization', list: org });
  if (principal.credential.kind === 'api-key') {
    const key = principal.credential.publicKey.toLowerCase();
    const own = lists.find((l) => l.publicKey === key);
    if (own) out.push({ scope: 'api-key', list: own });
  }
  return out;
}

/** The 403 of a request from outside a list: it names the rule set, not the rules nor the address. */
export function outsideAllowlist(scope: TAllowlistScope, organizationId: string): AppError {
  const which = scope === 'organization' ? `the IP allowlist of organization ${organizationId}` : `the IP allowlist of this API key in organization ${organizationId}`;
  return new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: the client address is not allowed by ${which}`, { ipAllowlist: scope, organizationId });
}

/**
 * The check every stamped request passes right after authentication. No lists (the common case)
 * costs one cache lookup.
 * @throws AppError REQUEST_NOT_AUTHORIZED (403) naming the list the address is outside of
 */
export function createIpAllowlistGate(cache: Pick<TAuthCache, 'ipAllowlists' | 'cached'>) {
  const check = (lists: readonly TIpAllowlistRow[], principal: TPrincipal, headers: object): void => {
    if (lists.length === 0) return;
    const address = clientAddressOf(headers);
    for (const { scope, list } of applicableAllowlists(lists, principal)) {
      if (!allowlistAdmits(list, address)) throw outsideAllowlist(scope, principal.organizationId);
    }
  };
  /**
   * Synchronous when the organization's lists are cached (the usual case: no promise hop on a warm
   * request), else a promise of the same verdict; both throw the same refusal.
   */
  return function assertClientAllowed(principal: TPrincipal, headers: object): Promise<void> | undefined {
    const cached = cache.cached.ipAllowlists(principal.organizationId);
    if (cached !== undefined) {
      check(cached, principal, headers);
      return undefined;
    }
    return cache.ipAllowlists(principal.organizationId).then((lists) => check(lists, principal, headers));
  };
}
