/**
 * Canonical text of a policy expression: single spaces around binary operators, none inside
 * brackets, parentheses only where precedence or associativity needs them. Parsing the printed
 * text gives back the same tree (the round-trip property the specs check), so it is safe to store
 * or show a normalized policy.
 */
import { assertNever, type TExpr } from './ast.js';

// Binding strength; a child weaker than its slot is parenthesized.
const OR = 1;
const AND = 2;
const COMPARE = 3;
const UNARY = 4;
const POSTFIX = 5;

function precedence(expr: TExpr): number {
  switch (expr.kind) {
    case 'logical':
      return expr.op === '||' ? OR : AND;
    case 'compare':
      return COMPARE;
    case 'not':
      return UNARY;
    default:
      return POSTFIX;
  }
}

function wrap(expr: TExpr, min: number): string {
  const text = print(expr);
  return precedence(expr) < min ? `(${text})` : text;
}

function print(expr: TExpr): string {
  switch (expr.kind) {
    case 'bool':
      return expr.value ? 'true' : 'false';
    case 'int':
      return expr.value.toString();
    case 'string':
      // The language has no escapes; the parser cannot produce a quote inside a string.
      return `'${expr.value}'`;
    case 'timestamp':
      return `Timestamp('${expr.text}')`;
    case 'list':
      return `[${expr.items.map(print).join(', ')}]`;
    case 'var':
      return expr.name;
    case 'member':
      return `${wrap(expr.object, POSTFIX)}.${expr.field}`;
    case 'index':
      return `${wrap(expr.object, POSTFIX)}[${print(expr.index)}]`;
    case 'slice':
      return `${wrap(expr.object, POSTFIX)}[${print(expr.start)}..${print(expr.end)}]`;
    case 'not':
      return `!${wrap(expr.operand, UNARY)}`;
    case 'logical': {
      const level = expr.op === '||' ? OR : AND;
      // Left-associative: a right child of the same level keeps its parentheses.
      return `${wrap(expr.left, level)} ${expr.op} ${wrap(expr.right, level + 1)}`;
    }
    case 'compare':
      // Not chainable: both sides must bind tighter than a comparison.
      return `${wrap(expr.left, UNARY)} ${expr.op} ${wrap(expr.right, UNARY)}`;
    case 'lambda':
      return `${wrap(expr.target, POSTFIX)}.${expr.method}(${expr.param}, ${print(expr.body)})`;
    case 'contains':
      return `${wrap(expr.target, POSTFIX)}.contains(${print(expr.value)})`;
    case 'count':
      return `${wrap(expr.target, POSTFIX)}.count()`;
    default:
      return assertNever(expr);
  }
}

/** The canonical source text of `expr`; `parsePolicyExpression(printPolicyExpression(e))` deep-equals `e`. */
export function printPolicyExpression(expr: TExpr): string {
  return print(expr);
}
