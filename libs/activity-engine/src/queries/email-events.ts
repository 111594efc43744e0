/**
 * list_email_events: one recipient's e-mail events under the organization (Send, Delivery,
 * Bounce; optionally one type), newest first, cursor-paged by event id. Recorded by
 * `identity/email-events.ts` for every e-mail an activity of the organization sent.
 */
import { ZListEmailEventsRequestSchema, type TEmailEventWire, type TListEmailEventsRequest } from '@latchkey/domain';
import type { TQueryDefinition } from './query-definition.js';

export const listEmailEvents: TQueryDefinition<TListEmailEventsRequest, { emailEvents: TEmailEventWire[] }> = {
  path: 'list_email_events',
  request: ZListEmailEventsRequestSchema,
  async handle(ctx, req) {
    const rows = await ctx.store.emailEvents.list(ctx.organization.id, req.email.toLowerCase(), req.eventType, req.paginationOptions ?? { limit: 10 });
    return {
      emailEvents: rows.map((r) => ({
        id: r.id,
        organizationId: r.organizationId,
        messageId: r.messageId,
        eventType: r.eventType,
        fromAddress: r.fromAddress,
        toAddress: r.toAddress,
        timestamp: String(r.occurredAt.getTime()),
        createdAt: String(r.createdAt.getTime()),
        details: r.details,
      })),
    };
  },
};
