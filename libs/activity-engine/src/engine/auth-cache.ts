/**
 * A read-through cache of the facts every request needs (an organization's parent, API keys by
 * public key, user names) and of signing keys (sealed), so a stamped request costs no database
 * round trip once warm, and a signature one (its activity's insert). Entries are dropped on the
 * change feed (LISTEN/NOTIFY, shared by every process) and after a short TTL, the safety net should
 * a notification be lost.
 *
 * Misses are cached only where a stranger can make us look: an organization id and a stamp's
 * public key. Refusing a stranger must cost less than serving a customer, and a stranger repeating
 * one unknown key or organization would otherwise cost database round trips at every request. A
 * cached miss is short-lived (`missTtlMs`, default 1 s), bounded (`maxEntries`), dropped by the
 * same change-feed topics as the hits it stands for (`credential`, `organization`, `*`), and never
 * recorded from a lookup that a change overtook (a generation counter), so a key created through
 * an activity that announces it (create_api_keys, create_users) is usable at once. Key creations
 * that announce nothing on the feed (today: the login activities' session keys and a new
 * sub-organization's keys) stay hidden behind a miss cached before them for at most `missTtlMs`.
 */
import type { ApiKey, Organization, RootQuorumMember, TAccountKeySource, TIpAllowlistRow, TMfaPolicyRow, TSigningKeyRow, TStore, User } from '@latchkey/persistence';

export interface TAuthCacheOptions {
  ttlMs?: number;
  /** How long a miss (no such organization, no such key) is trusted. Default 1000 ms. */
  missTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

class TtlMap<V> {
  private readonly map = new Map<string, { value: V; expires: number }>();
  /** Lookups answered from the map, and not (absent or expired): read by the metrics on scrape. */
  hits = 0;
  misses = 0;
  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}
  get(k: string): V | undefined {
    const e = this.map.get(k);
    if (!e) {
      this.misses++;
      return undefined;
    }
    if (e.expires <= this.now()) {
      this.map.delete(k);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return e.value;
  }
  /**
   * `get` for a synchronous first try: a hit counts as one, a miss is not counted (the lookup that
   * follows it counts it), so a request that peeks and then looks up is counted once.
   */
  peek(k: string): V | undefined {
    const e = this.map.get(k);
    if (e === undefined || e.expires <= this.now()) return undefined;
    this.hits++;
    return e.value;
  }
  set(k: string, value: V): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    this.map.set(k, { value, expires: this.now() + this.ttlMs });
  }
  clear(): void {
    this.map.clear();
  }
}

export interface TAuthCache {
  organization(id: string): Promise<Organization | null>;
  /** Live API keys with this public key in any of the organizations. */
  apiKeys(organizationIds: string[], publicKey: string): Promise<ApiKey[]>;
  /**
   * The API keys a stamp by `publicKey` aimed at `organization` may name: in the organization or
   * its parent (`own`), else in its live sub-organizations (`inSubOrganizations`, only looked up
   * when `own` is empty). Both empty is a miss, and is cached: an unknown key costs a map lookup.
   */
  stampApiKeys(organization: Organization, publicKey: string): Promise<{ own: ApiKey[]; inSubOrganizations: ApiKey[] }>;
  /**
   * Whether any live API key, in any organization, holds `publicKey`. A stamp by a key nobody
   * holds is refused on this alone, before its body is read. `false` is a miss, cached for
   * `missTtlMs` and dropped with the key misses; `true` is cached for the TTL (a stale `true` only
   * sends the request on to the organization's own lookup).
   */
  publicKeyHeld(publicKey: string): Promise<boolean>;
  user(organizationId: string, userId: string): Promise<User | null>;
  /** The organization's root quorum members (the policy engine's first read of every activity). */
  rootQuorumMembers(organizationId: string): Promise<RootQuorumMember[]>;
  /**
   * What signing with `signWith` opens: a wallet account's key source, else a private key (by id or
   * address); null when neither exists. Sealed values only — the vault opens them per signature.
   * Dropped on the `signer` topic (deletions) and with the organization.
   */
  signer(organizationId: string, signWith: string): Promise<TSigner | null>;
  /**
   * An organization's IP allowlists (checked on every stamped request). Unlike other lookups the
   * empty answer is cached too — it is the common one — and dropped with the rest on the
   * `ip-allowlist` topic, which set/remove_ip_allowlist announce.
   */
  ipAllowlists(organizationId: string): Promise<TIpAllowlistRow[]>;
  /**
   * An organization's MFA policies, every user's, in evaluation order (checked on every
   * submission). The empty answer is cached too, so an organization without MFA policies pays a
   * map lookup; dropped on the `mfa-policy` topic, which create/update/delete_mfa_policy announce.
   */
  mfaPolicies(organizationId: string): Promise<TMfaPolicyRow[]>;
  /**
   * The per-request lookups answered from memory only, synchronously: `undefined` when the answer
   * is not cached (then ask the async lookup, which fetches it). A warm request pays no promise
   * hop for them. `organization` answers null for a cached miss.
   */
  cached: {
    organization(id: string): Organization | null | undefined;
    stampApiKeys(organization: Organization, publicKey: string): { own: ApiKey[]; inSubOrganizations: ApiKey[] } | undefined;
    publicKeyHeld(publicKey: string): boolean | undefined;
    user(organizationId: string, userId: string): User | undefined;
    ipAllowlists(organizationId: string): TIpAllowlistRow[] | undefined;
  };
  /** Handles a change-feed message (`topic:key`, or `*` for everything). */
  invalidate(message: string): void;
  /**
   * Lookups served from each map and not, since the process started (two integer increments per
   * lookup; the metrics read them on scrape). `*_misses` maps hold refusals: a hit there is an
   * unknown organization or key refused without the database.
   */
  stats(): Record<TAuthCacheMap, { hits: number; misses: number }>;
}

