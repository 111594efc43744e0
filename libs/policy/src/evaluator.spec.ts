/**
 * The evaluator's semantics, one rule at a time: types, comparisons across int sizes, lists,
 * strings, timestamps, and the error rules (no short-circuit, MissingField, TypeMismatch, ...).
 */
import { describe, expect, it } from 'vitest';
import type { TPolicyEvaluationErrorKind } from './errors.js';
import { evaluatePolicyExpression, type TEvaluationContext } from './evaluator.js';
import { parsePolicyExpression } from './parser.js';
import { PolicyTimestamp, timestampOf } from './timestamp.js';
import type { TExpr } from './ast.js';

const run = (source: string, context: TEvaluationContext = {}) => evaluatePolicyExpression(parsePolicyExpression(source), context);

function value(source: string, context: TEvaluationContext = {}): boolean {
  const r = run(source, context);
  if (!r.ok) throw new Error(`${source}: ${r.error.kind}: ${r.error.message}`);
  return r.value;
}

function errorOf(source: string, context: TEvaluationContext = {}): { kind: TPolicyEvaluationErrorKind; message: string } {
  const r = run(source, context);
  if (r.ok) throw new Error(`${source}: expected an error, got ${r.value}`);
  return { kind: r.error.kind, message: r.error.message };
}

describe('evaluatePolicyExpression: values', () => {
  it('evaluates the documented grammar examples', () => {
    expect(value('true && !false')).toBe(true);
    expect(value('1 < 2')).toBe(true);
    expect(value("'a' != 'b'")).toBe(true);
    expect(value('1 in [1, 2, 3]')).toBe(true);
    expect(value('[1, 2, 3][0] == 1')).toBe(true);
    expect(value("'abc'[0] == 'a'")).toBe(true);
    expect(value('[1, 2, 3][0..2] == [1, 2]')).toBe(true);
    expect(value("'abc'[0..2] == 'ab'")).toBe(true);
    expect(value('[1, 1, 1].all(x, x == 1)')).toBe(true);
    expect(value('[1, 2, 3].any(x, x == 1)')).toBe(true);
    expect(value('[1, 2, 3].contains(1)')).toBe(true);
    expect(value('[1, 2, 3].count() == 3')).toBe(true);
    expect(value('[1, 2, 3].filter(x, x == 1) == [1]')).toBe(true);
  });

  it('compares integers exactly across i128 and u256, and reads JS numbers as ints', () => {
    const ctx = { eth: { tx: { value: 2n ** 255n, nonce: 3 } } };
    expect(value('eth.tx.value > 170141183460469231731687303715884105728', ctx)).toBe(true);
    expect(value(`eth.tx.value == ${2n ** 255n}`, ctx)).toBe(true);
    expect(value('eth.tx.value > -1', ctx)).toBe(true);
    expect(value('eth.tx.nonce <= 3 && eth.tx.nonce >= 3', ctx)).toBe(true);
    expect(value('-170141183460469231731687303715884105728 < 0')).toBe(true);
  });

  it('orders strings by code point and indexes them by character', () => {
    expect(value("'a' < 'b' && 'ab' > 'a' && 'Z' < 'a'")).toBe(true);
    expect(value("'é!'[0] == 'é' && 'héllo'[1..3] == 'él'")).toBe(true);
  });

  it('compares timestamps with time.now (a Date or a PolicyTimestamp) down to the nanosecond', () => {
    const now = new Date('2024-06-01T12:00:00Z');
    for (const t of [now, timestampOf(now)]) {
      const ctx = { time: { now: t } };
      expect(value("time.now >= Timestamp('2024-01-01T00:00:00Z') && time.now < Timestamp('2025-01-01T00:00:00Z')", ctx)).toBe(true);
      expect(value("time.now == Timestamp('2024-06-01T12:00:00.000+00:00')", ctx)).toBe(true);
      expect(value("time.now < Timestamp('2024-06-01T12:00:00.000000001Z')", ctx)).toBe(true);
    }
    expect(value("Timestamp('1969-12-31T23:59:59Z') < Timestamp('1970-01-01T00:00:00z')")).toBe(true);
    expect(value("Timestamp('2024-02-29T00:00:00Z') == Timestamp('2024-02-29 00:00:00-00:00')")).toBe(true);
    expect(new PolicyTimestamp(0n).epochNanos).toBe(0n);
  });

  it('binds lambda items over context keywords of the same name, and nests lambdas', () => {
    const ctx = { user: { id: 'outer' }, approvers: [{ id: 'a', tags: ['x'] }, { id: 'b', tags: ['x', 'y'] }] };
    expect(value("approvers.any(user, user.id == 'b') && user.id == 'outer'", ctx)).toBe(true);
    expect(value("approvers.all(u, u.tags.any(t, t == 'x'))", ctx)).toBe(true);
    expect(value("approvers.filter(u, u.tags.contains('y')).count() == 1", ctx)).toBe(true);
    expect(value('approvers.filter(u, false) == []', ctx)).toBe(true);
  });

  it('compares lists and structs structurally, and reads Maps as structs', () => {
    const ctx = { a: { x: 1, y: ['p'] }, b: { y: ['p'], x: 1n }, m: new Map<string, unknown>([['wad', 10n]]) };
    expect(value('a == b', ctx)).toBe(true);
    expect(value("m['wad'] < 11", ctx)).toBe(true);
    expect(value("a['x'] == 1", ctx)).toBe(true);
    expect(value('[1, 2] != [1, 2, 3]', ctx)).toBe(true);
  });
});

