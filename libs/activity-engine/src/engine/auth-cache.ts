/**
 * A read-through cache of the facts every request needs (an organization's parent, API keys by
 * public key, user names) and of signing keys (sealed), so a stamped request costs no database
 * round trip once warm, and a signature one (its activity's insert). Only
 * hits are cached — a key created a moment ago is never hidden by a cached miss — and entries are
 * dropped on the change feed (LISTEN/NOTIFY, shared by every process) and after a short TTL, the
 * safety net should a notification be lost.
 */
import type { ApiKey, Organization, RootQuorumMember, TAccountKeySource, TSigningKeyRow, TStore, User } from '@latchkey/persistence';

export interface TAuthCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

class TtlMap<V> {
  private readonly map = new Map<string, { value: V; expires: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}
  get(k: string): V | undefined {
    const e = this.map.get(k);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.map.delete(k);
      return undefined;
    }
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
  user(organizationId: string, userId: string): Promise<User | null>;
  /** The organization's root quorum members (the policy engine's first read of every activity). */
  rootQuorumMembers(organizationId: string): Promise<RootQuorumMember[]>;
  /**
   * What signing with `signWith` opens: a wallet account's key source, else a private key (by id or
   * address); null when neither exists. Sealed values only — the vault opens them per signature.
   * Dropped on the `signer` topic (deletions) and with the organization.
   */
  signer(organizationId: string, signWith: string): Promise<TSigner | null>;
  /** Handles a change-feed message (`topic:key`, or `*` for everything). */
  invalidate(message: string): void;
}

export type TSigner = { kind: 'account'; account: TAccountKeySource } | { kind: 'private-key'; key: TSigningKeyRow };

export function createAuthCache(store: TStore, opts: TAuthCacheOptions = {}): TAuthCache {
  const ttl = opts.ttlMs ?? 30_000;
  const max = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const orgs = new TtlMap<Organization>(ttl, max, now);
  const keys = new TtlMap<ApiKey[]>(ttl, max, now);
  const users = new TtlMap<User>(ttl, max, now);
  const quorums = new TtlMap<RootQuorumMember[]>(ttl, max, now);
  const signers = new TtlMap<TSigner>(ttl, max, now);
  return {
    async organization(id) {
      const hit = orgs.get(id);
      if (hit) return hit;
      const org = await store.organizations.findById(id);
      if (org) orgs.set(id, org);
      return org;
    },
    async apiKeys(organizationIds, publicKey) {
      const k = `${organizationIds.join(',')}|${publicKey}`;
      const hit = keys.get(k);
      if (hit) return hit;
      const found = await store.credentials.findApiKeys(organizationIds, publicKey);
      if (found.length > 0) keys.set(k, found);
      return found;
    },
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
    invalidate(message) {
      const topic = message.split(':', 1)[0];
      if (topic === 'signer' || topic === 'organization' || message === '*') signers.clear();
      if (topic === 'credential' || message === '*') keys.clear();
      if (topic === 'organization' || message === '*') {
        orgs.clear();
        quorums.clear();
      }
      if (topic === 'user' || message === '*') users.clear();
    },
  };
}
