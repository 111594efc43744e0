/**
 * fast-check arbitraries of valid-looking requests, from the zod schemas through their JSON
 * Schema (zod's own `toJSONSchema`, input side): objects with their required and some optional
 * properties, strings within their lengths (patterns honoured), enums, numbers in range, arrays
 * within their bounds, unions. Refinements JSON Schema cannot say (a checksum, a cross-field rule)
 * are not honoured; the fuzz mutates every request anyway, and the authorization matrix keeps a
 * generated body only when the schema itself accepts it.
 */
import fc from 'fast-check';
import { z } from 'zod';

type TJsonSchema = {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  additionalProperties?: boolean | TJsonSchema;
  items?: TJsonSchema | TJsonSchema[];
  prefixItems?: TJsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: TJsonSchema[];
  oneOf?: TJsonSchema[];
  allOf?: TJsonSchema[];
  $ref?: string;
  $defs?: Record<string, TJsonSchema>;
};

const anyJson = fc.jsonValue({ maxDepth: 2 });

function stringArb(s: TJsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  // Short strings are where validation decides; long ones are the mutations' business.
  const maxLength = Math.min(s.maxLength ?? 40, Math.max(minLength, 40));
  if (s.pattern) {
    try {
      const re = new RegExp(s.pattern);
      const max = s.maxLength ?? Infinity;
      // No filter on length (most generated strings would be refused: fast-check would spin);
      // a too-short match is repeated when the repetition still matches (hex, base58…).
      return fc.stringMatching(re).map((x) => {
        if (x.length >= minLength || x.length === 0) return x;
        let y = x.repeat(Math.ceil(minLength / x.length));
        if (y.length > max) y = y.slice(0, max);
        return re.test(y) ? y : x;
      });
    } catch {
      // a pattern JavaScript cannot compile: fall through to plain strings
    }
  }
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
  return fc.string({ minLength, maxLength });
}

function resolveRef(ref: string, root: TJsonSchema): TJsonSchema {
  const name = ref.replace(/^#\/\$defs\//, '');
  if (ref === '#') return root;
  return root.$defs?.[name] ?? {};
}

function arb(s: TJsonSchema, root: TJsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  if (s.$ref) return fc.constant(null).chain(() => arb(resolveRef(s.$ref!, root), root, depth + 1));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((a) => arb(a, root, depth + 1)));
  if (s.allOf && s.allOf.length > 0) return arb(Object.assign({}, ...s.allOf) as TJsonSchema, root, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return fc.integer({ min: Math.ceil(s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000)), max: Math.floor(s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000)) });
    case 'number':
      return fc.double({ min: s.minimum ?? s.exclusiveMinimum ?? -1e6, max: s.maximum ?? s.exclusiveMaximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => arb(p, root, depth + 1)));
      const item = Array.isArray(s.items) ? (s.items[0] ?? {}) : (s.items ?? {});
      const minLength = s.minItems ?? 0;
      return fc.array(arb(item, root, depth + 1), { minLength, maxLength: Math.min(s.maxItems ?? 3, Math.max(minLength, 3)) });
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const entries = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arb(v, root, depth + 1)]));
      if (Object.keys(props).length === 0 && s.additionalProperties && typeof s.additionalProperties === 'object') {
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), arb(s.additionalProperties, root, depth + 1), { maxKeys: 3 });
      }
      return fc.record(entries, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
    }
    default:
      return anyJson;
  }
}

const cache = new WeakMap<z.ZodType, fc.Arbitrary<unknown>>();

/** An arbitrary of values shaped by `schema` (see the module header for what is not honoured). */
export function arbitraryOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  let a = cache.get(schema);
  if (!a) {
    let json: TJsonSchema;
    try {
      json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as TJsonSchema;
    } catch {
      json = {};
    }
    a = arb(json, json, 0);
    cache.set(schema, a);
  }
  return a;
}
