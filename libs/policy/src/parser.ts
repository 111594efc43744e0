/**
 * The parser of policy expressions, recursive descent over the lexer's tokens. Grammar, lowest
 * precedence first (after Turnkey's `features/policies/language.mdx`):
 *
 *   expr    := and ('||' and)*                         left-associative
 *   and     := cmp ('&&' cmp)*                         left-associative
 *   cmp     := unary (('=='|'!='|'<'|'<='|'>'|'>='|'in') unary)?    not chainable
 *   unary   := '!' unary | postfix
 *   postfix := primary ( '.' ident
 *                      | '.' ('any'|'all'|'filter') '(' ident ',' expr ')'
 *                      | '.' 'contains' '(' expr ')' | '.' 'count' '(' ')'
 *                      | '[' expr ']' | '[' expr '..' expr ']' )*
 *   primary := int | '-' int | string | 'true' | 'false' | '[' (expr (',' expr)*)? ']'
 *            | 'Timestamp' '(' string ')' | ident | '(' expr ')'
 *
 * `!` binds tighter than comparisons, as in C and Rust: `!a == b` is `(!a) == b`; write
 * `!(a == b)`. Everything that can be checked without a request is checked here (integer ranges,
 * `Timestamp` literals, method arity), so a stored policy never fails to parse at evaluation.
 */
import { LAMBDA_METHODS, type TCompareOp, type TExpr, type TLambdaMethod } from './ast.js';
import { PolicyParseError } from './errors.js';
import { describeToken, tokenize, type TToken } from './lexer.js';
import { parseTimestamp } from './timestamp.js';

/** Longest accepted source, in UTF-16 code units (Turnkey's policies are short; this bounds the work). */
export const MAX_POLICY_EXPRESSION_LENGTH = 4096;
/** Deepest accepted tree; bounds the evaluator's and printer's recursion. */
export const MAX_POLICY_EXPRESSION_DEPTH = 256;
/** Deepest bracket/parenthesis/`!` nesting; bounds the parser's own recursion. */
export const MAX_POLICY_EXPRESSION_NESTING = 64;

/** u256 max: the largest literal (`uint`). */
export const MAX_INT_LITERAL = (1n << 256n) - 1n;
/** i128 min: the smallest literal (`int`). */
export const MIN_INT_LITERAL = -(1n << 127n);

const COMPARE_OPS: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** True for a blank consensus/condition, which restricts nothing (the caller treats it as true). */
export function isEmptyExpression(source: string | null | undefined): boolean {
  return source === undefined || source === null || /^\s*$/.test(source);
}

type TNode = { expr: TExpr; depth: number };

class Parser {
  private at = 0;
  private nesting = 0;

  constructor(private readonly tokens: readonly TToken[]) {}

  parse(): TExpr {
    const { expr } = this.expression();
    const next = this.peek();
    if (next.type !== 'eof') throw this.unexpected(next);
    return expr;
  }

  private peek(offset = 0): TToken {
    return this.tokens[Math.min(this.at + offset, this.tokens.length - 1)]!;
  }

  private next(): TToken {
    const token = this.peek();
    if (token.type !== 'eof') this.at += 1;
    return token;
  }

  private isPunct(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.type === 'punct' && token.text === text;
  }

  private expect(text: string): TToken {
    const token = this.next();
    if (token.type !== 'punct' || token.text !== text) throw this.unexpected(token, `expected '${text}'`);
    return token;
  }

  private unexpected(token: TToken, hint?: string): PolicyParseError {
    return new PolicyParseError(token.position, `unexpected ${describeToken(token)} at position ${token.position}${hint ? ` (${hint})` : ''}`);
  }

