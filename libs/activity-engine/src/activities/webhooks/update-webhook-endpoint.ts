/**
 * update_webhook_endpoint — changes an endpoint's url, name or isActive (subscriptions cannot be
 * changed this way, §B1). Deactivating it dead-letters nothing by itself: the worker dead-letters
 * what is queued for an inactive endpoint when it comes to it ("endpoint inactive").
 */
import { exposeParams } from '@latchkey/policy';
import { UPDATE_WEBHOOK_ENDPOINT_ACTIVITY, ZUpdateWebhookEndpointIntentSchema, type TUpdateWebhookEndpointIntent, type TWebhookEndpointResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertWebhookUrl, endpointNotFound } from './webhook-endpoints-shared.js';

export const updateWebhookEndpoint: TActivityDefinition<TUpdateWebhookEndpointIntent, TWebhookEndpointResult> = {
  ...UPDATE_WEBHOOK_ENDPOINT_ACTIVITY,
  onFailure: 'reject',
  params: ZUpdateWebhookEndpointIntentSchema,
  policyParams: exposeParams({ endpointId: 'endpoint_id' }),
  async precheck(p, services) {
    if (p.url !== undefined) await assertWebhookUrl(services, p.url);
  },
  async handle(ctx, p) {
    const webhookEndpoint = await ctx.tx.webhookEndpoints.update(ctx.organizationId, p.endpointId, {
      ...(p.url !== undefined ? { url: p.url } : {}),
      ...(p.name !== undefined ? { name: p.name } : {}),
      ...(p.isActive !== undefined ? { isActive: p.isActive } : {}),
      now: ctx.now,
    });
    if (!webhookEndpoint) throw endpointNotFound(p.endpointId);
    return { endpointId: p.endpointId, webhookEndpoint };
  },
};
