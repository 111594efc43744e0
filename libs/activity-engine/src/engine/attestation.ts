/**
 * The one-use rule of `X-Stamp-Attested`: authentication checks the verification token that vouches
 * for the key, but the token is spent only by what runs with it — stamp_login, or the submission of
 * a stamp_login a policy makes wait — inside that activity's transaction.
 */
import { AppError } from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TPrincipal } from './principal.js';

/**
 * Spends the verification token an `X-Stamp-Attested` principal was vouched for by, in `tx`: by
 * the stamp_login that runs, or — when a policy makes that stamp_login wait for approval — by its
 * submission, since the approval runs it later without the token — and records the contact the
 * token proves as verified for the user. Other principals: nothing.
 * @throws AppError UNAUTHENTICATED when the token was already used
 */
export async function spendAttestation(tx: TRepositories, principal: TPrincipal, organizationId: string): Promise<void> {
  const cred = principal.credential;
  if (cred.kind !== 'attested' || !cred.verificationTokenId) return;
  if (!(await tx.logins.spendVerificationToken(cred.verificationTokenId, organizationId))) {
    throw new AppError('UNAUTHENTICATED', 'attested stamp refused: the verification token was already used');
  }
  // The user logged in with a code sent to this contact: it is now verified (list_verified_suborgs).
  if (cred.verifiedContact) await tx.logins.markContactVerified({ userId: principal.userId, organizationId: principal.organizationId, ...cred.verifiedContact });
}
