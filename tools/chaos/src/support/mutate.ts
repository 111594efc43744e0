/**
 * Mutations that turn a well-formed request into a malformed one, each named so a failure report
 * says what was sent: a field of the wrong type, huge / NUL / lone-surrogate strings, a missing
 * field, deep nesting, a huge array, numbers JSON cannot carry, prototype keys — on the parsed
 * tree — and, on the bytes, invalid UTF-8, truncation, a byte-order mark, duplicate keys, a
 * non-object body. Everything is driven by a seeded generator, so a run is replayed by its seed.
 */

/** mulberry32: small, fast, and good enough to pick mutations reproducibly. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type TRandom = () => number;
const pick = <T>(rnd: TRandom, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

/** One of the values, by weight (the weights sum to 1). */
function weighted<T>(rnd: TRandom, choices: readonly (readonly [number, T])[]): T {
  let r = rnd();
  for (const [w, v] of choices) {
    if (r < w) return v;
    r -= w;
  }
  return choices[choices.length - 1]![1];
}

type TJson = unknown;
type TPath = (string | number)[];

/** Every path in the tree (the root is []), objects' keys and arrays' indexes. */
function paths(v: TJson, at: TPath = [], out: TPath[] = []): TPath[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function setAt(root: TJson, path: TPath, value: TJson): TJson {
  if (path.length === 0) return value;
  let node = root as Record<string | number, TJson>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, TJson>;
  node[path[path.length - 1]!] = value;
  return root;
}

function getAt(root: TJson, path: TPath): TJson {
  let node = root;
  for (const k of path) node = (node as Record<string | number, TJson>)[k];
  return node;
}

/**
 * Raw JSON text a JSON serialiser cannot write, carried through JSON.stringify as a marker string
 * and substituted afterwards (numbers outside double range, -0, 2^64, a 400-digit integer).
 */
const RAW_MARK = '\u{E000}raw:';
const RAW_NUMBERS = ['1e400', '-1e400', '-0', '18446744073709551616', '9'.repeat(400), '0.' + '0'.repeat(400) + '1', '1E-400'];

function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '0' + '}'.repeat(depth);
}

/** A tree mutation: its name and what it does to a (cloned) tree. */
interface TTreeMutation {
  name: string;
  apply(tree: TJson, rnd: TRandom): TJson;
}

const anyPath = (tree: TJson, rnd: TRandom): TPath => pick(rnd, paths(tree));
const leafOrAny = (tree: TJson, rnd: TRandom): TPath => {
  const all = paths(tree);
  const leaves = all.filter((p) => {
    const v = getAt(tree, p);
    return v === null || typeof v !== 'object';
  });
  return pick(rnd, leaves.length > 0 && rnd() < 0.8 ? leaves : all);
};

