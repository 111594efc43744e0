/**
 * The words of the messages Latchkey sends: the OTP e-mail and SMS (init_otp, init_otp_auth), the
 * recovery e-mail (init_user_email_recovery) and the e-mail-auth e-mail (email_auth). Pure
 * functions: validated customization in, `{subject, text, html}` out, no I/O.
 *
 * Everything a caller supplies is untrusted (it arrives in an activity's parameters), so every
 * interpolated value is HTML-escaped, links must be http(s), sender fields must be plain addresses
 * (no header injection), and a bad customization is a `TemplateError` — the activity maps it to a
 * 400 naming the field. Secrets (the code, the bundle, the magic link carrying either) never go
 * into a subject: subjects show on lock screens and in the developer-mode log line.
 */
import type { TBundleEmailMessage, TEmailCustomization, TEmailMessageCommon, TOtpEmailMessage, TOtpSmsMessage, TSenderCustomization, TSmsCustomization } from '@latchkey/domain';
import { isEmailAddress } from './config.js';

export type { TEmailCustomization, TSenderCustomization, TSmsCustomization };

/** Why a customization was refused (each becomes a 400 naming `field`). */
export type TTemplateErrorReason =
  /** A required value is missing or not of the right shape (appName, code, bundle, expiry). */
  | 'INVALID_ARGUMENT'
  /** logoUrl or magicLinkTemplate is not an http(s) URL (or the template lacks `%s`). */
  | 'INVALID_URL'
  /** templateVariables is not a JSON object of strings. */
  | 'INVALID_TEMPLATE_VARIABLES'
  /** An SMS or custom e-mail template is unusable (no code placeholder, unknown placeholder, too long). */
  | 'INVALID_TEMPLATE'
  /** templateId names no template this server knows. */
  | 'UNKNOWN_TEMPLATE'
  /** sendFromEmailAddress, sendFromEmailSenderName or replyToEmailAddress is not usable in a header. */
  | 'INVALID_ADDRESS';

/** A customization field was refused. `field` is the parameter's path, e.g. `emailCustomization.logoUrl`. */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';

  constructor(
    readonly reason: TTemplateErrorReason,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A custom e-mail template, looked up by `templateId`. Placeholders are `{{name}}` or Go-style
 * `{{.Name}}`: the built-ins (appName, code / otpCode, credentialBundle / bundle, magicLink,
 * logoUrl, expiresInMinutes, userIdentifier; case-insensitive) and the keys of templateVariables
 * (case-sensitive; a built-in always wins, so a caller cannot replace the code).
 */
export interface TCustomEmailTemplate {
  subject: string;
  text: string;
  /** Without it, the HTML part is the text, escaped. */
  html?: string;
}

/** Finds the template for a `templateId`; undefined when there is none. */
export type TTemplateResolver = (templateId: string) => TCustomEmailTemplate | undefined;

/** Sender overrides; the mailer fills what is missing from LATCHKEY_EMAIL_FROM. */
export interface TSenderOverride {
  name?: string;
  address?: string;
}

export interface TRenderedEmail {
  subject: string;
  text: string;
  html: string;
  from?: TSenderOverride;
  replyTo?: string;
}

export interface TRenderedSms {
  body: string;
}

/** A custom template resolver may come along with any e-mail (tests, future per-organization templates). */
interface TTemplateLookup {
  resolveTemplate?: TTemplateResolver;
}

export interface TOtpEmailInput extends TOtpEmailMessage, TTemplateLookup {}
export interface TBundleEmailInput extends TBundleEmailMessage, TTemplateLookup {}
export type TOtpSmsInput = TOtpSmsMessage;

const DEFAULT_APP_NAME = 'Latchkey';
const MAX_URL = 2048;
const MAX_SMS = 1600; // Twilio's limit for one message body
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function assertAppName(value: string | undefined, field: string): string {
  const v = value?.trim();
  if (!v) throw new TemplateError('INVALID_ARGUMENT', field, `${field}: must be a non-empty string`);
  if (v.length > 100 || CONTROL.test(v) || /[\r\n]/.test(v)) throw new TemplateError('INVALID_ARGUMENT', field, `${field}: at most 100 characters on one line`);
  return v;
}

function assertCode(code: string): void {
  if (typeof code !== 'string' || !/^[A-Za-z0-9]{1,64}$/.test(code)) throw new TemplateError('INVALID_ARGUMENT', 'code', 'code: must be 1–64 letters or digits');
}

function assertBundle(bundle: string): void {
  if (typeof bundle !== 'string' || !/^[A-Za-z0-9+/=_-]{1,16384}$/.test(bundle)) {
    throw new TemplateError('INVALID_ARGUMENT', 'credentialBundle', 'credentialBundle: must be 1–16384 base58, base64 or hex characters');
  }
}

function assertSeconds(s: number, field: string): void {
  if (!Number.isInteger(s) || s <= 0) throw new TemplateError('INVALID_ARGUMENT', field, `${field}: must be a positive whole number of seconds`);
}

/** "5 minutes", "1 minute", "45 seconds". */
export function humanDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const m = Math.round(seconds / 60);
  if (m < 120) return `${m} minute${m === 1 ? '' : 's'}`;
  const h = Math.round(seconds / 3600);
  return `${h} hour${h === 1 ? '' : 's'}`;
}

