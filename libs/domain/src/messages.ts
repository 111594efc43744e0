/**
 * The messages the login flows send (OTP codes, e-mail-auth and recovery bundles) and the port the
 * activity engine sends them through. The engine fills these from an activity's intent; the
 * delivery lib renders them (templates, customization) and hands them to SMTP or an SMS provider.
 * Types only: the port is declared here so that neither side imports the other.
 */
import type { TEmailCustomization, TSmsCustomization } from './activities/login.js';

/** Turnkey's sender fields, shared by every e-mail activity. */
export interface TSenderCustomization {
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
}

export interface TEmailMessageCommon extends TSenderCustomization {
  emailCustomization?: TEmailCustomization;
  /** Turnkey's per-user identifier (rate limiting); only visible to custom templates. */
  userIdentifier?: string;
}

export interface TOtpEmailMessage extends TEmailMessageCommon {
  appName: string;
  code: string;
  expiresInSeconds: number;
}

export interface TBundleEmailMessage extends TEmailMessageCommon {
  /** Falls back to emailCustomization.appName, then "Latchkey". */
  appName?: string;
  credentialBundle: string;
  expiresInSeconds?: number;
}

/** The invitation e-mail (create_invitations): who invites whom to which organization. */
export interface TInvitationEmailMessage {
  invitationId: string;
  organizationName: string;
  senderUserName: string;
  receiverUserName: string;
}

/**
 * What the mail server made of an e-mail (list_email_events): its Message-ID, the envelope sender
 * and, over SMTP, the server's reply (`250 …` when accepted; absent for the developer outbox). A
 * refused message is an `UNAVAILABLE` AppError whose fields carry `messageId`, `from`,
 * `smtpResponseCode` and `smtpResponse`.
 */
export interface TEmailReceipt {
  messageId: string;
  from: string;
  smtpResponse?: string;
}

export interface TOtpSmsMessage {
  appName: string;
  code: string;
  expiresInSeconds: number;
  smsCustomization?: TSmsCustomization;
}

/**
 * Sends one rendered message to `to` (an e-mail address or an E.164 number).
 * Implementations throw `AppError`: `BAD_REQUEST` when a customization cannot be rendered,
 * `UNAVAILABLE` when the message could not be delivered.
 */
export interface TMessageSender {
  otpEmail(to: string, m: TOtpEmailMessage): Promise<TEmailReceipt>;
  otpSms(to: string, m: TOtpSmsMessage): Promise<void>;
  emailAuth(to: string, m: TBundleEmailMessage): Promise<TEmailReceipt>;
  recovery(to: string, m: TBundleEmailMessage): Promise<TEmailReceipt>;
  invitation(to: string, m: TInvitationEmailMessage): Promise<TEmailReceipt>;
}
