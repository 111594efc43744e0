/**
 * @latchkey/delivery — delivery of OTP, recovery and e-mail-auth messages: configuration (LATCHKEY_SMTP_URL, …),
 * the mailer (SMTP or the developer outbox), SMS providers, and the message templates.
 */
export {
  DELIVERY_CONFIG_VARIABLES,
  DEFAULT_EMAIL_FROM,
  DEFAULT_TWILIO_BASE_URL,
  DeliveryError,
  describeDeliveryConfig,
  isEmailAddress,
  parseMailbox,
  parseSmtpUrl,
  readDeliveryConfig,
  type TDeliveryConfig,
  type TDeliveryErrorReason,
  type TDeliveryLogger,
  type TMailAddress,
  type TSmsConfig,
  type TSmtpConfig,
  type TTwilioConfig,
} from './config.js';
export { createMailer, writeOutboxFile, type TMailMessage, type TMailer } from './mailer.js';
export { createConsoleSmsProvider, createSmsProvider, createTwilioSmsProvider, type TSmsMessage, type TSmsProvider, type TTwilioOptions } from './sms.js';
export {
  TemplateError,
  escapeHtml,
  fillMagicLink,
  humanDuration,
  parseTemplateVariables,
  renderEmailAuthEmail,
  renderOtpEmail,
  renderOtpSms,
  renderRecoveryEmail,
  renderInvitationEmail,
  type TBundleEmailInput,
  type TCustomEmailTemplate,
  type TEmailCustomization,
  type TOtpEmailInput,
  type TOtpSmsInput,
  type TRenderedEmail,
  type TRenderedSms,
  type TSenderCustomization,
  type TSenderOverride,
  type TSmsCustomization,
  type TTemplateErrorReason,
  type TTemplateResolver,
} from './templates.js';
export { createMessageSender } from './message-sender.js';
