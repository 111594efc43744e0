/**
 * The Auth page's preview: the OTP e-mail and SMS an auth proxy would send with the settings being
 * edited, rendered by the delivery lib's own templates (the ones the engine's messages go
 * through), with a sample code. A customization the templates refuse is a 400 naming the field,
 * as it would be when a real message is sent.
 */
import { renderOtpEmail, renderOtpSms, TemplateError, type TRenderedEmail, type TRenderedSms } from '@latchkey/delivery';
import { AppError, type TUpdateAuthProxyConfigIntent } from '@latchkey/domain';

export type TAuthMessageSettings = Pick<
  TUpdateAuthProxyConfigIntent,
  'emailCustomizationParams' | 'smsCustomizationParams' | 'sendFromEmailAddress' | 'sendFromEmailSenderName' | 'replyToEmailAddress' | 'otpLength' | 'otpAlphanumeric' | 'otpExpirationSeconds'
>;

/** A code of the configured shape, so the preview looks like the real thing (never a real code). */
function sampleCode(length: number, alphanumeric: boolean): string {
  const alphabet = alphanumeric ? 'A7K2M9Q4' : '73920518';
  return Array.from({ length }, (_, i) => alphabet[i % alphabet.length]).join('');
}

/**
 * @throws AppError BAD_REQUEST naming the customization field the templates refuse
 */
export function previewAuthMessages(s: TAuthMessageSettings): { email: TRenderedEmail; sms: TRenderedSms; code: string } {
  const code = sampleCode(s.otpLength ?? 6, s.otpAlphanumeric ?? true);
  const appName = s.emailCustomizationParams?.appName || 'Latchkey';
  const expiresInSeconds = s.otpExpirationSeconds ?? 300;
  try {
    const email = renderOtpEmail({
      appName,
      code,
      expiresInSeconds,
      ...(s.emailCustomizationParams ? { emailCustomization: s.emailCustomizationParams } : {}),
      ...(s.sendFromEmailAddress ? { sendFromEmailAddress: s.sendFromEmailAddress } : {}),
      ...(s.sendFromEmailSenderName ? { sendFromEmailSenderName: s.sendFromEmailSenderName } : {}),
      ...(s.replyToEmailAddress ? { replyToEmailAddress: s.replyToEmailAddress } : {}),
    });
    const sms = renderOtpSms({ appName, code, expiresInSeconds, ...(s.smsCustomizationParams ? { smsCustomization: s.smsCustomizationParams } : {}) });
    return { email, sms, code };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    const field = e.field.replace(/^emailCustomization/, 'emailCustomizationParams').replace(/^smsCustomization/, 'smsCustomizationParams');
    throw new AppError('BAD_REQUEST', `${field}: ${e.message.replace(/^[\w.]+: /, '')}`, { field, reason: e.reason });
  }
}
