/**
 * Webhook endpoints and their subscriptions, per organization: what the engine's
 * create/update/delete_webhook_endpoint activities and the list_webhook_endpoints query read and
 * write, inside the activity's transaction like every other repository (bind it with a
 * transaction client). Answers are `WebhookEndpointData` (§B1) as the wire shows them, so the
 * handlers only validate and call. Validation (URL rules, event types, JSON filters) is the
 * caller's: this layer stores what it is given.
 */
import type { TDb } from '../database.js';
import type { WebhookEndpoint, WebhookSubscription } from '../generated/prisma/client.js';

/** A subscription as the wire shows it (`filtersJson` stored verbatim and echoed, not applied). */
export interface TWebhookSubscriptionData {
  eventType: string;
  filtersJson?: string;
  isActive?: boolean;
}

/** `WebhookEndpointData` of §B1: no timestamps on the wire. */
export interface TWebhookEndpointData {
  endpointId: string;
  organizationId: string;
  url: string;
  name: string;
  isActive: boolean;
  subscriptions: TWebhookSubscriptionData[];
}

export interface TNewWebhookEndpoint {
  /** The endpoint id (a UUIDv7 from `newId()`). */
  id: string;
  organizationId: string;
  url: string;
  name: string;
  /** In the order given; each with its own id (UUIDv7, increasing) so the order is kept. */
  subscriptions: (TWebhookSubscriptionData & { id: string })[];
  now: Date;
}

export interface TWebhookEndpointChanges {
  url?: string;
  name?: string;
  isActive?: boolean;
  now: Date;
}

function toData(e: WebhookEndpoint, subs: readonly WebhookSubscription[]): TWebhookEndpointData {
  return {
    endpointId: e.id,
    organizationId: e.organizationId,
    url: e.url,
    name: e.name,
    isActive: e.isActive,
    subscriptions: subs.map((s) => ({ eventType: s.eventType, ...(s.filtersJson !== null ? { filtersJson: s.filtersJson } : {}), isActive: s.isActive })),
  };
}

export function webhookEndpointRepository(db: TDb) {
  async function subscriptionsOf(organizationId: string, endpointIds: readonly string[]): Promise<Map<string, WebhookSubscription[]>> {
    const out = new Map<string, WebhookSubscription[]>();
    if (endpointIds.length === 0) return out;
    const rows = await db.webhookSubscription.findMany({ where: { organizationId, endpointId: { in: [...endpointIds] } }, orderBy: { id: 'asc' } });
    for (const s of rows) out.set(s.endpointId, [...(out.get(s.endpointId) ?? []), s]);
    return out;
  }

  async function get(organizationId: string, endpointId: string): Promise<TWebhookEndpointData | null> {
    const e = await db.webhookEndpoint.findFirst({ where: { organizationId, id: endpointId } });
    if (!e) return null;
    return toData(e, (await subscriptionsOf(organizationId, [e.id])).get(e.id) ?? []);
  }

  return {
    get,

    /** The endpoint and its subscriptions (call inside the activity's transaction). */
    async create(n: TNewWebhookEndpoint): Promise<TWebhookEndpointData> {
      const e = await db.webhookEndpoint.create({ data: { id: n.id, organizationId: n.organizationId, url: n.url, name: n.name, isActive: true, createdAt: n.now, updatedAt: n.now } });
      if (n.subscriptions.length > 0) {
        await db.webhookSubscription.createMany({
          data: n.subscriptions.map((s) => ({ id: s.id, organizationId: n.organizationId, endpointId: n.id, eventType: s.eventType, filtersJson: s.filtersJson ?? null, isActive: s.isActive ?? true })),
        });
      }
      return toData(e, (await subscriptionsOf(n.organizationId, [n.id])).get(n.id) ?? []);
    },

    /** Changes url, name or isActive; null when the organization has no such endpoint. */
    async update(organizationId: string, endpointId: string, c: TWebhookEndpointChanges): Promise<TWebhookEndpointData | null> {
      const { count } = await db.webhookEndpoint.updateMany({
        where: { organizationId, id: endpointId },
        data: { ...(c.url !== undefined ? { url: c.url } : {}), ...(c.name !== undefined ? { name: c.name } : {}), ...(c.isActive !== undefined ? { isActive: c.isActive } : {}), updatedAt: c.now },
      });
      return count === 0 ? null : get(organizationId, endpointId);
    },

    /**
     * Deletes the endpoint and its subscriptions; its queued messages become dead letters ("endpoint
     * deleted") so the delivery log still explains them. False when there was no such endpoint.
     */
    async delete(organizationId: string, endpointId: string): Promise<boolean> {
      const { count } = await db.webhookEndpoint.deleteMany({ where: { organizationId, id: endpointId } });
      if (count === 0) return false;
      await db.webhookSubscription.deleteMany({ where: { organizationId, endpointId } });
      await db.webhookMessage.updateMany({
        where: { organizationId, endpointId, status: { in: ['pending', 'delivering'] } },
        data: { status: 'dead', leaseUntil: null, lastError: 'endpoint deleted', updatedAt: new Date() },
      });
      return true;
    },

    /** The organization's endpoints, oldest first. */
    async list(organizationId: string): Promise<TWebhookEndpointData[]> {
      const rows = await db.webhookEndpoint.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });
      const subs = await subscriptionsOf(organizationId, rows.map((e) => e.id));
      return rows.map((e) => toData(e, subs.get(e.id) ?? []));
    },

    /** How many endpoints the organization has (for a per-organization limit). */
    async count(organizationId: string): Promise<number> {
      return db.webhookEndpoint.count({ where: { organizationId } });
    },
  };
}

export type TWebhookEndpointRepository = ReturnType<typeof webhookEndpointRepository>;
