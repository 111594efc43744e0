/**
 * sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2). A payload the key cannot
 * sign (wrong hash function for the curve, malformed transaction) fails the activity with the
 * reason.
 */
import { SigningError } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';

/** SigningError (a payload this key cannot sign) → a FAILED activity naming the reason. */
export function signingFailure<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof SigningError) throw new AppError('BAD_REQUEST', e.message);
    throw e;
  }
}
