/**
 * The in-memory inbox of a test instance: every e-mail (through the SMTP capture) and every SMS
 * (through the Twilio-compatible capture) Latchkey sends, in arrival order, each parsed and with
 * its one-time code picked out when it is an OTP message in Latchkey's own words.
 *
 * `next()` is a queue, not a search: each call takes the oldest message no earlier `next()` took,
 * waiting for one to arrive, which is what a test that triggers one OTP and reads it wants.
 */
import type { TCapturedMail } from './smtp-capture.js';
import type { TCapturedSms } from './sms-capture.js';

export interface TInboxMessage {
  channel: 'email' | 'sms';
  /** The recipient: an e-mail address or an E.164 phone number. */
  to: string;
  /** E-mail only. */
  subject?: string;
  /** The e-mail's text part, or the SMS body. */
  text: string;
  /** E-mail only. */
  html?: string;
  /**
   * The one-time code when the message is an OTP in Latchkey's default words (a custom template
   * puts it where it likes, so it is not picked out then: read `text`).
   */
  code?: string;
  /** The captured e-mail with its headers and raw source (e-mail only). */
  email?: TCapturedMail;
}

export interface TMessageInbox {
  /**
   * The oldest message no earlier `next()` returned, waiting up to `timeoutMs` (default 10 s).
   * @throws Error naming what did arrive when nothing new comes in time.
   */
  next(opts?: { timeoutMs?: number }): Promise<TInboxMessage>;
  /** Every message received so far, oldest first. */
  all(): TInboxMessage[];
}

/** The code of the default OTP e-mail: alone on its line, indented by four spaces. */
const EMAIL_CODE = /^ {4}([A-Za-z0-9]{1,64})$/m;
/** The default OTP SMS: "<code> is your <app> verification code. …". */
const SMS_CODE = /^([A-Za-z0-9]{1,64}) is your .* verification code\b/;

/** An e-mail as an inbox message. */
export function fromEmail(mail: TCapturedMail): TInboxMessage {
  const m: TInboxMessage = { channel: 'email', to: mail.to[0] ?? '', subject: mail.subject, text: mail.text, email: mail };
  if (mail.html !== undefined) m.html = mail.html;
  const code = /verification code/i.test(mail.subject) ? EMAIL_CODE.exec(mail.text)?.[1] : undefined;
  if (code) m.code = code;
  return m;
}

/** An SMS as an inbox message. */
export function fromSms(sms: TCapturedSms): TInboxMessage {
  const m: TInboxMessage = { channel: 'sms', to: sms.to, text: sms.body };
  const code = SMS_CODE.exec(sms.body)?.[1];
  if (code) m.code = code;
  return m;
}

/** An inbox fed by `push`; the captures call it as messages arrive. */
export function createMessageInbox(): TMessageInbox & { push(m: TInboxMessage): void; close(): void } {
  const messages: TInboxMessage[] = [];
  let taken = 0;
  const waiters: (() => void)[] = [];
  let closed = false;
  return {
    push(m) {
      messages.push(m);
      for (const w of waiters.splice(0)) w();
    },
    close() {
      closed = true;
      for (const w of waiters.splice(0)) w();
    },
    all: () => [...messages],
    async next(opts = {}) {
      const timeoutMs = opts.timeoutMs ?? 10_000;
      if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw new TypeError(`next({ timeoutMs }) must be a non-negative number of milliseconds, not ${String(timeoutMs)}`);
      const deadline = Date.now() + timeoutMs;
      while (taken >= messages.length) {
        if (closed) throw new Error('the Latchkey instance was stopped: no more messages will arrive');
        const left = deadline - Date.now();
        if (left <= 0) {
          const seen = messages.map((m) => `${m.channel} to ${m.to}`).join(', ') || 'none';
          throw new Error(`no new e-mail or SMS within ${timeoutMs} ms (${messages.length} received in all, ${taken} already taken by next(): ${seen})`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return messages[taken++]!;
    },
  };
}