  /** Builds a node one deeper than its deepest child, refusing trees deeper than the limit. */
  private node(expr: TExpr, at: TToken, ...children: TNode[]): TNode {
    const depth = 1 + children.reduce((max, c) => Math.max(max, c.depth), 0);
    if (depth > MAX_POLICY_EXPRESSION_DEPTH) {
      throw new PolicyParseError(at.position, `expression nested deeper than ${MAX_POLICY_EXPRESSION_DEPTH} levels at position ${at.position}`);
    }
    return { expr, depth };
  }

  /** Runs `parse` one nesting level down (brackets, parentheses, arguments, `!`). */
  private nested<T>(at: TToken, parse: () => T): T {
    if (this.nesting >= MAX_POLICY_EXPRESSION_NESTING) {
      throw new PolicyParseError(at.position, `expression nested deeper than ${MAX_POLICY_EXPRESSION_NESTING} brackets at position ${at.position}`);
    }
    this.nesting += 1;
    try {
      return parse();
    } finally {
      this.nesting -= 1;
    }
  }

  private expression(): TNode {
    let left = this.and();
    while (this.isPunct('||')) {
      const op = this.next();
      const right = this.and();
      left = this.node({ kind: 'logical', op: '||', left: left.expr, right: right.expr }, op, left, right);
    }
    return left;
  }

  private and(): TNode {
    let left = this.comparison();
    while (this.isPunct('&&')) {
      const op = this.next();
      const right = this.comparison();
      left = this.node({ kind: 'logical', op: '&&', left: left.expr, right: right.expr }, op, left, right);
    }
    return left;
  }

  private comparison(): TNode {
    const left = this.unary();
    const token = this.peek();
    const isCompare = (token.type === 'punct' && COMPARE_OPS.has(token.text)) || token.type === 'in';
    if (!isCompare) return left;
    this.next();
    const right = this.unary();
    const after = this.peek();
    if ((after.type === 'punct' && COMPARE_OPS.has(after.text)) || after.type === 'in') {
      throw this.unexpected(after, 'comparisons do not chain; use && or parentheses');
    }
    return this.node({ kind: 'compare', op: token.text as TCompareOp, left: left.expr, right: right.expr }, token, left, right);
  }

  private unary(): TNode {
    if (this.isPunct('!')) {
      const bang = this.next();
      const operand = this.nested(bang, () => this.unary());
      return this.node({ kind: 'not', operand: operand.expr }, bang, operand);
    }
    return this.postfix();
  }

  private postfix(): TNode {
    let target = this.primary();
    for (;;) {
      if (this.isPunct('.')) {
        const dot = this.next();
        const name = this.next();
        if (name.type !== 'ident') throw this.unexpected(name, 'expected a field or method name after \'.\'');
        if (this.isPunct('(')) target = this.methodCall(target, name);
        else target = this.node({ kind: 'member', object: target.expr, field: name.text }, dot, target);
        continue;
      }
      if (this.isPunct('[')) {
        const open = this.next();
        target = this.nested(open, () => {
          const first = this.expression();
          if (this.isPunct('..')) {
            this.next();
            const end = this.expression();
            this.expect(']');
            return this.node({ kind: 'slice', object: target.expr, start: first.expr, end: end.expr }, open, target, first, end);
          }
          this.expect(']');
          return this.node({ kind: 'index', object: target.expr, index: first.expr }, open, target, first);
        });
        continue;
      }
      return target;
    }
  }

  private methodCall(target: TNode, name: TToken): TNode {
    const open = this.expect('(');
    return this.nested(open, () => {
      if (LAMBDA_METHODS.has(name.text)) {
        const param = this.next();
        if (param.type !== 'ident') throw this.unexpected(param, `${name.text}() takes an item name first, as in ${name.text}(x, <predicate>)`);
        this.expect(',');
        const body = this.expression();
        this.expect(')');
        return this.node({ kind: 'lambda', method: name.text as TLambdaMethod, target: target.expr, param: param.text, body: body.expr }, name, target, body);
      }
      if (name.text === 'contains') {
        const value = this.expression();
        this.expect(')');
        return this.node({ kind: 'contains', target: target.expr, value: value.expr }, name, target, value);
      }
      if (name.text === 'count') {
        this.expect(')');
        return this.node({ kind: 'count', target: target.expr }, name, target);
      }
      throw new PolicyParseError(name.position, `unknown function '${name.text}' at position ${name.position} (known: any, all, filter, contains, count)`);
    });
  }

