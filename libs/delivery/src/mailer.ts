/**
 * Sends the e-mails the login activities produce. Two modes, picked by the configuration:
 *  - SMTP (LATCHKEY_SMTP_URL set): a pooled nodemailer transport; a refusal or an unreachable
 *    server is a `DeliveryError` whose message names the server (password hidden) and the SMTP
 *    reply code, never the credentials;
 *  - developer outbox (the embedded default): nothing leaves the machine; each message is written
 *    as a complete `.eml` file to `$LATCHKEY_DATA_DIR/outbox/` (folder 0700, file 0600) and one log
 *    line says where. The OTP code is in that file by design — it is how a developer logs in
 *    without a mail server — and in no log line.
 * Both modes build the message with the same nodemailer composer, so the outbox file is exactly
 * what would have gone over the wire.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { DeliveryError, isEmailAddress, type TDeliveryConfig, type TDeliveryLogger, type TMailAddress, type TSmtpConfig } from './config.js';
import type { TSenderOverride } from './templates.js';

export interface TMailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Overrides of LATCHKEY_EMAIL_FROM (sendFromEmailAddress / sendFromEmailSenderName). */
  from?: TSenderOverride;
  replyTo?: string;
}

/** What became of a sent message: its Message-ID, envelope sender and (SMTP) the server's reply, e.g. `250 OK`. */
export interface TMailReceipt {
  messageId: string;
  from: string;
  smtpResponse?: string;
}

export interface TMailer {
  readonly mode: 'smtp' | 'outbox';
  /** @throws DeliveryError SMTP_FAILED (with `smtp` once the server answered), OUTBOX_FAILED or MESSAGE_INVALID */
  send(message: TMailMessage): Promise<TMailReceipt>;
  close(): Promise<void>;
}

/**
 * Writes one developer-outbox file: `<iso-time>-<random>.<ext>` (colons of the time replaced by
 * `-` so the name is valid everywhere), folder 0700, file 0600. Returns its path.
 * @throws DeliveryError OUTBOX_FAILED
 */
