import { isAppError } from '@latchkey/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertStorableStrings } from './assert-storable-strings.js';

/** The refusal's `details.field` and message, or undefined when the value passes. */
function refusal(value: unknown): { field: unknown; message: string } | undefined {
  try {
    assertStorableStrings(value);
    return undefined;
  } catch (e) {
    if (!isAppError(e)) throw e;
    expect(e.code).toBe('BAD_REQUEST');
    return { field: e.fields?.['field'], message: e.message };
  }
}

describe('assertStorableStrings', () => {
  it('refuses NUL and lone surrogates in values and keys, naming the path', () => {
    const cases: [unknown, string, RegExp][] = [
      [{ organizationId: '\u0000' }, 'organizationId', /U\+0000/],
      [{ organizationId: 'org\u0000id' }, 'organizationId', /U\+0000/],
      [{ parameters: { users: [{ userName: 'a' }, { userName: 'b\ud800' }] } }, 'parameters.users[1].userName', /U\+D800/],
      [{ parameters: { tags: ['ok', '\udc00x'] } }, 'parameters.tags[1]', /U\+DC00/],
      [{ parameters: { 'a\u0000': 1 } }, 'parameters["a\\u0000"]', /key contains U\+0000/],
      [{ parameters: { '\ud83d': 'x' } }, 'parameters["\\ud83d"]', /key contains an unpaired/],
      [{ 'user-name': '\ud800\ud800\udc00' }, '["user-name"]', /U\+D800/],
      [['\u0000'], '[0]', /U\+0000/],
      ['\ud800', '(root)', /U\+D800/],
    ];
    for (const [value, field, message] of cases) {
      const r = refusal(value);
      expect(r, JSON.stringify(value)).toBeDefined();
      expect(r!.field).toBe(field);
      expect(r!.message.startsWith(`${field}: `)).toBe(true);
      expect(r!.message).toMatch(message);
    }
  });

  it('accepts paired surrogates (emoji), other control characters and every non-string', () => {
    for (const ok of [{ name: '😀 wallet' }, { s: '\u0001\t\n\uffff' }, { n: 1, b: true, z: null, a: [1, [2, [3]]] }, 42, null, [], {}]) {
      expect(refusal(ok), JSON.stringify(ok)).toBeUndefined();
    }
  });

  it('walks any depth without using the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = refusal(deep);
    expect(r?.field).toBe(`${'[0]'.repeat(40)}…${'[0]'.repeat(40)}`); // both ends of a hostile path
  });

  it('property: a JSON value passes exactly when none of its strings holds NUL or a lone surrogate', () => {
    // fast-check's default strings are sequences of any UTF-16 code unit, so lone surrogates and NUL both occur.
    const json = fc.jsonValue({ maxDepth: 4 });
    const hasFlaw = (s: string) => s.includes('\u0000') || /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
    const anyFlaw = (v: unknown): boolean =>
      typeof v === 'string' ? hasFlaw(v) : Array.isArray(v) ? v.some(anyFlaw) : typeof v === 'object' && v !== null ? Object.entries(v).some(([k, x]) => hasFlaw(k) || anyFlaw(x)) : false;
    fc.assert(
      fc.property(fc.oneof(json, fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' })), (v) => {
        expect(refusal(v) !== undefined).toBe(anyFlaw(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a flaw planted anywhere is found at its path', () => {
    const flaw = fc.constantFrom('\u0000', '\ud800', '\udfff', 'x\ud800y', 'ok\u0000');
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 0, 1), { minLength: 1, maxLength: 6 }), flaw, (path, bad) => {
        let v: unknown = bad;
        for (const p of [...path].reverse()) v = typeof p === 'number' ? Object.assign(new Array(p + 1).fill('fine'), { [p]: v }) : { [p]: v, other: 'fine' };
        const expected = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
        expect(refusal(v)?.field).toBe(expected);
      }),
    );
  });
});
