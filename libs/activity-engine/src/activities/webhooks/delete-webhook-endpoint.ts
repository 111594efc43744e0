/**
 * delete_webhook_endpoint — removes an endpoint and its subscriptions; what was still queued for
 * it becomes dead letters ("endpoint deleted"), so the delivery log keeps explaining them.
 */
import { exposeParams } from '@latchkey/policy';
import { DELETE_WEBHOOK_ENDPOINT_ACTIVITY, ZDeleteWebhookEndpointIntentSchema, type TDeleteWebhookEndpointIntent, type TDeleteWebhookEndpointResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { endpointNotFound } from './webhook-endpoints-shared.js';

export const deleteWebhookEndpoint: TActivityDefinition<TDeleteWebhookEndpointIntent, TDeleteWebhookEndpointResult> = {
  ...DELETE_WEBHOOK_ENDPOINT_ACTIVITY,
  onFailure: 'reject',
  params: ZDeleteWebhookEndpointIntentSchema,
  policyParams: exposeParams({ endpointId: 'endpoint_id' }),
  async handle(ctx, p) {
    if (!(await ctx.tx.webhookEndpoints.delete(ctx.organizationId, p.endpointId))) throw endpointNotFound(p.endpointId);
    return { endpointId: p.endpointId };
  },
};
