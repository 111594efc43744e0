/** RLP: the yellow paper's examples, strictness on non-canonical input, and round-trip properties checked against ethers. */
import { encodeRlp as ethersEncodeRlp, hexlify } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRlp, decodeRlpUint, encodeRlp, encodeRlpUint, type TRlpItem } from './rlp.js';
import { SigningError } from '../../signing/signing-error.js';
import { reasonOf } from '../../test-vectors.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const unhex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));
const utf8 = (text: string) => new TextEncoder().encode(text);

type THexTree = string | THexTree[];
const toEthers = (item: TRlpItem): THexTree => (item instanceof Uint8Array ? hexlify(item) : item.map(toEthers));


describe('encodeRlp / decodeRlp', () => {
  // Examples from the Ethereum wiki's RLP page (the yellow paper's appendix B, worked).
  const vectors: [string, TRlpItem, string][] = [
    ['the string "dog"', utf8('dog'), '83646f67'],
    ['the list ["cat", "dog"]', [utf8('cat'), utf8('dog')], 'c88363617483646f67'],
    ['the empty string', new Uint8Array(0), '80'],
    ['the empty list', [], 'c0'],
    ['the integer 0 (empty string)', encodeRlpUint(0n), '80'],
    ['the byte 0x00', Uint8Array.of(0), '00'],
    ['the integer 15', encodeRlpUint(15n), '0f'],
    ['the integer 1024', encodeRlpUint(1024n), '820400'],
    ['the set-theoretic three', [[], [[]], [[], [[]]]], 'c7c0c1c0c3c0c1c0'],
    [
      'a 56-byte string (long form)',
      utf8('Lorem ipsum dolor sit amet, consectetur adipisicing elit'),
      `b838${hex(utf8('Lorem ipsum dolor sit amet, consectetur adipisicing elit'))}`,
    ],
  ];
  for (const [name, item, encoded] of vectors) {
    it(`encodes and decodes ${name}`, () => {
      expect(hex(encodeRlp(item))).toBe(encoded);
      expect(decodeRlp(unhex(encoded))).toEqual(item);
    });
  }

  it('encodes a 1024-byte string and a long list with multi-byte lengths', () => {
    const long = new Uint8Array(1024).fill(0xaa);
    expect(hex(encodeRlp(long)).slice(0, 6)).toBe('b90400');
    const list = Array.from({ length: 30 }, () => utf8('dog'));
    expect(hex(encodeRlp(list)).slice(0, 4)).toBe('f8' + (30 * 4).toString(16));
    expect(decodeRlp(encodeRlp([long, list]))).toEqual([long, list]);
  });

  const refused: [string, string][] = [
    ['a single byte below 0x80 wrapped in a short string', '8100'],
    ['0x7f wrapped in a short string', '817f'],
    ['the long form for a short string', `b837${'61'.repeat(55)}`],
    ['the long form for a short list', `f837${'80'.repeat(55)}`],
    ['a long-form length with a leading zero', `b90038${'61'.repeat(56)}`],
    ['a truncated string', '83646f'],
    ['a truncated long-form length', 'b9'],
    ['a length far beyond the input', 'bfffffffffffffffff'],
    ['trailing bytes after the item', '8080'],
    ['a list whose items overrun it', 'c28363'],
    ['an empty input', ''],
  ];
  for (const [name, encoded] of refused) {
    it(`refuses ${name}`, () => {
      expect(reasonOf(() => decodeRlp(unhex(encoded)))).toBe('MALFORMED_INPUT');
    });
  }
});

describe('decodeRlp depth', () => {
  it('refuses lists nested deeper than 32, accepts 32', () => {
    const nest = (depth: number): TRlpItem => (depth === 0 ? [] : [nest(depth - 1)]);
    expect(decodeRlp(encodeRlp(nest(32)))).toEqual(nest(32));
    expect(reasonOf(() => decodeRlp(encodeRlp(nest(40))))).toBe('MALFORMED_INPUT');
  });
});

describe('encodeRlpUint / decodeRlpUint', () => {
  it('uses the minimal big-endian form', () => {
    expect(hex(encodeRlpUint(0n))).toBe('');
    expect(hex(encodeRlpUint(1n))).toBe('01');
    expect(hex(encodeRlpUint(256n))).toBe('0100');
    expect(hex(encodeRlpUint((1n << 256n) - 1n))).toBe('ff'.repeat(32));
    expect(() => encodeRlpUint(-1n)).toThrow(RangeError);
  });

  it('refuses leading zeros, lists and oversize integers', () => {
    expect(decodeRlpUint(unhex('0100'), 'x')).toBe(256n);
    expect(reasonOf(() => decodeRlpUint(unhex('0001'), 'x'))).toBe('MALFORMED_INPUT');
    expect(reasonOf(() => decodeRlpUint(Uint8Array.of(0), 'x'))).toBe('MALFORMED_INPUT');
    expect(reasonOf(() => decodeRlpUint([], 'x'))).toBe('MALFORMED_INPUT');
    expect(reasonOf(() => decodeRlpUint(new Uint8Array(33).fill(1), 'x'))).toBe('MALFORMED_INPUT');
    expect(reasonOf(() => decodeRlpUint(unhex('0100'), 'x', 1))).toBe('MALFORMED_INPUT');
  });
});

describe('RLP properties', () => {
  const { tree } = fc.letrec<{ tree: TRlpItem; node: TRlpItem }>((tie) => ({
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('node'), fc.array(tie('tree'), { maxLength: 6 })),
    node: fc.oneof(
      fc.uint8Array({ maxLength: 2 }),
      fc.uint8Array({ minLength: 50, maxLength: 70 }),
      fc.uint8Array({ maxLength: 300 }),
    ),
  }));

  it('decode(encode(x)) is x, and the encoding is the one ethers produces', () => {
    fc.assert(
      fc.property(tree, (item) => {
        const encoded = encodeRlp(item);
        expect(decodeRlp(encoded)).toEqual(item);
        expect(hex(encoded)).toBe(ethersEncodeRlp(toEthers(item)).slice(2));
      }),
      { numRuns: 300 },
    );
  });

  it('any bytes either fail to decode or are the canonical encoding of what they decode to', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        let item: TRlpItem;
        try {
          item = decodeRlp(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(SigningError);
          return;
        }
        expect(hex(encodeRlp(item))).toBe(hex(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('integers round-trip through their minimal encoding', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), (n) => {
        expect(decodeRlpUint(encodeRlpUint(n), 'n')).toBe(n);
      }),
    );
  });
});
