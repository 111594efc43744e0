/**
 * Where OTP and recovery messages go, read from the environment in one place. Pure: the caller
 * passes the environment and the data folder in, so the rules can be tested and documented from
 * one table.
 *
 * With no SMTP URL (the embedded default) mail is not sent at all but written to
 * `$LATCHKEY_DATA_DIR/outbox/` for a developer to read; likewise the `console` SMS provider.
 * SMTP URLs and Twilio tokens are secrets: no error, log line or `describe…` output of this
 * module ever carries a password or a token.
 */
import { join, resolve } from 'node:path';

/** Each variable, its default and what it does (mirrors the README's configuration table). */
export const DELIVERY_CONFIG_VARIABLES = {
  LATCHKEY_SMTP_URL:
    'smtp://user:password@host:587 (STARTTLS when offered) or smtps://user:password@host:465 (TLS from the start); user and password URL-encoded. Unset: mail is written to the log and to $LATCHKEY_DATA_DIR/outbox/.',
  LATCHKEY_EMAIL_FROM: 'Default sender, "Name <address>" or a bare address. Default "Latchkey <no-reply@localhost>".',
  LATCHKEY_SMS_PROVIDER: 'console (default: logged and written to $LATCHKEY_DATA_DIR/outbox/) or twilio.',
  LATCHKEY_TWILIO_ACCOUNT_SID: 'Twilio account SID (required with LATCHKEY_SMS_PROVIDER=twilio).',
  LATCHKEY_TWILIO_AUTH_TOKEN: 'Twilio auth token (required with LATCHKEY_SMS_PROVIDER=twilio).',
  LATCHKEY_TWILIO_FROM: 'Sender number (E.164) or messaging-service SID (MG…) (required with LATCHKEY_SMS_PROVIDER=twilio).',
  LATCHKEY_TWILIO_BASE_URL: 'Base URL of the Twilio-compatible REST API. Default https://api.twilio.com.',
} as const;

/** Why a message could not be configured or delivered. */
export type TDeliveryErrorReason =
  /** A LATCHKEY_* delivery variable is missing or malformed. */
  | 'CONFIG_INVALID'
  /** The SMTP server could not be reached or refused the message. */
  | 'SMTP_FAILED'
  /** The SMS provider could not be reached or refused the message. */
  | 'SMS_FAILED'
  /** The developer outbox folder could not be written. */
  | 'OUTBOX_FAILED'
  /** The message itself is unusable (no recipient, header injection, …). */
  | 'MESSAGE_INVALID';

/** A message could not be configured or delivered. Messages never carry credentials or OTP codes. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';

  constructor(
    readonly reason: TDeliveryErrorReason,
    message: string,
    /**
     * For a message the SMTP server refused: its Message-ID, envelope sender and the server's reply
     * (first line, credentials redacted) — what the e-mail events record as a Bounce (5xx).
     */
    readonly smtp?: { messageId: string; from: string; responseCode?: number; response?: string },
  ) {
    // No `cause`: transport errors may carry the server's whole dialogue, credentials included.
    super(message);
  }
}

/** The subset of a pino logger the delivery code writes to (pino's `Logger` satisfies it). */
export interface TDeliveryLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A mailbox: the display name is optional. */
export interface TMailAddress {
  name?: string;
  address: string;
}

export interface TSmtpConfig {
  /** The URL as configured (with its credentials): hand it to the transport only. */
  url: string;
  host: string;
  port: number;
  /** smtps: TLS from the first byte; smtp: STARTTLS when the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  /** `smtp://user:***@host:port`, safe for logs and error messages. */
  redactedUrl: string;
}

export interface TTwilioConfig {
  provider: 'twilio';
  accountSid: string;
  authToken: string;
  from: string;
  /** Without a trailing slash. */
  baseUrl: string;
}

export type TSmsConfig = { provider: 'console' } | TTwilioConfig;

export interface TDeliveryConfig {
  /** Absolute data folder; the developer outbox is `outboxDir` inside it. */
  dataDir: string;
  outboxDir: string;
  /** Undefined: mail goes to the developer outbox. */
  smtp: TSmtpConfig | undefined;
  emailFrom: TMailAddress;
  sms: TSmsConfig;
}

export const DEFAULT_EMAIL_FROM = 'Latchkey <no-reply@localhost>';
export const DEFAULT_TWILIO_BASE_URL = 'https://api.twilio.com';

