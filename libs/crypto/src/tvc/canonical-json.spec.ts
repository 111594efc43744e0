/** RFC 8785 canonical JSON: the RFC's own examples (§3.2.2, §3.2.3) and properties over random JSON. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type TJsonValue } from './canonical-json.js';

describe('canonicalJson', () => {
  it('serialises the RFC 8785 §3.2.2 example byte for byte', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    ) as TJsonValue;
    expect(canonicalJson(input)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  it('sorts members by UTF-16 code units (RFC 8785 §3.2.3 example)', () => {
    const input = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    const order = Object.values(JSON.parse(canonicalJson(input)) as Record<string, string>);
    // JSON.parse puts the integer-like key "1" first; read the order from the text instead.
    const text = canonicalJson(input);
    const positions = ['Carriage Return', 'One', 'Control', 'Latin Small', 'Euro Sign', 'Emoji', 'Hebrew'].map((v) => text.indexOf(v));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(order).toHaveLength(7);
  });

  it('writes -0 as 0 and nests without whitespace', () => {
    expect(canonicalJson({ b: [1, { d: -0, c: 'x' }], a: {} })).toBe('{"a":{},"b":[1,{"c":"x","d":0}]}');
  });

  it('refuses what JSON cannot carry, naming where it is', () => {
    expect(() => canonicalJson({ a: [1, Number.NaN] })).toThrow(/\$\.a\[1\] is NaN/);
    expect(() => canonicalJson({ a: Infinity })).toThrow(/\$\.a is Infinity/);
    expect(() => canonicalJson({ a: undefined } as unknown as TJsonValue)).toThrow(/\$\.a is a undefined/);
    expect(() => canonicalJson({ a: 1n } as unknown as TJsonValue)).toThrow(/bigint/);
    expect(() => canonicalJson({ a: new Date(0) } as unknown as TJsonValue)).toThrow(/not a plain object/);
  });

  it('is a fixed point: parsing and re-encoding gives the same text, whatever the member order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = canonicalJson(v as TJsonValue);
        expect(canonicalJson(JSON.parse(text) as TJsonValue)).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });

  it('does not depend on the order members were inserted in', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.integer()), (d) => {
        const reversed = Object.fromEntries(Object.entries(d).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(d));
      }),
    );
  });
});
