/**
 * The syntax tree of a policy expression (`consensus`, `condition`). Plain data, no source
 * positions, so two spellings of one expression parse to deep-equal trees (what the printer's
 * round trip is tested against).
 */
import { assertNever } from '@latchkey/domain';

export { assertNever };

export type TCompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in';
export type TLogicalOp = '&&' | '||';
/** Methods that bind an item variable: `list.any(x, <predicate>)`. */
export type TLambdaMethod = 'any' | 'all' | 'filter';

export type TExpr =
  | { kind: 'bool'; value: boolean }
  /** Integers of the language (i128 and u256) as one bigint. */
  | { kind: 'int'; value: bigint }
  | { kind: 'string'; value: string }
  | { kind: 'list'; items: TExpr[] }
  /** `Timestamp('<rfc3339>')`; `text` was checked when parsed. */
  | { kind: 'timestamp'; text: string }
  /** A context keyword (`activity`, `approvers`, …) or a lambda's item variable. */
  | { kind: 'var'; name: string }
  | { kind: 'member'; object: TExpr; field: string }
  | { kind: 'index'; object: TExpr; index: TExpr }
  /** `object[start..end]`, end exclusive. */
  | { kind: 'slice'; object: TExpr; start: TExpr; end: TExpr }
  | { kind: 'not'; operand: TExpr }
  | { kind: 'logical'; op: TLogicalOp; left: TExpr; right: TExpr }
  | { kind: 'compare'; op: TCompareOp; left: TExpr; right: TExpr }
  | { kind: 'lambda'; method: TLambdaMethod; target: TExpr; param: string; body: TExpr }
  | { kind: 'contains'; target: TExpr; value: TExpr }
  | { kind: 'count'; target: TExpr };

export type TExprKind = TExpr['kind'];

/** Words that are tokens of their own and cannot name a variable or a field. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(['true', 'false', 'in']);

export const LAMBDA_METHODS: ReadonlySet<string> = new Set<TLambdaMethod>(['any', 'all', 'filter']);

/** The direct sub-expressions of a node, in source order (a lambda's target, then its body). */
export function childrenOf(expr: TExpr): TExpr[] {
  switch (expr.kind) {
    case 'bool':
    case 'int':
    case 'string':
    case 'timestamp':
    case 'var':
      return [];
    case 'list':
      return expr.items;
    case 'member':
      return [expr.object];
    case 'index':
      return [expr.object, expr.index];
    case 'slice':
      return [expr.object, expr.start, expr.end];
    case 'not':
      return [expr.operand];
    case 'logical':
    case 'compare':
      return [expr.left, expr.right];
    case 'lambda':
      return [expr.target, expr.body];
    case 'contains':
      return [expr.target, expr.value];
    case 'count':
      return [expr.target];
    default:
      return assertNever(expr);
  }
}

/** The depth of a tree (a leaf is 1); the parser bounds it so evaluation cannot exhaust the stack. */
export function exprDepth(expr: TExpr): number {
  return 1 + childrenOf(expr).reduce((max, child) => Math.max(max, exprDepth(child)), 0);
}