// Deliberately simple: one @, no spaces, angle brackets, quotes or control characters (which
// would let a value break out of a header).
const ADDRESS = /^[^\s@<>"',;:\\()[\]\x00-\x1f\x7f]+@[^\s@<>"',;:\\()[\]\x00-\x1f\x7f]+$/;

/** True when `s` is a bare e-mail address safe to place in a header. */
export function isEmailAddress(s: string): boolean {
  return s.length <= 254 && ADDRESS.test(s);
}

/**
 * Parses `Name <address>` or a bare `address`.
 * @throws DeliveryError CONFIG_INVALID naming `variable` when the value is neither.
 */
export function parseMailbox(value: string, variable: string): TMailAddress {
  const trimmed = value.trim();
  const m = /^(.*?)\s*<([^<>]*)>$/.exec(trimmed);
  const name = m ? m[1]!.trim().replace(/^"(.*)"$/, '$1') : undefined;
  const address = m ? m[2]!.trim() : trimmed;
  if (!isEmailAddress(address)) throw new DeliveryError('CONFIG_INVALID', `${variable} must be "Name <address>" or an e-mail address`);
  if (name !== undefined && /[\x00-\x1f\x7f<>"]/.test(name)) throw new DeliveryError('CONFIG_INVALID', `${variable}: the display name has characters a header cannot carry`);
  return name ? { name, address } : { address };
}

/** `scheme://user:***@host:port` — the URL with its password (and nothing else) hidden. */
function redact(u: URL, port: number): string {
  const user = u.username ? `${u.username}${u.password ? ':***' : ''}@` : '';
  return `${u.protocol}//${user}${u.hostname}:${port}`;
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new DeliveryError('CONFIG_INVALID', `LATCHKEY_SMTP_URL: the ${what} is not valid URL encoding`);
  }
}

/**
 * Parses LATCHKEY_SMTP_URL.
 * @throws DeliveryError CONFIG_INVALID (the message never contains the URL's password).
 */
export function parseSmtpUrl(raw: string): TSmtpConfig {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Not even the scheme is echoed: a typo could put the password anywhere in the string.
    throw new DeliveryError('CONFIG_INVALID', 'LATCHKEY_SMTP_URL is not a valid URL (expected smtp://user:password@host:port or smtps://…)');
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') {
    throw new DeliveryError('CONFIG_INVALID', `LATCHKEY_SMTP_URL must use smtp:// or smtps://, not ${u.protocol}//`);
  }
  if (!u.hostname) throw new DeliveryError('CONFIG_INVALID', 'LATCHKEY_SMTP_URL has no host');
  if ((u.pathname && u.pathname !== '/') || u.search || u.hash) {
    throw new DeliveryError('CONFIG_INVALID', `LATCHKEY_SMTP_URL must be scheme://[user[:password]@]host[:port] only (no path or query): ${redact(u, Number(u.port) || 0)}`);
  }
  const secure = u.protocol === 'smtps:';
  const port = u.port ? Number(u.port) : secure ? 465 : 587;
  const user = u.username ? decode(u.username, 'user name') : undefined;
  const password = u.password ? decode(u.password, 'password') : undefined;
  return { url: raw, host: u.hostname.replace(/^\[(.*)\]$/, '$1'), port, secure, user, password, redactedUrl: redact(u, port) };
}

function required(env: Record<string, string | undefined>, name: string, why: string): string {
  const v = env[name];
  if (v === undefined || v.trim() === '') throw new DeliveryError('CONFIG_INVALID', `${name} is required ${why}`);
  return v.trim();
}

/**
 * Reads the delivery configuration. Empty strings count as unset.
 * @throws DeliveryError CONFIG_INVALID naming the variable at fault (secrets are never echoed).
 */
export function readDeliveryConfig(env: Record<string, string | undefined>, dataDir: string): TDeliveryConfig {
  const get = (name: keyof typeof DELIVERY_CONFIG_VARIABLES): string | undefined => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const absData = resolve(dataDir);
  const smtpUrl = get('LATCHKEY_SMTP_URL');
  const emailFrom = parseMailbox(get('LATCHKEY_EMAIL_FROM') ?? DEFAULT_EMAIL_FROM, 'LATCHKEY_EMAIL_FROM');

  const provider = (get('LATCHKEY_SMS_PROVIDER') ?? 'console').toLowerCase();
  let sms: TSmsConfig;
  if (provider === 'console') {
    sms = { provider: 'console' };
  } else if (provider === 'twilio') {
    const why = 'when LATCHKEY_SMS_PROVIDER=twilio';
    const baseRaw = get('LATCHKEY_TWILIO_BASE_URL') ?? DEFAULT_TWILIO_BASE_URL;
    let base: URL;
    try {
      base = new URL(baseRaw);
    } catch {
      throw new DeliveryError('CONFIG_INVALID', 'LATCHKEY_TWILIO_BASE_URL is not a valid URL');
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new DeliveryError('CONFIG_INVALID', 'LATCHKEY_TWILIO_BASE_URL must be an http(s) URL');
    if (base.username || base.password) throw new DeliveryError('CONFIG_INVALID', 'LATCHKEY_TWILIO_BASE_URL must not carry credentials; use LATCHKEY_TWILIO_ACCOUNT_SID and LATCHKEY_TWILIO_AUTH_TOKEN');
    const accountSid = required(env, 'LATCHKEY_TWILIO_ACCOUNT_SID', why);
    if (!/^[A-Za-z0-9]+$/.test(accountSid)) throw new DeliveryError('CONFIG_INVALID', 'LATCHKEY_TWILIO_ACCOUNT_SID must be letters and digits only (e.g. AC…)');
    sms = {
      provider: 'twilio',
      accountSid,
      authToken: required(env, 'LATCHKEY_TWILIO_AUTH_TOKEN', why),
      from: required(env, 'LATCHKEY_TWILIO_FROM', why),
      baseUrl: `${base.origin}${base.pathname}`.replace(/\/+$/, ''),
    };
  } else {
    throw new DeliveryError('CONFIG_INVALID', `LATCHKEY_SMS_PROVIDER must be console or twilio, not ${JSON.stringify(provider.slice(0, 32))}`);
  }

  return {
    dataDir: absData,
    outboxDir: join(absData, 'outbox'),
    smtp: smtpUrl === undefined ? undefined : parseSmtpUrl(smtpUrl),
    emailFrom,
    sms,
  };
}

/** One line describing where messages go, for the start-up log (no secrets). */
export function describeDeliveryConfig(c: TDeliveryConfig): string {
  const mail = c.smtp ? `mail via ${c.smtp.redactedUrl}` : `mail to the log and ${c.outboxDir} (no LATCHKEY_SMTP_URL)`;
  const sms = c.sms.provider === 'twilio' ? `SMS via Twilio at ${c.sms.baseUrl}` : `SMS to the log and ${c.outboxDir}`;
  return `${mail}; ${sms}`;
}
