/**
 * Properties of the parser, printer and evaluator under fast-check:
 *   - the parser throws nothing but a PolicyParseError, whose position lies within the source;
 *   - the evaluator never throws, on any tree and any context;
 *   - parse(print(tree)) deep-equals tree, for generated trees and for generated sources that parse;
 *   - printing is canonical: print(parse(print(tree))) is print(tree).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESERVED_WORDS, type TCompareOp, type TExpr } from './ast.js';
import { PolicyEvaluationError, PolicyParseError } from './errors.js';
import { evaluatePolicyExpression } from './evaluator.js';
import { MAX_INT_LITERAL, MIN_INT_LITERAL, parsePolicyExpression } from './parser.js';
import { printPolicyExpression } from './printer.js';

const RUNS = 400;

/** Names that the generated contexts also use, so generated expressions reach into them. */
const NAMES = ['a', 'b', 'x', 'user', 'approvers', 'id', 'tags', 'Timestamp'] as const;

const identifier = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/).filter((s) => !RESERVED_WORDS.has(s)) },
);
const stringLiteral = fc.string({ maxLength: 8 }).filter((s) => !s.includes("'"));
const timestampText = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
const compareOp = fc.constantFrom<TCompareOp>('==', '!=', '<', '<=', '>', '>=', 'in');

/** Trees the parser can produce (identifiers are not reserved words, strings hold no quote). */
const { expr: exprArb } = fc.letrec<{ expr: TExpr }>((tie) => ({
  expr: fc.oneof(
    { maxDepth: 5, depthSize: 'small' },
    fc.record({ kind: fc.constant('bool' as const), value: fc.boolean() }),
    fc.record({ kind: fc.constant('int' as const), value: fc.bigInt({ min: MIN_INT_LITERAL, max: MAX_INT_LITERAL }) }),
    fc.record({ kind: fc.constant('string' as const), value: stringLiteral }),
    fc.record({ kind: fc.constant('timestamp' as const), text: timestampText }),
    fc.record({ kind: fc.constant('var' as const), name: identifier }),
    fc.record({ kind: fc.constant('list' as const), items: fc.array(tie('expr'), { maxLength: 3 }) }),
    fc.record({ kind: fc.constant('member' as const), object: tie('expr'), field: identifier }),
    fc.record({ kind: fc.constant('index' as const), object: tie('expr'), index: tie('expr') }),
    fc.record({ kind: fc.constant('slice' as const), object: tie('expr'), start: tie('expr'), end: tie('expr') }),
    fc.record({ kind: fc.constant('not' as const), operand: tie('expr') }),
    fc.record({ kind: fc.constant('logical' as const), op: fc.constantFrom('&&' as const, '||' as const), left: tie('expr'), right: tie('expr') }),
    fc.record({ kind: fc.constant('compare' as const), op: compareOp, left: tie('expr'), right: tie('expr') }),
    fc.record({ kind: fc.constant('lambda' as const), method: fc.constantFrom('any' as const, 'all' as const, 'filter' as const), target: tie('expr'), param: identifier, body: tie('expr') }),
    fc.record({ kind: fc.constant('contains' as const), target: tie('expr'), value: tie('expr') }),
    fc.record({ kind: fc.constant('count' as const), target: tie('expr') }),
  ),
}));

/** Context values of every kind the evaluator meets, and some it must refuse. */
const { value: contextValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    fc.boolean(),
    fc.bigInt(),
    fc.integer(),
    fc.double(),
    fc.string({ maxLength: 4 }),
    fc.date(),
    fc.constant(undefined),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 3 }),
    fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 2 }).map((o) => new Map(Object.entries(o))),
  ),
}));
const contextArb = fc.dictionary(fc.constantFrom(...NAMES), contextValue, { maxKeys: 5 });

/** Sources assembled from the language's own tokens, so that many of them parse. */
const FRAGMENTS = [
  'a', 'b', 'user', 'approvers', 'id', 'tags', '.', 'any', 'all', 'filter', 'contains', 'count', '(', ')', '[', ']', ',', '..',
  '==', '!=', '<', '<=', '>', '>=', 'in', '&&', '||', '!', '-', '0', '1', '42', `${MAX_INT_LITERAL}`, "'x'", "'", 'true', 'false',
  'Timestamp', "'2024-01-01T00:00:00Z'", "'2024-13-01T00:00:00Z'", 'time', 'now', '#', '"',
];
const tokenSoup = fc
  .array(fc.tuple(fc.constantFrom(...FRAGMENTS), fc.constantFrom('', ' ', '\n')), { maxLength: 30 })
  .map((parts) => parts.map(([f, sep]) => f + sep).join(''));

/**
 * A generated tree written the way a person might: random whitespace and redundant parentheses
 * around any sub-expression. Every such source parses to the tree it was written from.
 */
