/**
 * The engine's message port (`TMessageSender` in @latchkey/domain) over a mailer and an SMS
 * provider: render the message with its customization, send it, and turn the two ways that can
 * fail into the errors the caller sees — a customization that cannot be rendered is the caller's
 * fault (400), a delivery that did not go through is an outage (503).
 */
import { AppError, type TEmailReceipt, type TMessageSender } from '@latchkey/domain';
import { DeliveryError } from './config.js';
import type { TMailer } from './mailer.js';
import type { TSmsProvider } from './sms.js';
import { renderEmailAuthEmail, renderInvitationEmail, renderOtpEmail, renderOtpSms, renderRecoveryEmail, TemplateError, type TRenderedEmail } from './templates.js';

function asAppError(e: unknown): unknown {
  if (e instanceof TemplateError) return new AppError('BAD_REQUEST', `customization: ${e.message}`, { reason: e.reason });
  if (e instanceof DeliveryError) {
    const smtp = e.smtp
      ? { messageId: e.smtp.messageId, from: e.smtp.from, ...(e.smtp.responseCode !== undefined ? { smtpResponseCode: e.smtp.responseCode } : {}), ...(e.smtp.response !== undefined ? { smtpResponse: e.smtp.response } : {}) }
      : {};
    return new AppError('UNAVAILABLE', `could not deliver the message: ${e.message}`, { reason: e.reason, ...smtp });
  }
  return e;
}

async function attempt<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (e) {
    throw asAppError(e);
  }
}

/** @throws AppError BAD_REQUEST (customization) or UNAVAILABLE (delivery) from every method */
export function createMessageSender(mail: Pick<TMailer, 'send'>, sms: Pick<TSmsProvider, 'send'>): TMessageSender {
  const email = (to: string, render: () => TRenderedEmail): Promise<TEmailReceipt> =>
    attempt(() => {
      const m = render();
      return mail.send({ to, subject: m.subject, text: m.text, html: m.html, ...(m.from ? { from: m.from } : {}), ...(m.replyTo ? { replyTo: m.replyTo } : {}) });
    });
  return {
    otpEmail: (to, m) => email(to, () => renderOtpEmail(m)),
    emailAuth: (to, m) => email(to, () => renderEmailAuthEmail(m)),
    recovery: (to, m) => email(to, () => renderRecoveryEmail(m)),
    invitation: (to, m) => email(to, () => renderInvitationEmail(m)),
    otpSms: async (to, m) => {
      await attempt(() => sms.send({ to, body: renderOtpSms(m).body }));
    },
  };
}
