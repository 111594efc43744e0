/**
 * The list_email_events query (issue 16 §7), with the names of `@turnkey/sdk-types` 1.10's
 * `v1ListEmailEvents…` and `v1EmailEvent` types: a recipient's Send, Delivery and Bounce events
 * under one organization, newest first.
 */
import { z } from 'zod';
import { ZIdentifierSchema, ZPaginationOptionsSchema } from '../common.js';
import { emailAddress } from '../email-address.js';

export const EMAIL_EVENT_TYPES = ['Send', 'Delivery', 'Bounce', 'DeliveryDelay'] as const;

/** `v1ListEmailEventsRequest`; `eventType` `""` means every type. */
export const ZListEmailEventsRequestSchema = z.object({
  organizationId: ZIdentifierSchema,
  email: emailAddress(),
  eventType: z
    .union([z.literal(''), z.enum(EMAIL_EVENT_TYPES)], { error: `must be one of ${EMAIL_EVENT_TYPES.join(', ')}` })
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  paginationOptions: ZPaginationOptionsSchema.optional(),
});
export type TListEmailEventsRequest = z.output<typeof ZListEmailEventsRequestSchema>;

/** `v1EmailEventDetails` (the fields Latchkey fills). */
export interface TEmailEventDetailsWire {
  bounceType?: string;
  bounceSubType?: string;
  diagnosticCode?: string;
  deliverySmtpResponse?: string;
}

/** `v1EmailEvent`: timestamps in milliseconds since the epoch, as strings. */
export interface TEmailEventWire {
  id: string;
  organizationId: string;
  messageId: string;
  eventType: string;
  fromAddress: string;
  toAddress: string;
  timestamp: string;
  createdAt: string;
  details: TEmailEventDetailsWire;
}
