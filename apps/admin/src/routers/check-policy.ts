/** The policy editor's syntax check: each expression through the language's one parser. */
import { isEmptyExpression, parsePolicyExpression, PolicyParseError } from '@latchkey/policy';

export interface TExpressionCheck {
  ok: boolean;
  /** Set when `ok` is false. Line and column are 1-based. */
  error?: { message: string; line: number; column: number; position: number };
}

/** Line and column (1-based) of a 0-based offset. */
export function lineColumn(source: string, position: number): { line: number; column: number } {
  const before = source.slice(0, position).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

function checkOne(source: string | undefined): TExpressionCheck {
  if (source === undefined || isEmptyExpression(source)) return { ok: true };
  try {
    parsePolicyExpression(source);
    return { ok: true };
  } catch (e) {
    if (!(e instanceof PolicyParseError)) throw e;
    return { ok: false, error: { message: e.message, position: e.position, ...lineColumn(source, e.position) } };
  }
}

export function checkPolicyExpressions(input: { condition?: string | undefined; consensus?: string | undefined }): { condition: TExpressionCheck; consensus: TExpressionCheck } {
  return { condition: checkOne(input.condition), consensus: checkOne(input.consensus) };
}
