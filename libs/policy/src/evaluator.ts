/**
 * The evaluator of policy expressions over a context of plain values (see `context.ts`).
 *
 * Types: bool, int (bigint: the language's i128 and u256 are one integer type here, so an
 * `eth.tx.value` of 2^255 compares with a literal exactly), string, timestamp, list, struct. A JS
 * `number` in the context is read as an int, a `Date` as a timestamp, an array as a list, a plain
 * object or a `Map` as a struct; `undefined`/`null` is an absent field.
 *
 * Errors (Turnkey, `features/policies/language.mdx`, appendix "Policy evaluation": the engine does
 * not short-circuit, and a clause that errors makes the whole policy's outcome an error):
 *   - `a && b` and `a || b` evaluate both sides; an error on either side is the result, even when
 *     the other side alone would decide (`false && private_key.id == 'x'` is an error on a wallet
 *     signature, not false);
 *   - `any`/`all`/`filter` evaluate the predicate on every item; the first item that errors makes
 *     the call an error;
 *   - comparing values of different types is a TypeMismatch, not false (`chain_id == '1'`);
 *   - reading an absent field or keyword is a MissingField.
 * The evaluator never throws: every failure is returned as a `PolicyEvaluationError`.
 */
import { assertNever, type TCompareOp, type TExpr } from './ast.js';
import { PolicyEvaluationError } from './errors.js';
import { printPolicyExpression } from './printer.js';
import { PolicyTimestamp, parseTimestamp } from './timestamp.js';

/** The context an expression is evaluated over: `TConsensusContext`, `TConditionContext`, or any plain object. */
export type TEvaluationContext = object;

export type TEvaluationResult = { ok: true; value: boolean } | { ok: false; error: PolicyEvaluationError };

/** Work bound for one evaluation (nodes visited plus items iterated/compared). */
export const MAX_EVALUATION_STEPS = 1_000_000;
/** Recursion bound: parsed trees are at most 256 deep; hand-built trees and nested context values are held to this. */
const MAX_EVALUATION_DEPTH = 400;

type TStruct = Readonly<Record<string, unknown>> | ReadonlyMap<unknown, unknown>;
type TValue = boolean | bigint | string | PolicyTimestamp | readonly unknown[] | TStruct;
type TTypeName = 'bool' | 'int' | 'string' | 'timestamp' | 'list' | 'struct';
/** Names the value in an error message; only called when there is an error. */
type TWhat = () => string;

interface TScope {
  name: string;
  value: TValue;
  parent: TScope | undefined;
}

const fail = (kind: PolicyEvaluationError['kind'], message: string) => new PolicyEvaluationError(kind, message);

/** An expression as shown in messages, cut short. */
function show(expr: TExpr): string {
  const text = printPolicyExpression(expr);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isPlainObject(value: object): value is Readonly<Record<string, unknown>> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function typeName(value: TValue): TTypeName {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'string') return 'string';
  if (value instanceof PolicyTimestamp) return 'timestamp';
  if (Array.isArray(value)) return 'list';
  return 'struct';
}

/**
 * Reads a context value into a language value.
 * @throws {PolicyEvaluationError} MissingField for undefined/null, InvalidValue for anything without a language type.
 */
function classify(raw: unknown, what: TWhat): TValue {
  switch (typeof raw) {
    case 'boolean':
    case 'bigint':
    case 'string':
      return raw;
    case 'number':
      if (Number.isSafeInteger(raw)) return BigInt(raw);
      throw fail('InvalidValue', `${what()} is the number ${raw}, which is not an integer`);
    case 'undefined':
      throw fail('MissingField', `missing field '${what()}'`);
    case 'object': {
      if (raw === null) throw fail('MissingField', `missing field '${what()}'`);
      if (raw instanceof PolicyTimestamp) return raw;
      if (raw instanceof Date) {
        const ts = PolicyTimestamp.fromDate(raw);
        if (!ts) throw fail('InvalidValue', `${what()} is an invalid date`);
        return ts;
      }
      if (Array.isArray(raw)) return raw;
      if (raw instanceof Map) return raw;
      if (isPlainObject(raw)) return raw;
      throw fail('InvalidValue', `${what()} has no type in the policy language`);
    }
    default:
      throw fail('InvalidValue', `${what()} has no type in the policy language (${typeof raw})`);
  }
}

