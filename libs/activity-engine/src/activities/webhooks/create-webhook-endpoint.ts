/**
 * create_webhook_endpoint — an endpoint of the organization and its subscriptions. The URL is
 * checked and resolved before the activity's transaction (a refusal is a 400 and writes nothing);
 * the worker checks it again at every attempt.
 */
import { newId } from '@latchkey/crypto';
import {
  AppError,
  CREATE_WEBHOOK_ENDPOINT_ACTIVITY,
  MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION,
  ZCreateWebhookEndpointIntentSchema,
  type TCreateWebhookEndpointIntent,
  type TWebhookEndpointResult,
} from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertEventTypesAllowed, assertWebhookUrl } from './webhook-endpoints-shared.js';

export const createWebhookEndpoint: TActivityDefinition<TCreateWebhookEndpointIntent, TWebhookEndpointResult> = {
  ...CREATE_WEBHOOK_ENDPOINT_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateWebhookEndpointIntentSchema,
  precheck: (p, services) => assertWebhookUrl(services, p.url),
  async handle(ctx, p) {
    await assertEventTypesAllowed(ctx.tx, ctx.organizationId, p.subscriptions.map((s) => s.eventType));
    if ((await ctx.tx.webhookEndpoints.count(ctx.organizationId)) >= MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION) {
      throw new AppError('BAD_REQUEST', `an organization may have at most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION} webhook endpoints; delete one first`);
    }
    const endpointId = newId();
    const webhookEndpoint = await ctx.tx.webhookEndpoints.create({
      id: endpointId,
      organizationId: ctx.organizationId,
      url: p.url,
      name: p.name,
      // Ids made in order (UUIDv7), so the subscriptions list back in the order given.
      subscriptions: p.subscriptions.map((s) => ({ ...s, id: newId() })),
      now: ctx.now,
    });
    return { endpointId, webhookEndpoint };
  },
};
