/**
 * Webhooks: endpoints and subscriptions (activities), and the delivery side an operator watches —
 * the per-endpoint delivery log (status, latency, attempt), dead letters, Redeliver (one event or
 * every dead letter of an endpoint), and the signing key id with the JWKS URL receivers verify
 * with. Reads are scoped like every query: the signer's organization or a sub-organization of it.
 * Redelivery changes no organization data — it resends events the endpoint was already entitled
 * to, with the same event id — so anyone who may read the endpoint may ask for it.
 */
import {
  AppError,
  CREATE_WEBHOOK_ENDPOINT_ACTIVITY,
  DELETE_WEBHOOK_ENDPOINT_ACTIVITY,
  UPDATE_WEBHOOK_ENDPOINT_ACTIVITY,
  ZCreateWebhookEndpointIntentSchema,
  ZDeleteWebhookEndpointIntentSchema,
  ZListWebhookEndpointsRequestSchema,
  ZUpdateWebhookEndpointIntentSchema,
  type TWebhookEndpointWire,
} from '@latchkey/domain';
import { z } from 'zod';
import type { TAdminContext } from '../trpc/context.js';
import { engineQuery, engineSubmit, orgScoped } from '../trpc/engine-calls.js';
import { router, stampedProcedure } from '../trpc/init.js';

const ZEndpointRefSchema = orgScoped({ endpointId: z.string().min(1).max(256) });

/**
 * Authorizes the read and checks the endpoint is the organization's own.
 * @throws AppError 401/403 (the engine's), NOT_FOUND for another organization's endpoint
 */
async function readableEndpoint(ctx: TAdminContext, input: { organizationId: string; endpointId: string }): Promise<void> {
  await ctx.services.engine.authorizeRead(ctx.headers, ctx.raw);
  const endpoints = await ctx.services.endpoints.list(input.organizationId);
  if (!endpoints.some((e) => e.endpointId === input.endpointId)) {
    throw new AppError('NOT_FOUND', `webhook endpoint not found: ${input.endpointId}`, { endpointId: input.endpointId });
  }
}

export const webhooksRouter = router({
  list: engineQuery<{ webhookEndpoints: TWebhookEndpointWire[] }, typeof ZListWebhookEndpointsRequestSchema>('list_webhook_endpoints', ZListWebhookEndpointsRequestSchema),
  create: engineSubmit(CREATE_WEBHOOK_ENDPOINT_ACTIVITY, ZCreateWebhookEndpointIntentSchema),
  update: engineSubmit(UPDATE_WEBHOOK_ENDPOINT_ACTIVITY, ZUpdateWebhookEndpointIntentSchema),
  delete: engineSubmit(DELETE_WEBHOOK_ENDPOINT_ACTIVITY, ZDeleteWebhookEndpointIntentSchema),

  log: stampedProcedure.input(ZEndpointRefSchema.extend({ limit: z.number().int().min(1).max(500).default(100) })).query(async ({ ctx, input }) => {
    await readableEndpoint(ctx, input);
    const entries = await ctx.services.deliveries.log(input.organizationId, input.endpointId, input.limit);
    return { entries: entries.map((e) => ({ ...e, at: e.at.toISOString(), nextAttemptAt: e.nextAttemptAt?.toISOString() ?? null })) };
  }),

  deadLetters: stampedProcedure.input(ZEndpointRefSchema).query(async ({ ctx, input }) => {
    await readableEndpoint(ctx, input);
    const rows = await ctx.services.deliveries.messages(input.organizationId, input.endpointId, 'dead');
    return {
      messages: rows.map((m) => ({ eventId: m.eventId, eventType: m.eventType, attempts: m.attempts, lastStatusCode: m.lastStatusCode, lastError: m.lastError, nextAttemptAt: m.nextAttemptAt.toISOString() })),
    };
  }),

  redeliver: stampedProcedure.input(ZEndpointRefSchema.extend({ eventId: z.string().min(1).max(256).optional() })).mutation(async ({ ctx, input }) => {
    await readableEndpoint(ctx, input);
    if (input.eventId !== undefined) {
      const all = await ctx.services.deliveries.messages(input.organizationId, input.endpointId);
      if (!all.some((m) => m.eventId === input.eventId)) throw new AppError('NOT_FOUND', `no delivery of event ${input.eventId} to endpoint ${input.endpointId}`, { eventId: input.eventId });
      return { redelivered: await ctx.services.deliveries.redeliver({ eventId: input.eventId }) };
    }
    return { redelivered: await ctx.services.deliveries.redeliver({ endpointId: input.endpointId, dead: true }) };
  }),

  signing: stampedProcedure.input(orgScoped({})).query(async ({ ctx }) => {
    await ctx.services.engine.authorizeRead(ctx.headers, ctx.raw);
    const current = await ctx.services.signingKeys.current();
    return { keyId: current?.keyId ?? null, jwksUrl: `${ctx.services.publicUrl}/public/v1/discovery/webhooks/jwks` };
  }),
});
