/**
 * RFC 8785 (JSON Canonicalization Scheme) for the values Latchkey signs: the one encoder of a TVC
 * manifest, so the bytes operators sign, the bytes hashed into the manifest id and the bytes
 * `get_tvc_deployment` returns are the same bytes.
 *
 * JCS is ECMAScript's `JSON.stringify` with object members sorted by their names' UTF-16 code
 * units and no whitespace: strings and finite numbers already serialise as RFC 8785 §3.2.2 asks
 * (ES2015+ `Number.prototype.toString`, minimal escapes), so only the ordering is ours. Values
 * JSON cannot carry faithfully (NaN, ±Infinity, undefined, functions, bigints, symbols) are
 * refused rather than dropped or turned into `null` as `JSON.stringify` would.
 */

/** A value RFC 8785 can encode. */
export type TJsonValue = null | boolean | number | string | readonly TJsonValue[] | { readonly [key: string]: TJsonValue };

/** Compares by UTF-16 code units, which is what `<` on JS strings does (RFC 8785 §3.2.3). */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function encode(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path} is ${value}: RFC 8785 encodes finite numbers only`);
      // -0 serialises as 0, as RFC 8785 §3.2.2.3 requires (JSON.stringify does the same).
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v, i) => encode(v, `${path}[${i}]`)).join(',')}]`;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new TypeError(`${path} is not a plain object or array`);
      const entries = Object.keys(value).sort(byCodeUnits);
      return `{${entries.map((k) => `${JSON.stringify(k)}:${encode((value as Record<string, unknown>)[k], `${path}.${k}`)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`${path} is a ${typeof value}, which JSON cannot carry`);
  }
}

/**
 * The RFC 8785 canonical JSON text of `value`.
 * @throws {TypeError} naming the path of a non-finite number or a value JSON cannot carry
 */
export function canonicalJson(value: TJsonValue): string {
  return encode(value, '$');
}
