/**
 * The two typed errors of the policy language. A parse error is the author's mistake and is
 * returned when the policy is written (400 "invalid policy condition|consensus"); an evaluation
 * error is a property of one request (a field the activity does not have) and makes that policy
 * not apply, recorded with the evaluation.
 */

/** A policy expression does not parse; `position` is the 0-based offset of the offending character. */
export class PolicyParseError extends Error {
  override readonly name = 'PolicyParseError';

  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

export type TPolicyEvaluationErrorKind =
  /** A field or keyword the context does not have (`private_key.id` on a wallet signature). */
  | 'MissingField'
  /** An operator or function applied to a value of the wrong type (`1 == 'a'`, `'a'.count()`). */
  | 'TypeMismatch'
  /** An index or slice outside its list or string. */
  | 'IndexOutOfBounds'
  /** The expression evaluated to something other than a boolean. */
  | 'NotBoolean'
  /** A context value the language has no type for (a float, null, a function), or a bad timestamp. */
  | 'InvalidValue'
  /** The evaluation would take too many steps or nest too deep. */
  | 'LimitExceeded';

/** A policy expression failed on this context; the policy does not apply. */
export class PolicyEvaluationError extends Error {
  override readonly name = 'PolicyEvaluationError';

  constructor(
    readonly kind: TPolicyEvaluationErrorKind,
    message: string,
  ) {
    super(message);
  }
}