describe('evaluatePolicyExpression: errors', () => {
  it('reports a missing keyword or field as MissingField, naming it', () => {
    expect(errorOf("wallet.id == 'w'")).toEqual({ kind: 'MissingField', message: "missing field 'wallet'" });
    expect(errorOf("activity.params.user_ids.count() == 1", { activity: { params: {} } })).toEqual({ kind: 'MissingField', message: "missing field 'activity.params.user_ids'" });
    expect(errorOf("eth.tx.to == '0x'", { eth: {} }).kind).toBe('MissingField');
    expect(errorOf("x.y == 'a'", { x: { y: null } }).kind).toBe('MissingField');
    expect(errorOf("a['k'] == 1", { a: new Map() }).kind).toBe('MissingField');
  });

  it('never reads prototype members as fields', () => {
    expect(errorOf('a.constructor == 1', { a: {} }).kind).toBe('MissingField');
    expect(errorOf("a['__proto__'] == 1", { a: {} }).kind).toBe('MissingField');
    expect(errorOf('toString == 1', {}).kind).toBe('MissingField');
  });

  it('does not short-circuit: an error on either side of && / || is the result', () => {
    // Turnkey's own example: a wallet clause and a private-key clause can never both be valid.
    const walletSigning = { wallet: { id: 'w1' } };
    expect(errorOf("wallet.id == 'w1' || private_key.id == 'k1'", walletSigning).kind).toBe('MissingField');
    expect(errorOf("false && private_key.id == 'k1'", walletSigning).kind).toBe('MissingField');
    expect(errorOf("private_key.id == 'k1' || true", walletSigning).kind).toBe('MissingField');
    expect(value("wallet.id == 'w1'", walletSigning)).toBe(true);
  });

  it('evaluates the predicate on every item: an error on a later item is the result', () => {
    const ctx = { items: [{ ok: true }, { other: 1 }] };
    expect(errorOf('items.any(i, i.ok)', ctx).kind).toBe('MissingField');
    expect(errorOf('items.all(i, i.ok == false)', ctx).kind).toBe('MissingField');
  });

  it('reports type mismatches instead of comparing values of different types', () => {
    expect(errorOf("1 == '1'")).toMatchObject({ kind: 'TypeMismatch', message: "cannot compare int with string in 1 == '1'" });
    expect(errorOf("'a' in ['a', 1]").kind).toBe('TypeMismatch');
    expect(errorOf('true < false').kind).toBe('TypeMismatch');
    expect(errorOf('1 && true').kind).toBe('TypeMismatch');
    expect(errorOf('!1').kind).toBe('TypeMismatch');
    expect(errorOf("'abc'.count() == 3").kind).toBe('TypeMismatch');
    expect(errorOf("'abc'.contains('a')").kind).toBe('TypeMismatch');
    expect(errorOf("1 in 'abc'").kind).toBe('TypeMismatch');
    expect(errorOf('[1].any(x, x)').kind).toBe('TypeMismatch');
    expect(errorOf('a.b == 1', { a: 'text' }).kind).toBe('TypeMismatch');
    expect(errorOf("[1]['x'] == 1").kind).toBe('TypeMismatch');
    expect(errorOf('a[0] == 1', { a: { x: 1 } }).kind).toBe('TypeMismatch');
    expect(errorOf("Timestamp('2024-01-01T00:00:00Z') < 1").kind).toBe('TypeMismatch');
  });

  it('reports indexes and slices outside their list or string', () => {
    expect(errorOf('[1][1] == 1').kind).toBe('IndexOutOfBounds');
    expect(errorOf('[1][-1] == 1').kind).toBe('IndexOutOfBounds');
    expect(errorOf("'abc'[2..1] == ''").kind).toBe('IndexOutOfBounds');
    expect(errorOf("'abc'[0..4] == ''").kind).toBe('IndexOutOfBounds');
    expect(errorOf(`[1][${2n ** 200n}] == 1`).kind).toBe('IndexOutOfBounds');
    expect(value("'abc'[3..3] == ''")).toBe(true);
  });

  it('refuses a non-boolean result and context values without a language type', () => {
    expect(errorOf('1')).toEqual({ kind: 'NotBoolean', message: 'the expression evaluated to int, not bool' });
    expect(errorOf('a', { a: { b: 1 } }).kind).toBe('NotBoolean');
    expect(errorOf('a == 1', { a: 1.5 }).kind).toBe('InvalidValue');
    expect(errorOf('a == 1', { a: () => 1 }).kind).toBe('InvalidValue');
    expect(errorOf('a == 1', { a: new Uint8Array(1) }).kind).toBe('InvalidValue');
    expect(errorOf('a == time.now', { a: new Date(Number.NaN), time: { now: new Date() } }).kind).toBe('InvalidValue');
  });

  it('bounds the work of one evaluation', () => {
    const big = Array.from({ length: 2000 }, (_, n) => n);
    expect(errorOf('a.all(x, a.all(y, true))', { a: big }).kind).toBe('LimitExceeded');
    const deep: TExpr = Array.from({ length: 1000 }).reduce<TExpr>((e) => ({ kind: 'not', operand: e }), { kind: 'bool', value: true });
    const r = evaluatePolicyExpression(deep, {});
    expect(r.ok ? r.value : r.error.kind).toBe('LimitExceeded');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = [cyclic];
    expect(errorOf('a == a', { a: cyclic }).kind).toBe('LimitExceeded');
  });
});
