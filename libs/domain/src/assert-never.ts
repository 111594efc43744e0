/**
 * The end of an exhaustive `switch`: TypeScript proves the call unreachable, and at run time (a
 * value from outside the types: a database row, a newer enum) it throws. `fail` builds the error
 * where the caller's refusal has a type of its own (a SigningError, a DerivationError).
 */
export function assertNever(value: never, fail?: (value: unknown) => Error): never {
  if (fail) throw fail(value);
  throw new Error(`unexpected value ${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
}
