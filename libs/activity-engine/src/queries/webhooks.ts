/** list_webhook_endpoints: an organization's webhook endpoints with their subscriptions (`WebhookEndpointData`, §B1). */
import { ZListWebhookEndpointsRequestSchema, type TListWebhookEndpointsRequest, type TWebhookEndpointWire } from '@latchkey/domain';
import type { TQueryDefinition } from './query-definition.js';

export const listWebhookEndpoints: TQueryDefinition<TListWebhookEndpointsRequest, { webhookEndpoints: TWebhookEndpointWire[] }> = {
  path: 'list_webhook_endpoints',
  request: ZListWebhookEndpointsRequestSchema,
  async handle(ctx) {
    return { webhookEndpoints: await ctx.store.webhookEndpoints.list(ctx.organization.id) };
  },
};
