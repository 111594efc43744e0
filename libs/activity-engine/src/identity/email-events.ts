/**
 * E-mail events (list_email_events): every e-mail an activity sends goes through `sendEmail`,
 * which records what the mail server made of it under the activity's organization, by recipient —
 * `Send` when it was handed over, `Delivery` when the server answered 250, `Bounce` when it answered
 * 5xx. Accepted messages are recorded in the activity's transaction (they exist only if it
 * commits); a refused one is recorded outside it (`ctx.detached`), since the refusal fails the
 * activity and would otherwise roll its record back.
 */
import { newId } from '@latchkey/crypto';
import { AppError, type TEmailReceipt } from '@latchkey/domain';
import type { TEmailEventRow } from '@latchkey/persistence';
import type { TActivityContext } from '../engine/activity-definition.js';

type TEvent = Omit<TEmailEventRow, 'createdAt'>;

/**
 * Sends one e-mail through `send` and records its events.
 * @throws whatever `send` throws (after recording a Bounce for an SMTP refusal)
 */
export async function sendEmail(ctx: TActivityContext, to: string, send: () => Promise<TEmailReceipt>): Promise<void> {
  const base = { organizationId: ctx.organizationId, toAddress: to.toLowerCase() };
  const event = (messageId: string, fromAddress: string, eventType: TEvent['eventType'], details: Record<string, string> = {}): TEvent => ({
    ...base,
    id: newId(),
    messageId,
    fromAddress,
    eventType,
    details,
    occurredAt: new Date(),
  });
  let receipt: TEmailReceipt;
  try {
    receipt = await send();
  } catch (e) {
    const f = e instanceof AppError && e.code === 'UNAVAILABLE' ? e.fields : undefined;
    if (f && typeof f['messageId'] === 'string' && typeof f['from'] === 'string') {
      const code = typeof f['smtpResponseCode'] === 'number' ? f['smtpResponseCode'] : undefined;
      const events = [event(f['messageId'], f['from'], 'Send')];
      if (code !== undefined && code >= 500 && code < 600) {
        events.push(event(f['messageId'], f['from'], 'Bounce', { bounceType: 'Permanent', bounceSubType: `SMTP ${code}`, ...(typeof f['smtpResponse'] === 'string' ? { diagnosticCode: f['smtpResponse'] } : {}) }));
      }
      await ctx.detached.emailEvents.record(events);
    }
    throw e;
  }
  const events = [event(receipt.messageId, receipt.from, 'Send')];
  if (receipt.smtpResponse?.startsWith('250')) events.push(event(receipt.messageId, receipt.from, 'Delivery', { deliverySmtpResponse: receipt.smtpResponse }));
  await ctx.tx.emailEvents.record(events);
}
