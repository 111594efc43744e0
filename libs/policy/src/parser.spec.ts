/**
 * The parser and printer on hand-picked inputs: the shapes of the grammar, precedence, the
 * canonical text, and parse errors that name their position.
 */
import { describe, expect, it } from 'vitest';
import type { TExpr } from './ast.js';
import { PolicyParseError } from './errors.js';
import {
  MAX_INT_LITERAL,
  MAX_POLICY_EXPRESSION_DEPTH,
  MAX_POLICY_EXPRESSION_LENGTH,
  MIN_INT_LITERAL,
  isEmptyExpression,
  parsePolicyExpression,
} from './parser.js';
import { printPolicyExpression } from './printer.js';

const v = (name: string): TExpr => ({ kind: 'var', name });
const s = (value: string): TExpr => ({ kind: 'string', value });
const i = (value: bigint): TExpr => ({ kind: 'int', value });
const m = (object: TExpr, field: string): TExpr => ({ kind: 'member', object, field });

/** The PolicyParseError `source` fails with (fails the test when it parses). */
function parseError(source: string): PolicyParseError {
  try {
    parsePolicyExpression(source);
  } catch (error) {
    if (error instanceof PolicyParseError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} not to parse`);
}

describe('parsePolicyExpression', () => {
  it('parses the documented consensus shapes', () => {
    expect(parsePolicyExpression("approvers.any(user, user.id == 'u1')")).toEqual({
      kind: 'lambda',
      method: 'any',
      target: v('approvers'),
      param: 'user',
      body: { kind: 'compare', op: '==', left: m(v('user'), 'id'), right: s('u1') },
    });
    expect(parsePolicyExpression("approvers.filter(user, user.tags.contains('t')).count() >= 2")).toEqual({
      kind: 'compare',
      op: '>=',
      left: {
        kind: 'count',
        target: { kind: 'lambda', method: 'filter', target: v('approvers'), param: 'user', body: { kind: 'contains', target: m(v('user'), 'tags'), value: s('t') } },
      },
      right: i(2n),
    });
  });

  it('parses member chains, indexing, slicing and list literals', () => {
    expect(parsePolicyExpression("eth.tx.data[0..10] == '0xa9059cbb'")).toEqual({
      kind: 'compare',
      op: '==',
      left: { kind: 'slice', object: m(m(v('eth'), 'tx'), 'data'), start: i(0n), end: i(10n) },
      right: s('0xa9059cbb'),
    });
    expect(parsePolicyExpression("solana.tx.instructions[0].accounts[0].account_key == 'k'")).toMatchObject({ kind: 'compare', left: { kind: 'member', field: 'account_key' } });
    expect(parsePolicyExpression("activity.resource in ['AUTH', 'OTP']")).toEqual({
      kind: 'compare',
      op: 'in',
      left: m(v('activity'), 'resource'),
      right: { kind: 'list', items: [s('AUTH'), s('OTP')] },
    });
    expect(parsePolicyExpression("eth.tx.contract_call_args['wad'] < 1")).toMatchObject({ left: { kind: 'index', index: s('wad') } });
    expect(parsePolicyExpression('[]')).toEqual({ kind: 'list', items: [] });
  });

  it('parses literals: signed and 256-bit integers, booleans, strings with any character but a quote, timestamps', () => {
    expect(parsePolicyExpression(MAX_INT_LITERAL.toString())).toEqual(i(MAX_INT_LITERAL));
    expect(parsePolicyExpression(MIN_INT_LITERAL.toString())).toEqual(i(MIN_INT_LITERAL));
    expect(parsePolicyExpression('- 5')).toEqual(i(-5n));
    expect(parsePolicyExpression('true')).toEqual({ kind: 'bool', value: true });
    expect(parsePolicyExpression("'a \"b\" ( ) && é'")).toEqual(s('a "b" ( ) && é'));
    expect(parsePolicyExpression("time.now < Timestamp('2024-01-01T00:00:00Z')")).toMatchObject({ right: { kind: 'timestamp', text: '2024-01-01T00:00:00Z' } });
  });

  it('gives && precedence over ||, comparisons over both, and ! over comparisons; chains are left-associative', () => {
    const a = (n: string): TExpr => ({ kind: 'compare', op: '==', left: v(n), right: i(1n) });
    expect(parsePolicyExpression('a == 1 || b == 1 && c == 1')).toEqual({ kind: 'logical', op: '||', left: a('a'), right: { kind: 'logical', op: '&&', left: a('b'), right: a('c') } });
    expect(parsePolicyExpression('x && y && z')).toEqual({ kind: 'logical', op: '&&', left: { kind: 'logical', op: '&&', left: v('x'), right: v('y') }, right: v('z') });
    expect(parsePolicyExpression('!a == b')).toEqual({ kind: 'compare', op: '==', left: { kind: 'not', operand: v('a') }, right: v('b') });
    expect(parsePolicyExpression('!(a == b)')).toEqual({ kind: 'not', operand: { kind: 'compare', op: '==', left: v('a'), right: v('b') } });
  });

  it('treats Timestamp as a plain name unless it is called', () => {
    expect(parsePolicyExpression('Timestamp.x')).toEqual(m(v('Timestamp'), 'x'));
  });

  it('reports the position of the offending token', () => {
    const e = parseError("approvers.any(user, user.id == 'x'))");
    expect(e.position).toBe(35);
    expect(e.message).toBe("unexpected token ')' at position 35");
    expect(parseError('a == ').message).toBe('unexpected end of input at position 5');
    expect(parseError('a == b == c')).toMatchObject({ position: 7 });
    expect(parseError('a # b')).toMatchObject({ position: 2, message: "unexpected character \"#\" at position 2" });
    expect(parseError('"a"').message).toContain('single quotes');
    expect(parseError("a == 'abc").message).toBe('unterminated string starting at position 5');
    expect(parseError('12abc')).toMatchObject({ position: 2 });
    expect(parseError('a.1')).toMatchObject({ position: 2 });
    expect(parseError('a.in')).toMatchObject({ position: 2 });
    expect(parseError('a -')).toMatchObject({ position: 2 });
  });

  it('refuses unknown functions, wrong arities and non-identifier lambda parameters', () => {
    expect(parseError('a.size()').message).toBe("unknown function 'size' at position 2 (known: any, all, filter, contains, count)");
    expect(parseError('a.count(1)')).toMatchObject({ position: 8 });
    expect(parseError('a.contains()')).toMatchObject({ position: 11 });
    expect(parseError("a.any('x', true)")).toMatchObject({ position: 6 });
    expect(parseError('a.all(x)')).toMatchObject({ position: 7 });
    expect(parseError("CronSpan('0 9 * * 1-5', '8h', 'UTC')").message).toContain('CronSpan is not supported');
  });

  it('checks integer ranges and Timestamp literals when parsing, not when evaluating', () => {
    expect(parseError((MAX_INT_LITERAL + 1n).toString()).message).toContain('larger than a uint (u256)');
    expect(parseError(`-${(-MIN_INT_LITERAL + 1n).toString()}`).message).toContain('smaller than an int (i128)');
    expect(parseError("Timestamp('2024-01-01T00:00:00-05:00')").message).toContain('zero UTC offset');
    expect(parseError("Timestamp('2024-02-30T00:00:00Z')")).toMatchObject({ position: 10 });
    expect(parseError("Timestamp('yesterday')").message).toContain('not an RFC 3339 timestamp');
    expect(parseError('Timestamp(1)')).toMatchObject({ position: 10 });
  });

  it('refuses sources beyond the length and depth limits with a parse error (not a stack overflow)', () => {
    expect(parseError('a'.repeat(MAX_POLICY_EXPRESSION_LENGTH + 1))).toMatchObject({ position: MAX_POLICY_EXPRESSION_LENGTH });
    expect(parseError(`${'('.repeat(2000)}a${')'.repeat(2000)}`).message).toContain('nested deeper');
    expect(parseError(`${'!'.repeat(2000)}a`).message).toContain('nested deeper');
    expect(parseError(`a${'.b'.repeat(MAX_POLICY_EXPRESSION_DEPTH)}`).message).toContain(`deeper than ${MAX_POLICY_EXPRESSION_DEPTH} levels`);
    expect(parseError(Array.from({ length: 400 }, () => 'a').join(' || ')).message).toContain('nested deeper');
    // A long allow-list of addresses stays well within the limits.
    const allowList = Array.from({ length: 60 }, (_, n) => `eth.tx.to == '0x${n.toString(16).padStart(40, '0')}'`).join(' || ');
    expect(parsePolicyExpression(allowList)).toMatchObject({ kind: 'logical', op: '||' });
  });

  it('refuses an empty source; isEmptyExpression says when the caller should not parse at all', () => {
    expect(parseError('   ')).toMatchObject({ position: 0 });
    expect(isEmptyExpression('')).toBe(true);
    expect(isEmptyExpression(' \n\t')).toBe(true);
    expect(isEmptyExpression(undefined)).toBe(true);
    expect(isEmptyExpression('true')).toBe(false);
  });
});

describe('printPolicyExpression', () => {
  const canonical: [string, string][] = [
    ["approvers.any(user,user.id=='u1')", "approvers.any(user, user.id == 'u1')"],
    ['(a && b) || c', 'a && b || c'],
    ['a && (b || c)', 'a && (b || c)'],
    ['a && (b && c)', 'a && (b && c)'],
    ['(a && b) && c', 'a && b && c'],
    ['!(a == b)', '!(a == b)'],
    ['(!a) == b', '!a == b'],
    ['!(a.b)', '!a.b'],
    ['(!a).b', '(!a).b'],
    ['(a == b) == c', '(a == b) == c'],
    ['a == (b == c)', 'a == (b == c)'],
    ['[ 1 ,2, - 3 ][0 .. 2]', '[1, 2, -3][0..2]'],
    ["x in [ 'a' ]", "x in ['a']"],
    ["Timestamp( '2024-01-01T00:00:00Z' ) <= time.now", "Timestamp('2024-01-01T00:00:00Z') <= time.now"],
    ['(a).b.count()', 'a.b.count()'],
  ];
  for (const [source, expected] of canonical) {
    it(`prints ${source} as ${expected}, which parses back to the same tree`, () => {
      const tree = parsePolicyExpression(source);
      expect(printPolicyExpression(tree)).toBe(expected);
      expect(parsePolicyExpression(expected)).toEqual(tree);
    });
  }
});