function noisyPrint(tree: TExpr, seed: number): string {
  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: deterministic per seed, so a failing case replays.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const ws = () => ['', '', ' ', '  ', '\n', '\t'][Math.floor(random() * 6)]!;
  const prec = (e: TExpr) => (e.kind === 'logical' ? (e.op === '||' ? 1 : 2) : e.kind === 'compare' ? 3 : e.kind === 'not' ? 4 : 5);
  const wrap = (e: TExpr, min: number): string => {
    const text = write(e);
    return prec(e) < min || random() < 0.15 ? `(${ws()}${text}${ws()})` : text;
  };
  const write = (e: TExpr): string => {
    switch (e.kind) {
      case 'bool':
        return String(e.value);
      case 'int':
        return e.value < 0n ? `-${ws()}${-e.value}` : String(e.value);
      case 'string':
        return `'${e.value}'`;
      case 'timestamp':
        return `Timestamp${ws()}(${ws()}'${e.text}'${ws()})`;
      case 'list':
        return `[${ws()}${e.items.map((i) => wrap(i, 0)).join(`${ws()},${ws()}`)}${ws()}]`;
      case 'var':
        return e.name;
      case 'member':
        return `${wrap(e.object, 5)}${ws()}.${ws()}${e.field}`;
      case 'index':
        return `${wrap(e.object, 5)}${ws()}[${ws()}${wrap(e.index, 0)}${ws()}]`;
      case 'slice':
        return `${wrap(e.object, 5)}[${wrap(e.start, 0)}${ws()}..${ws()}${wrap(e.end, 0)}]`;
      case 'not':
        return `!${ws()}${wrap(e.operand, 4)}`;
      case 'logical': {
        const level = e.op === '||' ? 1 : 2;
        return `${wrap(e.left, level)}${ws()}${e.op}${ws()}${wrap(e.right, level + 1)}`;
      }
      case 'compare':
        // `in` is a word: it needs whitespace (or a parenthesis) on both sides.
        return e.op === 'in' ? `${wrap(e.left, 4)} ${ws()}in ${ws()}${wrap(e.right, 4)}` : `${wrap(e.left, 4)}${ws()}${e.op}${ws()}${wrap(e.right, 4)}`;
      case 'lambda':
        return `${wrap(e.target, 5)}.${e.method}${ws()}(${ws()}${e.param}${ws()},${ws()}${wrap(e.body, 0)}${ws()})`;
      case 'contains':
        return `${wrap(e.target, 5)}.contains(${ws()}${wrap(e.value, 0)}${ws()})`;
      case 'count':
        return `${wrap(e.target, 5)}.count(${ws()})`;
    }
  };
  return `${ws()}${wrap(tree, 0)}${ws()}`;
}
const noisySource = fc.tuple(exprArb, fc.integer()).map(([tree, seed]) => ({ tree, source: noisyPrint(tree, seed) }));

const anySource = fc.oneof(
  tokenSoup,
  noisySource.map((n) => n.source),
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Parses, or returns the PolicyParseError (anything else escapes and fails the property). */
function tryParse(source: string): TExpr | PolicyParseError {
  try {
    return parsePolicyExpression(source);
  } catch (error) {
    if (error instanceof PolicyParseError) return error;
    throw error;
  }
}

describe('parser properties', () => {
  it('throws only PolicyParseError, with a position inside the source', () => {
    fc.assert(
      fc.property(anySource, (source) => {
        const result = tryParse(source);
        if (result instanceof PolicyParseError) {
          expect(Number.isInteger(result.position)).toBe(true);
          expect(result.position).toBeGreaterThanOrEqual(0);
          expect(result.position).toBeLessThanOrEqual(source.length);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('parses a tree written with arbitrary whitespace and redundant parentheses back to that tree', () => {
    fc.assert(
      fc.property(noisySource, ({ tree, source }) => {
        expect(parsePolicyExpression(source)).toEqual(tree);
      }),
      { numRuns: RUNS },
    );
  });

  it('parse(print(parse(s))) deep-equals parse(s) for generated sources that parse', () => {
    fc.assert(
      fc.property(fc.oneof(tokenSoup, noisySource.map((n) => n.source)), (source) => {
        const tree = tryParse(source);
        fc.pre(!(tree instanceof PolicyParseError));
        expect(parsePolicyExpression(printPolicyExpression(tree as TExpr))).toEqual(tree);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('printer properties', () => {
  it('parse(print(tree)) deep-equals tree for generated trees', () => {
    fc.assert(
      fc.property(exprArb, (tree) => {
        expect(parsePolicyExpression(printPolicyExpression(tree))).toEqual(tree);
      }),
      { numRuns: RUNS },
    );
  });

  it('printing is canonical: print(parse(print(tree))) is print(tree)', () => {
    fc.assert(
      fc.property(exprArb, (tree) => {
        const text = printPolicyExpression(tree);
        expect(printPolicyExpression(parsePolicyExpression(text))).toBe(text);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('evaluator properties', () => {
  const check = (tree: TExpr, context: object) => {
    const result = evaluatePolicyExpression(tree, context);
    if (result.ok) expect(typeof result.value).toBe('boolean');
    else expect(result.error).toBeInstanceOf(PolicyEvaluationError);
  };

  it('never throws on generated trees and contexts', () => {
    fc.assert(fc.property(exprArb, contextArb, check), { numRuns: RUNS });
  });

  it('never throws on parsed token soup', () => {
    fc.assert(
      fc.property(tokenSoup, contextArb, (source, context) => {
        const tree = tryParse(source);
        if (!(tree instanceof PolicyParseError)) check(tree, context);
      }),
      { numRuns: RUNS },
    );
  });

  it('is deterministic: the same tree and context give the same result', () => {
    fc.assert(
      fc.property(exprArb, contextArb, (tree, context) => {
        const first = evaluatePolicyExpression(tree, context);
        const second = evaluatePolicyExpression(tree, context);
        expect(second.ok ? second.value : second.error.kind).toBe(first.ok ? first.value : first.error.kind);
      }),
      { numRuns: 200 },
    );
  });
});
