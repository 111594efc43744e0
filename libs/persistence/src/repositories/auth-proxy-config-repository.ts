/**
 * Auth proxy configurations: one per organization, found by organization (the activities and
 * get_auth_proxy_config) or by its id (the `X-Auth-Proxy-Config-ID` the proxy resolves). The proxy
 * user's private key is stored only sealed by the key vault; this layer stores what it is given.
 */
import type { TDb } from '../database.js';
import type { AuthProxyConfig, Prisma } from '../generated/prisma/client.js';

export interface TAuthProxyConfigRow {
  id: string;
  organizationId: string;
  enabled: boolean;
  proxyUserId: string | null;
  proxyApiKeyId: string | null;
  sealedProxyPrivateKey: string | null;
  proxyPolicyId: string | null;
  /** The stored settings document (defaults are the caller's to fill in). */
  settings: Record<string, unknown>;
}

export interface TAuthProxyEnable {
  id: string;
  organizationId: string;
  proxyUserId: string;
  proxyApiKeyId: string;
  sealedProxyPrivateKey: string;
  proxyPolicyId: string | null;
  settings: Record<string, unknown>;
  now: Date;
}

function toRow(r: AuthProxyConfig): TAuthProxyConfigRow {
  return {
    id: r.id,
    organizationId: r.organizationId,
    enabled: r.enabled,
    proxyUserId: r.proxyUserId,
    proxyApiKeyId: r.proxyApiKeyId,
    sealedProxyPrivateKey: r.sealedProxyPrivateKey,
    proxyPolicyId: r.proxyPolicyId,
    settings: (r.settings ?? {}) as Record<string, unknown>,
  };
}

export function authProxyConfigRepository(db: TDb) {
  return {
    async findByOrganization(organizationId: string): Promise<TAuthProxyConfigRow | null> {
      const r = await db.authProxyConfig.findFirst({ where: { organizationId } });
      return r ? toRow(r) : null;
    },
    async findById(id: string): Promise<TAuthProxyConfigRow | null> {
      const r = await db.authProxyConfig.findUnique({ where: { id } });
      return r ? toRow(r) : null;
    },
    /** Creates the organization's config, or re-enables its existing one with a new key. */
    async enable(e: TAuthProxyEnable): Promise<TAuthProxyConfigRow> {
      const data = {
        enabled: true,
        proxyUserId: e.proxyUserId,
        proxyApiKeyId: e.proxyApiKeyId,
        sealedProxyPrivateKey: e.sealedProxyPrivateKey,
        proxyPolicyId: e.proxyPolicyId,
        settings: e.settings as Prisma.InputJsonValue,
        updatedAt: e.now,
      };
      const r = await db.authProxyConfig.upsert({
        where: { organizationId: e.organizationId },
        create: { id: e.id, organizationId: e.organizationId, ...data, createdAt: e.now },
        update: data,
      });
      return toRow(r);
    },
    async updateSettings(organizationId: string, settings: Record<string, unknown>, now: Date): Promise<void> {
      await db.authProxyConfig.updateMany({ where: { organizationId }, data: { settings: settings as Prisma.InputJsonValue, updatedAt: now } });
    },
    /** Disables the config and forgets its sealed key (the API key row is the caller's to delete). */
    async disable(organizationId: string, now: Date): Promise<void> {
      await db.authProxyConfig.updateMany({ where: { organizationId }, data: { enabled: false, sealedProxyPrivateKey: null, proxyApiKeyId: null, updatedAt: now } });
    },
  };
}
