/**
 * A mistake in how the CLI was called: printed with the command's help on stderr, exit code 2.
 * Commander's own parse errors (unknown command or option, missing value) end the same way.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}