/** The maps of the auth cache, as the metrics name them (the `cache` label). */
export type TAuthCacheMap = 'organizations' | 'organization_misses' | 'api_keys' | 'api_key_misses' | 'public_keys' | 'public_key_misses' | 'users' | 'root_quorums' | 'signers' | 'ip_allowlists' | 'mfa_policies';

export type TSigner = { kind: 'account'; account: TAccountKeySource } | { kind: 'private-key'; key: TSigningKeyRow };

export function createAuthCache(store: TStore, opts: TAuthCacheOptions = {}): TAuthCache {
  const ttl = opts.ttlMs ?? 30_000;
  const missTtl = opts.missTtlMs ?? 1_000;
  const max = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const orgs = new TtlMap<Organization>(ttl, max, now);
  const keys = new TtlMap<ApiKey[]>(ttl, max, now);
  const orgMisses = new TtlMap<true>(missTtl, max, now);
  const keyMisses = new TtlMap<true>(missTtl, max, now);
  const heldKeys = new TtlMap<true>(ttl, max, now);
  const absentKeys = new TtlMap<true>(missTtl, max, now);
  // Bumped whenever misses are dropped: a lookup that started before a change must not record the
  // miss it saw (the change may be the very key it missed), or the drop would be undone.
  let orgGeneration = 0;
  let keyGeneration = 0;
  const users = new TtlMap<User>(ttl, max, now);
  const quorums = new TtlMap<RootQuorumMember[]>(ttl, max, now);
  const signers = new TtlMap<TSigner>(ttl, max, now);
  const allowlists = new TtlMap<TIpAllowlistRow[]>(ttl, max, now);
  // As for misses: a read that a change overtook must not be stored over the drop.
  let allowlistGeneration = 0;
  const mfa = new TtlMap<TMfaPolicyRow[]>(ttl, max, now);
  let mfaGeneration = 0;
  async function apiKeys(organizationIds: string[], publicKey: string): Promise<ApiKey[]> {
    const k = `${organizationIds.join(',')}|${publicKey}`;
    const hit = keys.get(k);
    if (hit) return hit;
    const found = await store.credentials.findApiKeys(organizationIds, publicKey);
    if (found.length > 0) keys.set(k, found);
    return found;
  }
  const maps: Record<TAuthCacheMap, TtlMap<unknown>> = {
    organizations: orgs,
    organization_misses: orgMisses,
    api_keys: keys,
    api_key_misses: keyMisses,
    public_keys: heldKeys,
    public_key_misses: absentKeys,
    users,
    root_quorums: quorums,
    signers,
    ip_allowlists: allowlists,
    mfa_policies: mfa,
  };
  const ownKeysKey = (organization: Organization, publicKey: string) =>
    organization.parentOrganizationId ? `${organization.id},${organization.parentOrganizationId}|${publicKey}` : `${organization.id}|${publicKey}`;
  return {
    cached: {
      organization(id) {
        const hit = orgs.peek(id);
        if (hit !== undefined) return hit;
        return orgMisses.peek(id) ? null : undefined;
      },
      stampApiKeys(organization, publicKey) {
        // In the order of stampApiKeys: a cached miss first, then the organization's and its parent's keys.
        if (keyMisses.peek(`${organization.id}|${publicKey}`)) return { own: [], inSubOrganizations: [] };
        const own = keys.peek(ownKeysKey(organization, publicKey));
        return own === undefined ? undefined : { own, inSubOrganizations: [] };
      },
      publicKeyHeld(publicKey) {
        if (absentKeys.peek(publicKey)) return false;
        return heldKeys.peek(publicKey);
      },
      user: (organizationId, userId) => users.peek(`${organizationId}|${userId}`),
      ipAllowlists: (organizationId) => allowlists.peek(organizationId),
    },
    stats() {
      const out = {} as Record<TAuthCacheMap, { hits: number; misses: number }>;
      for (const [name, m] of Object.entries(maps) as Array<[TAuthCacheMap, TtlMap<unknown>]>) out[name] = { hits: m.hits, misses: m.misses };
      return out;
    },
    async organization(id) {
      const hit = orgs.get(id);
      if (hit) return hit;
      if (orgMisses.get(id)) return null;
      const generation = orgGeneration;
      const org = await store.organizations.findById(id);
      if (org) orgs.set(id, org);
      else if (generation === orgGeneration) orgMisses.set(id, true);
      return org;
    },
    async stampApiKeys(organization, publicKey) {
      const missKey = `${organization.id}|${publicKey}`;
      if (keyMisses.get(missKey)) return { own: [], inSubOrganizations: [] };
      const generation = keyGeneration;
      const own = await apiKeys(organization.parentOrganizationId ? [organization.id, organization.parentOrganizationId] : [organization.id], publicKey);
      if (own.length > 0) return { own, inSubOrganizations: [] };
      const inSubOrganizations = await store.logins.apiKeysInSubOrganizations(organization.id, publicKey);
      if (inSubOrganizations.length === 0 && generation === keyGeneration) keyMisses.set(missKey, true);
      return { own, inSubOrganizations };
    },
    async publicKeyHeld(publicKey) {
      if (heldKeys.get(publicKey)) return true;
      if (absentKeys.get(publicKey)) return false;
      const generation = keyGeneration;
      const held = await store.credentials.publicKeyHeld(publicKey);
      if (held) heldKeys.set(publicKey, true);
      else if (generation === keyGeneration) absentKeys.set(publicKey, true);
      return held;
    },
    apiKeys,
    async user(organizationId, userId) {
      const k = `${organizationId}|${userId}`;
      const hit = users.get(k);
      if (hit) return hit;
      const u = await store.users.findById(organizationId, userId);
      if (u) users.set(k, u);
      return u;
    },
    async rootQuorumMembers(organizationId) {
      const hit = quorums.get(organizationId);
      if (hit) return hit;
      const members = await store.organizations.rootQuorumMembers(organizationId);
      quorums.set(organizationId, members);
      return members;
    },
    async signer(organizationId, signWith) {
      const k = `${organizationId}|${signWith}`;
      const hit = signers.get(k);
      if (hit) return hit;
      const account = await store.wallets.findAccountKeySource(organizationId, signWith);
      const found: TSigner | null = account ? { kind: 'account', account } : await store.privateKeys.findSigningKey(organizationId, signWith).then((key) => (key ? { kind: 'private-key', key } : null));
      if (found) signers.set(k, found);
      return found;
    },
    async ipAllowlists(organizationId) {
      const hit = allowlists.get(organizationId);
      if (hit) return hit;
      const generation = allowlistGeneration;
      const lists = await store.ipAllowlists.listByOrganization(organizationId);
      if (generation === allowlistGeneration) allowlists.set(organizationId, lists);
      return lists;
    },
    async mfaPolicies(organizationId) {
      const hit = mfa.get(organizationId);
      if (hit) return hit;
      const generation = mfaGeneration;
      const policies = await store.mfaPolicies.listByOrganization(organizationId);
      if (generation === mfaGeneration) mfa.set(organizationId, policies);
      return policies;
    },
    invalidate(message) {
      const topic = message.split(':', 1)[0];
      if (topic === 'mfa-policy' || topic === 'organization' || topic === 'user' || message === '*') {
        mfa.clear();
        mfaGeneration++;
      }
      if (topic === 'ip-allowlist' || topic === 'organization' || message === '*') {
        allowlists.clear();
        allowlistGeneration++;
      }
      if (topic === 'signer' || topic === 'organization' || message === '*') signers.clear();
      if (topic === 'credential' || message === '*') {
        keys.clear();
        heldKeys.clear();
      }
      // A miss of a key stands until a key may have appeared: a credential change, or an
      // organization's (a sub-organization and its keys).
      // `credential-added` (a session key, a new sub-organization's keys) drops only the misses:
      // no cached key changed, so the hits stay.
      if (topic === 'credential' || topic === 'credential-added' || topic === 'organization' || message === '*') {
        keyMisses.clear();
        absentKeys.clear();
        keyGeneration++;
      }
      if (topic === 'organization' || message === '*') {
        orgs.clear();
        quorums.clear();
        orgMisses.clear();
        orgGeneration++;
      }
      if (topic === 'user' || message === '*') users.clear();
    },
  };
}