function httpUrl(value: string, field: string): URL {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new TemplateError('INVALID_URL', field, `${field}: not a valid URL`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new TemplateError('INVALID_URL', field, `${field}: must be an http(s) URL, not ${u.protocol}`);
  if (u.username || u.password) throw new TemplateError('INVALID_URL', field, `${field}: must not carry credentials`);
  return u;
}

function logoUrlOf(c: TEmailCustomization | undefined): string | undefined {
  const v = c?.logoUrl?.trim();
  if (!v) return undefined;
  if (v.length > MAX_URL) throw new TemplateError('INVALID_URL', 'emailCustomization.logoUrl', `emailCustomization.logoUrl: at most ${MAX_URL} characters`);
  return httpUrl(v, 'emailCustomization.logoUrl').href;
}

/**
 * Fills a magic-link template: every `%s` becomes the URL-encoded secret.
 * @throws TemplateError INVALID_URL when the template has no `%s` or the result is not http(s).
 */
export function fillMagicLink(template: string | undefined, secret: string): string | undefined {
  const t = template?.trim();
  if (!t) return undefined;
  const field = 'emailCustomization.magicLinkTemplate';
  if (t.length > MAX_URL) throw new TemplateError('INVALID_URL', field, `${field}: at most ${MAX_URL} characters`);
  if (!t.includes('%s')) throw new TemplateError('INVALID_URL', field, `${field}: must contain %s where the code goes`);
  // Check the template with a harmless stand-in first, so an error never carries the secret.
  httpUrl(t.split('%s').join('x'), field);
  return httpUrl(t.split('%s').join(encodeURIComponent(secret)), field).href;
}

/**
 * Parses templateVariables: JSON text of an object whose values are strings.
 * @throws TemplateError INVALID_TEMPLATE_VARIABLES
 */
export function parseTemplateVariables(json: string | undefined): Record<string, string> {
  const field = 'emailCustomization.templateVariables';
  if (json === undefined || json.trim() === '') return {};
  if (json.length > 10_000) throw new TemplateError('INVALID_TEMPLATE_VARIABLES', field, `${field}: at most 10000 characters`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new TemplateError('INVALID_TEMPLATE_VARIABLES', field, `${field}: not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TemplateError('INVALID_TEMPLATE_VARIABLES', field, `${field}: must be a JSON object of strings`);
  }
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  const entries = Object.entries(parsed);
  if (entries.length > 50) throw new TemplateError('INVALID_TEMPLATE_VARIABLES', field, `${field}: at most 50 variables`);
  for (const [k, v] of entries) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(k)) throw new TemplateError('INVALID_TEMPLATE_VARIABLES', field, `${field}: variable names must be identifiers (letters, digits, _), got ${JSON.stringify(k.slice(0, 64))}`);
    if (typeof v !== 'string') throw new TemplateError('INVALID_TEMPLATE_VARIABLES', field, `${field}: the value of ${k} must be a string`);
    if (v.length > 1000) throw new TemplateError('INVALID_TEMPLATE_VARIABLES', field, `${field}: the value of ${k} is longer than 1000 characters`);
    out[k] = v;
  }
  return out;
}

function senderOf(input: TSenderCustomization): Pick<TRenderedEmail, 'from' | 'replyTo'> {
  const out: Pick<TRenderedEmail, 'from' | 'replyTo'> = {};
  const from: TSenderOverride = {};
  const address = input.sendFromEmailAddress?.trim();
  if (address) {
    if (!isEmailAddress(address)) throw new TemplateError('INVALID_ADDRESS', 'sendFromEmailAddress', 'sendFromEmailAddress: not a plain e-mail address');
    from.address = address;
  }
  const name = input.sendFromEmailSenderName?.trim();
  if (name) {
    if (name.length > 100 || CONTROL.test(name) || /[\r\n<>"]/.test(name)) {
      throw new TemplateError('INVALID_ADDRESS', 'sendFromEmailSenderName', 'sendFromEmailSenderName: at most 100 characters, no line breaks, quotes or angle brackets');
    }
    from.name = name;
  }
  if (from.address !== undefined || from.name !== undefined) out.from = from;
  const replyTo = input.replyToEmailAddress?.trim();
  if (replyTo) {
    if (!isEmailAddress(replyTo)) throw new TemplateError('INVALID_ADDRESS', 'replyToEmailAddress', 'replyToEmailAddress: not a plain e-mail address');
    out.replyTo = replyTo;
  }
  return out;
}

const PLACEHOLDER = /\{\{\s*\.?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Built-in variable names (lower case) that carry a secret and so may not appear in a subject. */
const SECRET_VARIABLES = new Set(['code', 'otpcode', 'credentialbundle', 'bundle', 'magiclink']);

interface TVars {
  builtIn: Record<string, string>; // keys lower case
  user: Record<string, string>;
}

function fill(template: string, vars: TVars, field: string, escape: (s: string) => string, allowSecrets: boolean): string {
  return template.replace(PLACEHOLDER, (_all, rawName: string) => {
    const key = rawName.toLowerCase();
    const builtIn = vars.builtIn[key];
    if (builtIn !== undefined) {
      if (!allowSecrets && SECRET_VARIABLES.has(key)) throw new TemplateError('INVALID_TEMPLATE', field, `${field}: {{${rawName}}} carries a secret and may not appear in a subject`);
      return escape(builtIn);
    }
    const user = vars.user[rawName];
    if (user !== undefined) return escape(user);
    throw new TemplateError('INVALID_TEMPLATE', field, `${field}: unknown placeholder {{${rawName}}}`);
  });
}

function oneLine(s: string): string {
  return s.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
}

function renderCustom(t: TCustomEmailTemplate, vars: TVars, templateId: string): Pick<TRenderedEmail, 'subject' | 'text' | 'html'> {
  const where = `template ${JSON.stringify(templateId)}`;
  const subject = oneLine(fill(t.subject, vars, `${where} subject`, (s) => s, false));
  const text = fill(t.text, vars, `${where} text`, (s) => s, true);
  const html = t.html !== undefined ? fill(t.html, vars, `${where} html`, escapeHtml, true) : `<pre style="font-family:inherit;white-space:pre-wrap">${escapeHtml(text)}</pre>`;
  return { subject, text, html };
}

/** Looks up templateId (if any) and the variables; undefined when the default wording applies. */
function customTemplate(input: TEmailMessageCommon & TTemplateLookup): { template: TCustomEmailTemplate; id: string; user: Record<string, string> } | undefined {
  const user = parseTemplateVariables(input.emailCustomization?.templateVariables);
  const id = input.emailCustomization?.templateId?.trim();
  if (!id) return undefined;
  const template = input.resolveTemplate?.(id);
  if (!template) throw new TemplateError('UNKNOWN_TEMPLATE', 'emailCustomization.templateId', `emailCustomization.templateId: no e-mail template ${JSON.stringify(id.slice(0, 64))} on this server`);
  return { template, id, user };
}

interface TLayout {
  appName: string;
  logoUrl: string | undefined;
  heading: string;
  intro: string;
  /** The code or bundle, shown in a box. */
  secret: string;
  secretIsLong: boolean;
  magicLink: string | undefined;
  linkLabel: string;
  outro: string;
}

/** The one HTML layout: a table-free, inline-styled card (mail clients ignore <style>). */
function layoutHtml(l: TLayout): string {
  const logo = l.logoUrl ? `<p><img src="${escapeHtml(l.logoUrl)}" alt="${escapeHtml(l.appName)}" style="max-height:48px"></p>\n` : '';
  const secretStyle = l.secretIsLong
    ? 'font-family:monospace;font-size:12px;word-break:break-all;background:#f4f4f5;padding:12px;border-radius:6px'
    : 'font-family:monospace;font-size:28px;letter-spacing:4px;font-weight:bold';
  const link = l.magicLink
    ? `<p><a href="${escapeHtml(l.magicLink)}" style="display:inline-block;padding:10px 18px;background:#111827;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(l.linkLabel)}</a></p>\n`
    : '';
  return (
    `<!doctype html>\n<html><body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#111827">\n` +
    `<div style="max-width:480px;margin:0 auto;padding:24px">\n${logo}` +
    `<h2 style="margin:0 0 16px">${escapeHtml(l.heading)}</h2>\n` +
    `<p>${escapeHtml(l.intro)}</p>\n` +
    `<p style="${secretStyle}">${escapeHtml(l.secret)}</p>\n${link}` +
    `<p style="color:#6b7280;font-size:13px">${escapeHtml(l.outro)}</p>\n` +
    `</div>\n</body></html>\n`
  );
}

function layoutText(l: TLayout): string {
  const lines = [l.heading, '', l.intro, '', l.secretIsLong ? l.secret : `    ${l.secret}`, ''];
  if (l.magicLink) lines.push(`${l.linkLabel}:`, l.magicLink, '');
  lines.push(l.outro, '');
  return lines.join('\n');
}

/**
 * The OTP e-mail (init_otp with OTP_TYPE_EMAIL, init_otp_auth).
 * @throws TemplateError on a bad customization (a 400 naming the field).
 */
export function renderOtpEmail(input: TOtpEmailInput): TRenderedEmail {
  const appName = assertAppName(input.appName, 'appName');
  assertCode(input.code);
  assertSeconds(input.expiresInSeconds, 'expiresInSeconds');
  const logoUrl = logoUrlOf(input.emailCustomization);
  const magicLink = fillMagicLink(input.emailCustomization?.magicLinkTemplate, input.code);
  const sender = senderOf(input);
  const expires = humanDuration(input.expiresInSeconds);
  const custom = customTemplate(input);
  if (custom) {
    const builtIn: Record<string, string> = { appname: appName, code: input.code, otpcode: input.code, expiresinminutes: String(Math.ceil(input.expiresInSeconds / 60)) };
    if (magicLink) builtIn['magiclink'] = magicLink;
    if (logoUrl) builtIn['logourl'] = logoUrl;
    if (input.userIdentifier) builtIn['useridentifier'] = input.userIdentifier;
    return { ...renderCustom(custom.template, { builtIn, user: custom.user }, custom.id), ...sender };
  }
  const layout: TLayout = {
    appName,
    logoUrl,
    heading: `Your ${appName} verification code`,
    intro: `Enter this code in ${appName} to continue:`,
    secret: input.code,
    secretIsLong: false,
    magicLink,
    linkLabel: 'Or continue with this link',
    outro: `The code expires in ${expires}. If you did not ask for it, you can ignore this e-mail.`,
  };
  return { subject: `Your ${appName} verification code`, text: layoutText(layout), html: layoutHtml(layout), ...sender };
}

function renderBundleEmail(
  input: TBundleEmailInput,
  words: (appName: string, expires: string | undefined) => Pick<TLayout, 'heading' | 'intro' | 'linkLabel' | 'outro'> & { subject: string },
): TRenderedEmail {
  const appName = input.appName !== undefined ? assertAppName(input.appName, 'appName') : input.emailCustomization?.appName !== undefined ? assertAppName(input.emailCustomization.appName, 'emailCustomization.appName') : DEFAULT_APP_NAME;
  assertBundle(input.credentialBundle);
  if (input.expiresInSeconds !== undefined) assertSeconds(input.expiresInSeconds, 'expiresInSeconds');
  const logoUrl = logoUrlOf(input.emailCustomization);
  const magicLink = fillMagicLink(input.emailCustomization?.magicLinkTemplate, input.credentialBundle);
  const sender = senderOf(input);
  const custom = customTemplate(input);
  if (custom) {
    const builtIn: Record<string, string> = { appname: appName, credentialbundle: input.credentialBundle, bundle: input.credentialBundle };
    if (input.expiresInSeconds !== undefined) builtIn['expiresinminutes'] = String(Math.ceil(input.expiresInSeconds / 60));
    if (magicLink) builtIn['magiclink'] = magicLink;
    if (logoUrl) builtIn['logourl'] = logoUrl;
    if (input.userIdentifier) builtIn['useridentifier'] = input.userIdentifier;
    return { ...renderCustom(custom.template, { builtIn, user: custom.user }, custom.id), ...sender };
  }
  const w = words(appName, input.expiresInSeconds !== undefined ? humanDuration(input.expiresInSeconds) : undefined);
  const layout: TLayout = { appName, logoUrl, secret: input.credentialBundle, secretIsLong: true, magicLink, ...w };
  return { subject: w.subject, text: layoutText(layout), html: layoutHtml(layout), ...sender };
}

/**
 * The account-recovery e-mail (init_user_email_recovery): carries a credential bundle.
 * @throws TemplateError on a bad customization.
 */
export function renderRecoveryEmail(input: TBundleEmailInput): TRenderedEmail {
  return renderBundleEmail(input, (appName, expires) => ({
    subject: `Recover your ${appName} account`,
    heading: `Recover your ${appName} account`,
    intro: `Someone asked to recover access to your ${appName} account. If it was you, paste this recovery code into ${appName}:`,
    linkLabel: 'Or continue with this link',
    outro: `${expires ? `It expires in ${expires}. ` : ''}If you did not ask to recover your account, ignore this e-mail: nothing changes until the code is used.`,
  }));
}

/**
 * The e-mail-auth e-mail (email_auth): carries a credential bundle that logs the user in.
 * @throws TemplateError on a bad customization.
 */
export function renderEmailAuthEmail(input: TBundleEmailInput): TRenderedEmail {
  return renderBundleEmail(input, (appName, expires) => ({
    subject: `Sign in to ${appName}`,
    heading: `Sign in to ${appName}`,
    intro: `Paste this login code into ${appName} to sign in:`,
    linkLabel: 'Or sign in with this link',
    outro: `${expires ? `It expires in ${expires}. ` : ''}If you did not try to sign in, you can ignore this e-mail.`,
  }));
}

/** What the invitation e-mail says; names are the organization's own, shown as text. */
export interface TInvitationEmailInput {
  invitationId: string;
  organizationName: string;
  senderUserName: string;
  receiverUserName: string;
}

/** Names shown in the invitation: one line, no control characters, bounded. */
function assertDisplayName(s: unknown, field: string): string {
  if (typeof s !== 'string' || s.trim().length === 0 || s.length > 256 || /\p{Cc}/u.test(s)) {
    throw new TemplateError('INVALID_ARGUMENT', field, `${field} must be a non-empty line of at most 256 characters`);
  }
  return s;
}

/**
 * The invitation e-mail (create_invitations): names the organization and the sender, and carries
 * the invitation id the receiver gives the organization's app to accept it.
 * @throws TemplateError when a name cannot be shown.
 */
export function renderInvitationEmail(input: TInvitationEmailInput): TRenderedEmail {
  const organizationName = assertDisplayName(input.organizationName, 'organizationName');
  const senderUserName = assertDisplayName(input.senderUserName, 'senderUserName');
  const receiverUserName = assertDisplayName(input.receiverUserName, 'receiverUserName');
  assertDisplayName(input.invitationId, 'invitationId');
  const layout: TLayout = {
    appName: organizationName,
    logoUrl: undefined,
    heading: `You are invited to ${organizationName}`,
    intro: `Hello ${receiverUserName}, ${senderUserName} invited you to join ${organizationName}. Your invitation:`,
    secret: input.invitationId,
    secretIsLong: true,
    magicLink: undefined,
    linkLabel: '',
    outro: 'Give this invitation to the app that sent it to accept. If you do not know the sender, ignore this e-mail.',
  };
  return { subject: `You are invited to ${organizationName}`, text: layoutText(layout), html: layoutHtml(layout) };
}

const SMS_PLACEHOLDERS: Record<string, 'code' | 'appName' | 'expires'> = {
  otpcode: 'code',
  code: 'code',
  appname: 'appName',
  expiresinminutes: 'expires',
};

/**
 * The OTP SMS. A custom template must contain `{{.OtpCode}}` (Turnkey's placeholder) or
 * `{{code}}`; `{{.AppName}}` / `{{appName}}` and `{{expiresInMinutes}}` are also filled.
 * @throws TemplateError on a bad template (a 400 naming smsCustomization.template).
 */
export function renderOtpSms(input: TOtpSmsInput): TRenderedSms {
  const appName = assertAppName(input.appName, 'appName');
  assertCode(input.code);
  assertSeconds(input.expiresInSeconds, 'expiresInSeconds');
  const template = input.smsCustomization?.template;
  if (template === undefined || template.trim() === '') {
    return { body: `${input.code} is your ${appName} verification code. It expires in ${humanDuration(input.expiresInSeconds)}.` };
  }
  const field = 'smsCustomization.template';
  if (template.length > MAX_SMS) throw new TemplateError('INVALID_TEMPLATE', field, `${field}: at most ${MAX_SMS} characters`);
  let hasCode = false;
  const body = template.replace(PLACEHOLDER, (_all, rawName: string): string => {
    const which = SMS_PLACEHOLDERS[rawName.toLowerCase()];
    if (which === undefined) {
      throw new TemplateError('INVALID_TEMPLATE', field, `${field}: unknown placeholder {{${rawName}}} (known: {{.OtpCode}}, {{code}}, {{.AppName}}, {{expiresInMinutes}})`);
    }
    switch (which) {
      case 'code':
        hasCode = true;
        return input.code;
      case 'appName':
        return appName;
      case 'expires':
        return String(Math.ceil(input.expiresInSeconds / 60));
    }
  });
  if (!hasCode) throw new TemplateError('INVALID_TEMPLATE', field, `${field}: must contain {{.OtpCode}} (or {{code}}) where the code goes`);
  if (body.length > MAX_SMS) throw new TemplateError('INVALID_TEMPLATE', field, `${field}: the message is longer than ${MAX_SMS} characters once filled`);
  return { body };
}
