/**
 * Wire schemas of webhook endpoints (notes §B1): create / update / delete_webhook_endpoint and the
 * list_webhook_endpoints query, with the names of `@turnkey/http` 6.6's `v1…WebhookEndpoint…`
 * types. What a URL may be is checked by the handlers (it needs name resolution); what can be
 * checked without I/O — the event types, `filtersJson` being JSON, a non-empty name — is here.
 */
import { z } from 'zod';
import { ZIdentifierSchema } from '../common.js';
import { defineActivityWire } from '../activity.js';

/**
 * The event types an endpoint may subscribe to. Only ACTIVITY_UPDATES is produced today; the
 * others are accepted and stored, and delivered once the features that produce them exist.
 */
export const WEBHOOK_EVENT_TYPES = ['ACTIVITY_UPDATES', 'BALANCE_CONFIRMED_UPDATES', 'BALANCE_FINALIZED_UPDATES', 'SEND_TRANSACTION_STATUS_UPDATES'] as const;
export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Turnkey's billing-organization-only event types: a sub-organization may not subscribe to them (§B1). */
export const BILLING_ORGANIZATION_WEBHOOK_EVENT_TYPES: ReadonlySet<string> = new Set(['BALANCE_CONFIRMED_UPDATES', 'BALANCE_FINALIZED_UPDATES', 'SEND_TRANSACTION_STATUS_UPDATES']);

/** Endpoints one organization may have; a bound so one customer cannot fill the delivery queue's fan-out. */
export const MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION = 50;

const url = z.string().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters');
const name = z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters');

/** `filtersJson`: any JSON text, stored verbatim and echoed (Turnkey does not apply it yet). */
const filtersJson = z
  .string()
  .max(8192, 'must be at most 8192 characters')
  .refine(
    (s) => {
      try {
        JSON.parse(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be valid JSON (e.g. "{}")' },
  );

/** `v1WebhookSubscriptionParams`. */
export const ZWebhookSubscriptionParamsSchema = z.object({
  eventType: z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }),
  filtersJson: filtersJson.optional(),
  isActive: z.boolean().optional(),
});
export type TWebhookSubscriptionParams = z.output<typeof ZWebhookSubscriptionParamsSchema>;

/** `v1CreateWebhookEndpointIntent`: `subscriptions` is optional on the wire (an endpoint with none receives nothing). */
export const ZCreateWebhookEndpointIntentSchema = z.object({
  url,
  name,
  subscriptions: z.array(ZWebhookSubscriptionParamsSchema).max(WEBHOOK_EVENT_TYPES.length * 4, `must have at most ${WEBHOOK_EVENT_TYPES.length * 4} entries`).default([]),
});
export type TCreateWebhookEndpointIntent = z.output<typeof ZCreateWebhookEndpointIntentSchema>;

/** `v1UpdateWebhookEndpointIntent`: subscriptions cannot be changed this way (§B1). */
export const ZUpdateWebhookEndpointIntentSchema = z.object({
  endpointId: ZIdentifierSchema,
  url: url.optional(),
  name: name.optional(),
  isActive: z.boolean().optional(),
});
export type TUpdateWebhookEndpointIntent = z.output<typeof ZUpdateWebhookEndpointIntentSchema>;

export const ZDeleteWebhookEndpointIntentSchema = z.object({ endpointId: ZIdentifierSchema });
export type TDeleteWebhookEndpointIntent = z.output<typeof ZDeleteWebhookEndpointIntentSchema>;

/** `v1WebhookEndpointData`: no timestamps on the wire. */
export interface TWebhookEndpointWire {
  endpointId: string;
  organizationId: string;
  url: string;
  name: string;
  isActive: boolean;
  subscriptions: { eventType: string; filtersJson?: string; isActive?: boolean }[];
}

/** `v1CreateWebhookEndpointResult` and `v1UpdateWebhookEndpointResult`. */
export interface TWebhookEndpointResult extends Record<string, unknown> {
  endpointId: string;
  webhookEndpoint: TWebhookEndpointWire;
}

/** `v1DeleteWebhookEndpointResult`. */
export interface TDeleteWebhookEndpointResult extends Record<string, unknown> {
  endpointId: string;
}

/** `v1ListWebhookEndpointsRequest`. */
export const ZListWebhookEndpointsRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TListWebhookEndpointsRequest = z.output<typeof ZListWebhookEndpointsRequestSchema>;

/** Wire names of `create_webhook_endpoint`. */
export const CREATE_WEBHOOK_ENDPOINT_ACTIVITY = defineActivityWire('create_webhook_endpoint', [
  { type: 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', intentKey: 'createWebhookEndpointIntent', resultKey: 'createWebhookEndpointResult' },
]);

/** Wire names of `update_webhook_endpoint`. */
export const UPDATE_WEBHOOK_ENDPOINT_ACTIVITY = defineActivityWire('update_webhook_endpoint', [
  { type: 'ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT', intentKey: 'updateWebhookEndpointIntent', resultKey: 'updateWebhookEndpointResult' },
]);

/** Wire names of `delete_webhook_endpoint`. */
export const DELETE_WEBHOOK_ENDPOINT_ACTIVITY = defineActivityWire('delete_webhook_endpoint', [
  { type: 'ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT', intentKey: 'deleteWebhookEndpointIntent', resultKey: 'deleteWebhookEndpointResult' },
]);