  private primary(): TNode {
    const token = this.next();
    switch (token.type) {
      case 'int':
        return this.node({ kind: 'int', value: this.integer(token, false) }, token);
      case 'string':
        return this.node({ kind: 'string', value: token.text }, token);
      case 'true':
      case 'false':
        return this.node({ kind: 'bool', value: token.type === 'true' }, token);
      case 'ident':
        if (token.text === 'Timestamp' && this.isPunct('(')) return this.timestamp(token);
        if (token.text === 'CronSpan' && this.isPunct('(')) {
          throw new PolicyParseError(token.position, `CronSpan is not supported at position ${token.position}`);
        }
        return this.node({ kind: 'var', name: token.text }, token);
      case 'punct':
        if (token.text === '-') {
          const digits = this.next();
          if (digits.type !== 'int') throw this.unexpected(digits, "'-' must be followed by an integer");
          return this.node({ kind: 'int', value: this.integer(digits, true) }, token);
        }
        if (token.text === '(') {
          return this.nested(token, () => {
            const inner = this.expression();
            this.expect(')');
            return inner;
          });
        }
        if (token.text === '[') return this.list(token);
        throw this.unexpected(token);
      default:
        throw this.unexpected(token);
    }
  }

  private integer(token: TToken, negative: boolean): bigint {
    const magnitude = BigInt(token.text);
    const value = negative ? -magnitude : magnitude;
    if (value > MAX_INT_LITERAL) throw new PolicyParseError(token.position, `integer at position ${token.position} is larger than a uint (u256)`);
    if (value < MIN_INT_LITERAL) throw new PolicyParseError(token.position, `integer at position ${token.position} is smaller than an int (i128)`);
    return value;
  }

  private list(open: TToken): TNode {
    return this.nested(open, () => {
      const items: TNode[] = [];
      if (!this.isPunct(']')) {
        for (;;) {
          items.push(this.expression());
          if (this.isPunct(',')) {
            this.next();
            continue;
          }
          break;
        }
      }
      this.expect(']');
      return this.node({ kind: 'list', items: items.map((i) => i.expr) }, open, ...items);
    });
  }

  private timestamp(name: TToken): TNode {
    this.expect('(');
    const literal = this.next();
    if (literal.type !== 'string') throw this.unexpected(literal, "Timestamp takes one string, as in Timestamp('2024-01-01T00:00:00Z')");
    this.expect(')');
    const parsed = parseTimestamp(literal.text);
    if (typeof parsed === 'string') throw new PolicyParseError(literal.position, `invalid Timestamp at position ${literal.position}: ${parsed}`);
    return this.node({ kind: 'timestamp', text: literal.text }, name);
  }
}

/**
 * Parses a `consensus` or `condition` expression.
 * @throws {PolicyParseError} naming the 0-based position of the first problem: an unexpected
 *   token or character, an unterminated string, an out-of-range integer, a bad `Timestamp`
 *   literal, an unknown function, an empty source, or a source beyond the length/depth limits.
 */
export function parsePolicyExpression(source: string): TExpr {
  if (typeof source !== 'string') throw new PolicyParseError(0, 'policy expression must be a string');
  if (source.length > MAX_POLICY_EXPRESSION_LENGTH) {
    throw new PolicyParseError(MAX_POLICY_EXPRESSION_LENGTH, `policy expression is longer than ${MAX_POLICY_EXPRESSION_LENGTH} characters`);
  }
  if (isEmptyExpression(source)) throw new PolicyParseError(0, 'empty expression at position 0');
  return new Parser(tokenize(source)).parse();
}
