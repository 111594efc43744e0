/**
 * SMS delivery behind one interface, so a new provider is one more factory here and one more
 * value of LATCHKEY_SMS_PROVIDER:
 *  - `twilio`: Twilio's REST API (or anything speaking it — LATCHKEY_TWILIO_BASE_URL), one
 *    form-encoded POST per message with HTTP basic auth;
 *  - `console` (the embedded default): nothing is sent; the message goes to the developer outbox
 *    like mail, and one log line says where (the code is in the file, not in the log).
 * Errors are `DeliveryError`s carrying the provider's reason and code, never the auth token.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DeliveryError, type TDeliveryConfig, type TDeliveryLogger, type TTwilioConfig } from './config.js';
import { writeOutboxFile } from './mailer.js';

export interface TSmsMessage {
  /** E.164, e.g. +14155550123. */
  to: string;
  body: string;
}

export interface TSmsProvider {
  readonly name: 'twilio' | 'console';
  /** @throws DeliveryError SMS_FAILED, OUTBOX_FAILED or MESSAGE_INVALID */
  send(message: TSmsMessage): Promise<{ id: string }>;
}

export interface TTwilioOptions {
  /** For tests and proxies; the global fetch otherwise. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const E164 = /^\+[1-9][0-9]{6,14}$/;
const MAX_BODY = 1600;

function assertSms(m: TSmsMessage): void {
  if (typeof m.to !== 'string' || !E164.test(m.to)) throw new DeliveryError('MESSAGE_INVALID', 'SMS recipient must be an E.164 phone number (+ and 7–15 digits)');
  if (typeof m.body !== 'string' || m.body.length === 0 || m.body.length > MAX_BODY) throw new DeliveryError('MESSAGE_INVALID', `SMS body must be 1–${MAX_BODY} characters`);
}

function scrub(s: string, secret: string): string {
  return (secret ? s.split(secret).join('***') : s).replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

/** Twilio's Messages API: POST {base}/2010-04-01/Accounts/{sid}/Messages.json. */
export function createTwilioSmsProvider(config: TTwilioConfig, opts: TTwilioOptions = {}): TSmsProvider {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const url = `${config.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  // Twilio's `From` is a number; a messaging-service SID goes in MessagingServiceSid instead.
  const fromField = /^MG[0-9a-fA-F]{32}$/.test(config.from) ? 'MessagingServiceSid' : 'From';
  return {
    name: 'twilio',
    async send(m) {
      assertSms(m);
      const form = new URLSearchParams({ To: m.to, [fromField]: config.from, Body: m.body });
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        const name = (e as { name?: unknown }).name;
        const why = name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : 'the connection failed';
        throw new DeliveryError('SMS_FAILED', `could not reach the SMS provider at ${config.baseUrl}: ${why}`);
      }
      const text = await res.text().catch(() => '');
      let json: { sid?: unknown; message?: unknown; code?: unknown } | undefined;
      try {
        json = JSON.parse(text) as typeof json;
      } catch {
        json = undefined;
      }
      if (!res.ok) {
        const code = typeof json?.code === 'number' || typeof json?.code === 'string' ? `, Twilio error ${String(json.code)}` : '';
        const reason = typeof json?.message === 'string' ? `: ${scrub(json.message, config.authToken)}` : '';
        throw new DeliveryError('SMS_FAILED', `the SMS provider refused the message (HTTP ${res.status}${code})${reason}`);
      }
      if (typeof json?.sid !== 'string' || json.sid === '') throw new DeliveryError('SMS_FAILED', `the SMS provider answered HTTP ${res.status} without a message sid`);
      return { id: json.sid };
    },
  };
}

/**
 * The embedded default: writes `To:` and the body to `$dataDir/outbox/<time>-<id>.sms.txt`
 * (0600) and logs the file's path and the recipient.
 */
export function createConsoleSmsProvider(logger: TDeliveryLogger, dataDir: string): TSmsProvider {
  const outboxDir = join(dataDir, 'outbox');
  return {
    name: 'console',
    async send(m) {
      assertSms(m);
      const id = randomUUID();
      const file = await writeOutboxFile(outboxDir, 'sms.txt', `To: ${m.to}\nId: ${id}\nDate: ${new Date().toISOString()}\n\n${m.body}\n`);
      logger.info({ outboxFile: file, to: m.to }, 'SMS written to the developer outbox (LATCHKEY_SMS_PROVIDER=console): open the file to read it');
      return { id };
    },
  };
}

/** The provider LATCHKEY_SMS_PROVIDER names. */
export function createSmsProvider(config: TDeliveryConfig, logger: TDeliveryLogger, opts: TTwilioOptions = {}): TSmsProvider {
  switch (config.sms.provider) {
    case 'twilio':
      return createTwilioSmsProvider(config.sms, opts);
    case 'console':
      return createConsoleSmsProvider(logger, config.dataDir);
  }
}
