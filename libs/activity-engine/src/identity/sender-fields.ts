/**
 * The sender fields every e-mail activity carries (`sendFromEmailAddress`, …), copied only when
 * set, so the message port sees exactly what the caller asked for.
 */
import type { TSenderCustomization } from '@latchkey/domain';

export function senderFields(p: TSenderCustomization): TSenderCustomization {
  return {
    ...(p.sendFromEmailAddress ? { sendFromEmailAddress: p.sendFromEmailAddress } : {}),
    ...(p.sendFromEmailSenderName ? { sendFromEmailSenderName: p.sendFromEmailSenderName } : {}),
    ...(p.replyToEmailAddress ? { replyToEmailAddress: p.replyToEmailAddress } : {}),
  };
}