/** A struct's own field; prototype members (`constructor`, `__proto__`) are never fields. */
function field(struct: TStruct, name: string): unknown {
  if (struct instanceof Map) return struct.get(name);
  return Object.prototype.hasOwnProperty.call(struct, name) ? (struct as Record<string, unknown>)[name] : undefined;
}

function structKeys(struct: TStruct): string[] {
  if (struct instanceof Map) return [...struct.keys()].filter((k): k is string => typeof k === 'string');
  return Object.keys(struct).filter((k) => (struct as Record<string, unknown>)[k] !== undefined && (struct as Record<string, unknown>)[k] !== null);
}

/** Unicode code points, so `'é'[0]` is one character (UTF-8 offsets would split it). */
const codePoints = (s: string): string[] => Array.from(s);

/** Compares code point by code point, which is also UTF-8 byte order. */
function compareStrings(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

class Evaluator {
  private steps = 0;
  private depth = 0;

  constructor(private readonly root: object) {}

  private step(count = 1): void {
    this.steps += count;
    if (this.steps > MAX_EVALUATION_STEPS) throw fail('LimitExceeded', `evaluation exceeded ${MAX_EVALUATION_STEPS} steps`);
  }

  private enter(): void {
    this.depth += 1;
    if (this.depth > MAX_EVALUATION_DEPTH) throw fail('LimitExceeded', `evaluation nested deeper than ${MAX_EVALUATION_DEPTH} levels`);
  }

  eval(expr: TExpr, scope: TScope | undefined): TValue {
    this.step();
    this.enter();
    try {
      return this.evalNode(expr, scope);
    } finally {
      this.depth -= 1;
    }
  }

  private evalNode(expr: TExpr, scope: TScope | undefined): TValue {
    switch (expr.kind) {
      case 'bool':
      case 'string':
        return expr.value;
      case 'int':
        if (typeof expr.value !== 'bigint') throw fail('InvalidValue', 'integer literal is not a bigint');
        return expr.value;
      case 'timestamp': {
        const ts = parseTimestamp(expr.text);
        if (typeof ts === 'string') throw fail('InvalidValue', ts);
        return ts;
      }
      case 'list':
        return expr.items.map((item) => this.eval(item, scope));
      case 'var': {
        for (let s = scope; s; s = s.parent) if (s.name === expr.name) return s.value;
        return classify(field(this.rootStruct(), expr.name), () => expr.name);
      }
      case 'member': {
        const object = this.eval(expr.object, scope);
        if (typeName(object) !== 'struct') throw fail('TypeMismatch', `cannot read field '${expr.field}' of ${typeName(object)} ${show(expr.object)}`);
        return classify(field(object as TStruct, expr.field), () => show(expr));
      }
      case 'index':
        return this.index(expr, this.eval(expr.object, scope), this.eval(expr.index, scope));
      case 'slice':
        return this.slice(expr, this.eval(expr.object, scope), this.eval(expr.start, scope), this.eval(expr.end, scope));
      case 'not': {
        const operand = this.eval(expr.operand, scope);
        if (typeof operand !== 'boolean') throw fail('TypeMismatch', `'!' needs a bool, got ${typeName(operand)} ${show(expr.operand)}`);
        return !operand;
      }
      case 'logical': {
        // Both sides, always: an error on either side is the result (no short-circuit).
        const left = this.eval(expr.left, scope);
        const right = this.eval(expr.right, scope);
        if (typeof left !== 'boolean') throw fail('TypeMismatch', `'${expr.op}' needs bools, got ${typeName(left)} ${show(expr.left)}`);
        if (typeof right !== 'boolean') throw fail('TypeMismatch', `'${expr.op}' needs bools, got ${typeName(right)} ${show(expr.right)}`);
        return expr.op === '&&' ? left && right : left || right;
      }
      case 'compare':
        return this.compare(expr, expr.op, this.eval(expr.left, scope), this.eval(expr.right, scope));
      case 'lambda': {
        const items = this.list(expr.target, this.eval(expr.target, scope), expr.method);
        const kept: TValue[] = [];
        let anyTrue = false;
        let allTrue = true;
        for (const [i, raw] of items.entries()) {
          const item = classify(raw, () => `${show(expr.target)}[${i}]`);
          const result = this.eval(expr.body, { name: expr.param, value: item, parent: scope });
          if (typeof result !== 'boolean') throw fail('TypeMismatch', `the predicate of ${expr.method}() must be a bool, got ${typeName(result)}`);
          if (result) {
            anyTrue = true;
            kept.push(item);
          } else {
            allTrue = false;
          }
        }
        if (expr.method === 'any') return anyTrue;
        if (expr.method === 'all') return allTrue;
        return kept;
      }
      case 'contains': {
        const items = this.list(expr.target, this.eval(expr.target, scope), 'contains');
        return this.member(this.eval(expr.value, scope), items, () => show(expr.target));
      }
      case 'count':
        return BigInt(this.list(expr.target, this.eval(expr.target, scope), 'count').length);
      default:
        return assertNever(expr);
    }
  }

  private rootStruct(): TStruct {
    const root = this.root;
    if (root instanceof Map || (typeof root === 'object' && root !== null && !Array.isArray(root))) return root as TStruct;
    throw fail('InvalidValue', 'the evaluation context is not a struct');
  }

  private list(target: TExpr, value: TValue, method: string): readonly unknown[] {
    if (!Array.isArray(value)) throw fail('TypeMismatch', `${method}() needs a list, got ${typeName(value)} ${show(target)}`);
    return value as readonly unknown[];
  }

  private position(value: TValue, what: TWhat): number {
    if (typeof value !== 'bigint') throw fail('TypeMismatch', `${what()} must be an int, got ${typeName(value)}`);
    // Beyond any list or string we could hold; reported as out of bounds by the caller.
    return value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER) ? -1 : Number(value);
  }

  private index(expr: Extract<TExpr, { kind: 'index' }>, object: TValue, key: TValue): TValue {
    const type = typeName(object);
    if (type === 'struct') {
      if (typeof key !== 'string') throw fail('TypeMismatch', `a struct is indexed by a string, got ${typeName(key)} in ${show(expr)}`);
      return classify(field(object as TStruct, key), () => show(expr));
    }
    if (type !== 'list' && type !== 'string') throw fail('TypeMismatch', `cannot index ${type} ${show(expr.object)}`);
    const at = this.position(key, () => `the index in ${show(expr)}`);
    const items: readonly unknown[] = type === 'list' ? (object as readonly unknown[]) : codePoints(object as string);
    if (at < 0 || at >= items.length) throw fail('IndexOutOfBounds', `index ${String(key)} is out of bounds for length ${items.length} in ${show(expr)}`);
    return classify(items[at], () => show(expr));
  }

  private slice(expr: Extract<TExpr, { kind: 'slice' }>, object: TValue, startValue: TValue, endValue: TValue): TValue {
    const type = typeName(object);
    if (type !== 'list' && type !== 'string') throw fail('TypeMismatch', `cannot slice ${type} ${show(expr.object)}`);
    const start = this.position(startValue, () => `the slice start in ${show(expr)}`);
    const end = this.position(endValue, () => `the slice end in ${show(expr)}`);
    const items: readonly unknown[] = type === 'list' ? (object as readonly unknown[]) : codePoints(object as string);
    if (start < 0 || end < 0 || start > end || end > items.length) {
      throw fail('IndexOutOfBounds', `slice ${String(startValue)}..${String(endValue)} is out of bounds for length ${items.length} in ${show(expr)}`);
    }
    this.step(end - start);
    return type === 'list' ? items.slice(start, end) : (items as string[]).slice(start, end).join('');
  }

  private compare(expr: TExpr, op: TCompareOp, left: TValue, right: TValue): boolean {
    if (op === 'in') {
      if (!Array.isArray(right)) throw fail('TypeMismatch', `'in' needs a list on its right, got ${typeName(right)} in ${show(expr)}`);
      return this.member(left, right as readonly unknown[], () => show(expr));
    }
    if (op === '==' || op === '!=') {
      const equal = this.equals(left, right, () => show(expr), 0);
      return op === '==' ? equal : !equal;
    }
    const lt = typeName(left);
    const rt = typeName(right);
    if (lt !== rt) throw fail('TypeMismatch', `cannot compare ${lt} with ${rt} in ${show(expr)}`);
    let order: number;
    if (lt === 'int') order = (left as bigint) < (right as bigint) ? -1 : (left as bigint) > (right as bigint) ? 1 : 0;
    else if (lt === 'timestamp') {
      const a = (left as PolicyTimestamp).epochNanos;
      const b = (right as PolicyTimestamp).epochNanos;
      order = a < b ? -1 : a > b ? 1 : 0;
    } else if (lt === 'string') order = compareStrings(left as string, right as string);
    else throw fail('TypeMismatch', `'${op}' does not order ${lt} values in ${show(expr)}`);
    switch (op) {
      case '<':
        return order < 0;
      case '<=':
        return order <= 0;
      case '>':
        return order > 0;
      case '>=':
        return order >= 0;
      default:
        return assertNever(op);
    }
  }

  /** `value in items`: every item is compared (a type mismatch with any item is an error). */
  private member(value: TValue, items: readonly unknown[], what: TWhat): boolean {
    let found = false;
    for (const [i, raw] of items.entries()) {
      if (this.equals(value, classify(raw, () => `${what()}[${i}]`), what, 0)) found = true;
    }
    return found;
  }

  /** Structural equality of two values of one type; values of different types are a TypeMismatch. */
  private equals(a: TValue, b: TValue, what: TWhat, depth: number): boolean {
    this.step();
    if (depth > MAX_EVALUATION_DEPTH) throw fail('LimitExceeded', `values nested deeper than ${MAX_EVALUATION_DEPTH} levels in ${what()}`);
    const type = typeName(a);
    if (type !== typeName(b)) throw fail('TypeMismatch', `cannot compare ${type} with ${typeName(b)} in ${what()}`);
    switch (type) {
      case 'bool':
      case 'int':
      case 'string':
        return a === b;
      case 'timestamp':
        return (a as PolicyTimestamp).epochNanos === (b as PolicyTimestamp).epochNanos;
      case 'list': {
        const x = a as readonly unknown[];
        const y = b as readonly unknown[];
        if (x.length !== y.length) return false;
        let equal = true;
        for (let i = 0; i < x.length; i++) {
          if (!this.equals(classify(x[i], () => `${what()}[${i}]`), classify(y[i], () => `${what()}[${i}]`), what, depth + 1)) equal = false;
        }
        return equal;
      }
      case 'struct': {
        const keysA = structKeys(a as TStruct).sort();
        const keysB = structKeys(b as TStruct).sort();
        if (keysA.length !== keysB.length || keysA.some((k, i) => k !== keysB[i])) return false;
        let equal = true;
        for (const k of keysA) {
          if (!this.equals(classify(field(a as TStruct, k), () => `${what()}.${k}`), classify(field(b as TStruct, k), () => `${what()}.${k}`), what, depth + 1)) equal = false;
        }
        return equal;
      }
      default:
        return assertNever(type);
    }
  }
}

/**
 * Evaluates a parsed expression over `context`. Never throws: a missing field, a type mismatch, an
 * out-of-bounds index, a non-boolean result or an exceeded limit is returned as `{ok: false}`.
 */
export function evaluatePolicyExpression(expr: TExpr, context: TEvaluationContext): TEvaluationResult {
  try {
    const value = new Evaluator(context).eval(expr, undefined);
    if (typeof value !== 'boolean') return { ok: false, error: fail('NotBoolean', `the expression evaluated to ${typeName(value)}, not bool`) };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof PolicyEvaluationError) return { ok: false, error };
    throw error;
  }
}
