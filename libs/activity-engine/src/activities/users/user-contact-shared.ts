/**
 * The rule update_user_email and update_user_phone_number share (issue 16 §7): a new contact is
 * *verified* only when the request carries a verification token (init_otp → verify_otp) for
 * exactly that contact, of the right kind, issued in this organization or its parent; the token
 * is spent for this use (once) and the contact recorded as verified (list_verified_suborgs). Without
 * a token, a caller the policies allow (a root user, or an allowing policy) may set another user's
 * contact unverified, but a user changing their own must bring the token. Removing a contact
 * (`""`) needs no token.
 */
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../../engine/activity-definition.js';
import { verifiedContactOf } from '../../engine/principal.js';
import { assertUserExists } from '../../identity/add-user-credentials.js';
import { checkVerificationToken } from '../../identity/verification-tokens.js';

export type TContactKind = 'EMAIL' | 'PHONE_NUMBER';

const FIELD: Record<TContactKind, string> = { EMAIL: 'userEmail', PHONE_NUMBER: 'userPhoneNumber' };
const OTP: Record<TContactKind, string> = { EMAIL: 'OTP_TYPE_EMAIL', PHONE_NUMBER: 'OTP_TYPE_SMS' };

/** The key a token spent on a contact change is recorded under (apart from its login and sign-up uses). */
const spentForContact = (tokenId: string) => `contact:${tokenId}`;

/**
 * Applies the contact change (`""` clears it) and announces the user's change.
 * @throws AppError 404 for an unknown user; 400 naming `verificationToken` for a missing token on
 *   one's own contact, a token for another contact or kind, or one already used for a change
 */
export async function updateUserContact(ctx: TActivityContext, kind: TContactKind, p: { userId: string; contact: string; verificationToken?: string | undefined }): Promise<{ userId: string }> {
  await assertUserExists(ctx, p.userId);
  const field = FIELD[kind];
  const clearing = p.contact === '';
  if (clearing && p.verificationToken !== undefined) {
    throw new AppError('BAD_REQUEST', `verificationToken: there is no ${field} to verify when removing it; omit the token`, { field: 'verificationToken' });
  }
  if (!clearing && p.verificationToken === undefined && p.userId === ctx.principal.userId) {
    throw new AppError(
      'BAD_REQUEST',
      `verificationToken is required to change one's own ${field}: prove the new one with init_otp (${OTP[kind]}) and verify_otp, and pass the verificationToken it returns`,
      { field: 'verificationToken' },
    );
  }
  let verified = false;
  if (p.verificationToken !== undefined) {
    const claims = await checkVerificationToken(ctx, p.verificationToken);
    const proves = verifiedContactOf(claims);
    const same = kind === 'EMAIL' ? claims.contact.toLowerCase() === p.contact.toLowerCase() : claims.contact === p.contact;
    if (proves.kind !== kind || !same) {
      throw new AppError('BAD_REQUEST', `verificationToken: it verifies another ${proves.kind === 'EMAIL' ? 'e-mail address' : 'phone number'}, not this ${field}`, { field: 'verificationToken' });
    }
    if (!(await ctx.tx.logins.spendVerificationToken(spentForContact(claims.id), ctx.organizationId))) {
      throw new AppError('BAD_REQUEST', 'verificationToken: already used to change a contact', { field: 'verificationToken' });
    }
    verified = true;
  }
  const value = clearing ? null : p.contact;
  await ctx.tx.users.update(ctx.organizationId, p.userId, kind === 'EMAIL' ? { userEmail: value } : { userPhoneNumber: value }, ctx.now);
  if (verified) await ctx.tx.logins.markContactVerified({ userId: p.userId, organizationId: ctx.organizationId, kind, contact: p.contact, at: ctx.now });
  await ctx.tx.notifyChange('user', p.userId);
  return { userId: p.userId };
}
