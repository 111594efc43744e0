/**
 * E-mail events (issue 16 §7, list_email_events): what the mail server made of each message an
 * organization's activity sent — Send, Delivery (SMTP 250), Bounce (SMTP 5xx) — by recipient.
 * Written in the sending activity's transaction, or (a Bounce, whose activity then fails) outside it.
 */
import type { TDb } from '../database.js';
import { finishPage, planPage, type TPageRequest } from '../pagination.js';

export interface TEmailEventRow {
  id: string;
  organizationId: string;
  messageId: string;
  eventType: 'Send' | 'Delivery' | 'Bounce';
  fromAddress: string;
  toAddress: string;
  details: Record<string, string>;
  occurredAt: Date;
  createdAt: Date;
}

export function emailEventRepository(db: TDb) {
  return {
    async record(events: readonly Omit<TEmailEventRow, 'createdAt'>[]): Promise<void> {
      if (events.length === 0) return;
      await db.emailEvent.createMany({ data: events.map((e) => ({ ...e, createdAt: e.occurredAt })) });
    },
    /** A recipient's events (lower-cased address), newest first, cursor-paged by event id; optionally one type. */
    async list(organizationId: string, toAddress: string, eventType: string | undefined, page: TPageRequest): Promise<TEmailEventRow[]> {
      const plan = planPage('desc', page);
      const rows = await db.emailEvent.findMany({
        where: { organizationId, toAddress, ...(eventType !== undefined ? { eventType } : {}), ...(plan.idFilter ? { id: plan.idFilter } : {}) },
        orderBy: { id: plan.queryDirection },
        take: plan.take,
      });
      return finishPage(plan, rows).map((r) => ({ ...r, eventType: r.eventType as TEmailEventRow['eventType'], details: (r.details ?? {}) as Record<string, string> }));
    },
  };
}
export type TEmailEventRepository = ReturnType<typeof emailEventRepository>;