export async function writeOutboxFile(outboxDir: string, ext: string, content: string | Buffer): Promise<string> {
  const name = `${new Date().toISOString().replace(/:/g, '-')}-${randomBytes(6).toString('hex')}.${ext}`;
  const path = join(outboxDir, name);
  try {
    await mkdir(outboxDir, { recursive: true, mode: 0o700 });
    await chmod(outboxDir, 0o700); // mkdir's mode is ignored for a folder that already existed
    await writeFile(path, content, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new DeliveryError('OUTBOX_FAILED', `could not write the developer outbox file ${path}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  return path;
}

function assertMessage(m: TMailMessage, from: TMailAddress): void {
  if (!isEmailAddress(m.to)) throw new DeliveryError('MESSAGE_INVALID', 'mail recipient is not a plain e-mail address');
  if (!isEmailAddress(from.address)) throw new DeliveryError('MESSAGE_INVALID', 'mail sender is not a plain e-mail address');
  if (from.name !== undefined && /[\x00-\x1f\x7f<>"]/.test(from.name)) throw new DeliveryError('MESSAGE_INVALID', 'mail sender name has characters a header cannot carry');
  if (m.replyTo !== undefined && !isEmailAddress(m.replyTo)) throw new DeliveryError('MESSAGE_INVALID', 'mail reply-to is not a plain e-mail address');
  if (typeof m.subject !== 'string' || typeof m.text !== 'string') throw new DeliveryError('MESSAGE_INVALID', 'mail subject and text must be strings');
}

/** LATCHKEY_EMAIL_FROM with the message's overrides applied. */
function senderOf(defaults: TMailAddress, o: TSenderOverride | undefined): TMailAddress {
  const name = o?.name ?? defaults.name;
  const address = o?.address ?? defaults.address;
  return name ? { name, address } : { address };
}

function composeOptions(m: TMailMessage, from: TMailAddress, messageId?: string) {
  return {
    ...(messageId !== undefined ? { messageId } : {}),
    from,
    to: m.to,
    subject: m.subject.replace(/[\x00-\x1f\x7f]+/g, ' '),
    text: m.text,
    ...(m.html !== undefined ? { html: m.html } : {}),
    ...(m.replyTo !== undefined ? { replyTo: m.replyTo } : {}),
    // The message is built from our own strings only: never let it read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** The first line of the server's reply to a failed send, printable ASCII, credentials redacted. */
function redactedReply(e: unknown, smtp: TSmtpConfig): string | undefined {
  const response = (e as { response?: unknown }).response;
  if (typeof response !== 'string') return undefined;
  let reply = response.split(/\r?\n/)[0]!.slice(0, 200);
  // An SMTP server has no reason to echo a password, but a broken one might; and AUTH PLAIN
  // carries the credentials in base64.
  for (const secret of [smtp.password, smtp.user && smtp.password ? Buffer.from(`\0${smtp.user}\0${smtp.password}`).toString('base64') : undefined]) {
    if (secret) reply = reply.split(secret).join('***');
  }
  return reply.replace(/[^\x20-\x7e]/g, '?');
}

/** A human reason for a nodemailer failure, without anything the server might have echoed of our credentials. */
function smtpReason(e: unknown, smtp: TSmtpConfig): string {
  const err = e as { code?: unknown; responseCode?: unknown; response?: unknown; command?: unknown };
  const code = typeof err.code === 'string' ? err.code : undefined;
  const what: Record<string, string> = {
    EAUTH: 'the server refused the credentials',
    ENOAUTH: 'the server requires credentials and the URL has none',
    ECONNECTION: 'could not connect',
    ESOCKET: 'the connection failed',
    ETIMEDOUT: 'timed out',
    EDNS: 'the host name did not resolve',
    ETLS: 'the TLS handshake failed',
    EENVELOPE: 'the server refused the sender or the recipient',
    EMESSAGE: 'the server refused the message',
    EPROTOCOL: 'the server broke the SMTP protocol',
  };
  const parts = [(code && what[code]) ?? 'the server did not accept the message'];
  if (typeof err.responseCode === 'number') parts.push(`reply ${err.responseCode}`);
  const reply = redactedReply(e, smtp);
  if (reply !== undefined) parts.push(JSON.stringify(reply));
  if (code) parts.push(`(${code})`);
  return parts.join(' ');
}

function createSmtpMailer(config: TDeliveryConfig, smtp: TSmtpConfig, logger: TDeliveryLogger): TMailer {
  const transport = createTransport({
    pool: true,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user !== undefined ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    maxConnections: 3,
    maxRequeues: 1,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // nodemailer's own logger could print message bodies (codes); keep it off.
    logger: false,
    debug: false,
  });
  return {
    mode: 'smtp',
    async send(m) {
      const from = senderOf(config.emailFrom, m.from);
      assertMessage(m, from);
      // Our own Message-ID, so a refused message can be named too (the e-mail events' Bounce).
      const messageId = `<${randomUUID()}@${from.address.split('@')[1]}>`;
      let info: { messageId: string; response?: unknown };
      try {
        info = await transport.sendMail(composeOptions(m, from, messageId));
      } catch (e) {
        const err = e as { responseCode?: unknown };
        const reply = redactedReply(e, smtp);
        throw new DeliveryError('SMTP_FAILED', `could not send mail through ${smtp.redactedUrl}: ${smtpReason(e, smtp)}`, {
          messageId,
          from: from.address,
          ...(typeof err.responseCode === 'number' ? { responseCode: err.responseCode } : {}),
          ...(reply !== undefined ? { response: reply } : {}),
        });
      }
      logger.info({ messageId: info.messageId, to: m.to }, 'mail sent');
      return { messageId: info.messageId, from: from.address, ...(typeof info.response === 'string' ? { smtpResponse: info.response.split(/\r?\n/)[0]!.slice(0, 200) } : {}) };
    },
    async close() {
      transport.close();
    },
  };
}

function createOutboxMailer(config: TDeliveryConfig, logger: TDeliveryLogger): TMailer {
  // The same composer the SMTP transport uses, writing to a buffer instead of a socket.
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(m) {
      const from = senderOf(config.emailFrom, m.from);
      assertMessage(m, from);
      const info = await composer.sendMail(composeOptions(m, from));
      const raw = info.message;
      if (!Buffer.isBuffer(raw)) throw new DeliveryError('OUTBOX_FAILED', 'the mail composer returned a stream instead of a buffer');
      const file = await writeOutboxFile(config.outboxDir, 'eml', raw);
      logger.info({ outboxFile: file, to: m.to, subject: m.subject }, 'mail written to the developer outbox (no LATCHKEY_SMTP_URL): open the file to read it');
      return { messageId: info.messageId, from: from.address };
    },
    async close() {
      composer.close();
    },
  };
}

/** The mailer the configuration asks for: SMTP when LATCHKEY_SMTP_URL is set, else the developer outbox. */
export function createMailer(config: TDeliveryConfig, logger: TDeliveryLogger): TMailer {
  return config.smtp ? createSmtpMailer(config, config.smtp, logger) : createOutboxMailer(config, logger);
}