const TREE_MUTATIONS: readonly TTreeMutation[] = [
  {
    name: 'wrong-type',
    apply: (t, rnd) => setAt(t, leafOrAny(t, rnd), pick(rnd, [12345, -1.5, 0, true, false, null, [], {}, '', 'x', '12', [1, 'a'], { nested: true }])),
  },
  {
    name: 'huge-string',
    // Mostly well under the 1 MiB body limit, so the string reaches validation.
    apply: (t, rnd) => setAt(t, leafOrAny(t, rnd), pick(rnd, ['a', 'é', '\u{1F600}', '0', ' ']).repeat(weighted(rnd, [[0.7, 5_000], [0.25, 40_000], [0.05, 200_000]]))),
  },
  {
    name: 'nul-string',
    apply: (t, rnd) => {
      const p = leafOrAny(t, rnd);
      const v = getAt(t, p);
      return setAt(t, p, pick(rnd, ['\u0000', `${typeof v === 'string' ? v : 'x'}\u0000`, `\u0000${typeof v === 'string' ? v : ''}`, 'a\u0000b\u0000c']));
    },
  },
  {
    name: 'lone-surrogate',
    apply: (t, rnd) => {
      const p = leafOrAny(t, rnd);
      const v = getAt(t, p);
      return setAt(t, p, pick(rnd, ['\ud800', '\udfff', `${typeof v === 'string' ? v : 'x'}\ud83d`, '\udc00\ud800', 'a\udbffb']));
    },
  },
  {
    name: 'missing-field',
    apply: (t, rnd) => {
      const objects = paths(t).filter((p) => {
        const v = getAt(t, p);
        return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0;
      });
      if (objects.length === 0) return {};
      const p = pick(rnd, objects);
      const o = getAt(t, p) as Record<string, TJson>;
      delete o[pick(rnd, Object.keys(o))];
      return t;
    },
  },
  {
    name: 'deep-nesting',
    apply: (t, rnd) => setAt(t, anyPath(t, rnd), `${RAW_MARK}${pick(rnd, [nested(weighted(rnd, [[0.4, 64], [0.3, 1_000], [0.2, 10_000], [0.1, 100_000]]), 'array'), nested(weighted(rnd, [[0.5, 64], [0.4, 1_000], [0.1, 10_000]]), 'object')])}`),
  },
  {
    name: 'huge-array',
    apply: (t, rnd) => {
      const item = JSON.stringify(pick(rnd, [0, 'a', {}, null, [], { curve: 'CURVE_SECP256K1' }]));
      // Up to ~200 KB of items: large for every schema's bounds, within the body limit.
      const n = Math.min(weighted(rnd, [[0.65, 1_000], [0.3, 10_000], [0.05, 100_000]]), Math.floor(200_000 / (item.length + 1)));
      return setAt(t, anyPath(t, rnd), `${RAW_MARK}[${Array(n).fill(item).join(',')}]`);
    },
  },
  {
    name: 'odd-number',
    apply: (t, rnd) => setAt(t, leafOrAny(t, rnd), `${RAW_MARK}${pick(rnd, RAW_NUMBERS)}`),
  },
  {
    name: 'prototype-key',
    apply: (t, rnd) => {
      const objects = paths(t).filter((p) => {
        const v = getAt(t, p);
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      });
      if (objects.length === 0) return t;
      const o = getAt(t, pick(rnd, objects)) as Record<string, TJson>;
      const key = pick(rnd, ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']);
      Object.defineProperty(o, key, { value: pick(rnd, [{ polluted: true }, 'x', null, 1]), enumerable: true, configurable: true, writable: true });
      return t;
    },
  },
];

/** JSON text of a tree, raw markers substituted. */
export function serialise(tree: TJson): string {
  // Raw texts are swapped for numbered markers first: they hold quotes, which a pattern over the
  // escaped text could not tell from the marker's end.
  const raws: string[] = [];
  const text = JSON.stringify(tree, (_key, v: unknown) => (typeof v === 'string' && v.startsWith(RAW_MARK) ? `\uE001${raws.push(v.slice(RAW_MARK.length)) - 1}` : v));
  return text.replace(/"\uE001(\d+)"/g, (_, n: string) => raws[Number(n)]!);
}

/** A byte-level mutation of serialised text. */
interface TByteMutation {
  name: string;
  apply(text: string, rnd: TRandom): Buffer;
}

const BYTE_MUTATIONS: readonly TByteMutation[] = [
  {
    name: 'invalid-utf8',
    apply: (text, rnd) => {
      const b = Buffer.from(text, 'utf8');
      const at = Math.floor(rnd() * b.length);
      const bad = pick(rnd, [Buffer.of(0xff), Buffer.of(0xc3), Buffer.of(0xed, 0xa0, 0x80), Buffer.of(0xf4, 0x90, 0x80, 0x80), Buffer.of(0xc0, 0xaf)]);
      return Buffer.concat([b.subarray(0, at), bad, b.subarray(at)]);
    },
  },
  { name: 'truncated', apply: (text, rnd) => Buffer.from(text.slice(0, Math.floor(rnd() * text.length)), 'utf8') },
  { name: 'bom', apply: (text) => Buffer.from(`\ufeff${text}`, 'utf8') },
  { name: 'trailing-garbage', apply: (text, rnd) => Buffer.from(`${text}${pick(rnd, ['}', ',', ' x', '\u0000', '{}', '[]'])}`, 'utf8') },
  {
    name: 'duplicate-key',
    apply: (text, rnd) => Buffer.from(text.replace(/^\{/, `{"organizationId":${pick(rnd, ['"x"', '1', 'null', '"\\u0000"'])},"type":${pick(rnd, ['"ACTIVITY_TYPE_X"', '[]'])},`), 'utf8'),
  },
  { name: 'not-an-object', apply: (_, rnd) => Buffer.from(pick(rnd, ['', 'null', '[]', '"x"', '0', 'true', '[{}]', '{', '\u0000', '{"a":"\\ud800"}', ' ']), 'utf8') },
  // Over the 1 MiB body limit: the server may answer 413 and close before reading it all.
  { name: 'over-body-limit', apply: (text) => Buffer.from(text.replace(/^\{/, `{"padding":"${'p'.repeat(1_100_000)}",`), 'utf8') },
  { name: 'raw-nul-bytes', apply: (text) => Buffer.from(text.replace(/"([^"\\]{1,12})"/, '"$1\u0000"'), 'utf8') },
];

export interface TMutated {
  /** What was done, in order. */
  mutations: string[];
  bytes: Buffer;
  /** Whether the body is JSON text a JSON parser accepts (for the local validity check). */
  parsable: boolean;
}

/**
 * Applies 1 to 3 mutations to a clone of `tree` (a byte mutation, when chosen, comes last: it
 * needs the text).
 */
export function mutate(tree: TJson, rnd: TRandom): TMutated {
  let t: TJson = structuredClone(tree);
  const mutations: string[] = [];
  const n = weighted(rnd, [[0.6, 1], [0.3, 2], [0.1, 3]]);
  const byteLast = rnd() < 0.2;
  // A byte mutation alone is a whole case too (n = 1): the tree then goes out as generated.
  for (let i = 0; i < (byteLast ? Math.max(0, n - 1) : n); i++) {
    const m = pick(rnd, TREE_MUTATIONS);
    t = m.apply(t, rnd);
    mutations.push(m.name);
  }
  const text = serialise(t);
  if (byteLast) {
    const m = pick(rnd, BYTE_MUTATIONS);
    mutations.push(m.name);
    return { mutations, bytes: m.apply(text, rnd), parsable: false };
  }
  return { mutations, bytes: Buffer.from(text, 'utf8'), parsable: true };
}

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * True when a string anywhere in the value (keys included) holds U+0000 or an unpaired surrogate:
 * what the server refuses for every string field (one rule, not a schema's), so a body holding
 * one is invalid whatever its schema says.
 */
export function hasUnstorableString(root: TJson): boolean {
  // Iterative: the fuzz nests values 100,000 deep.
  const stack: TJson[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (UNSTORABLE.test(k)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}
