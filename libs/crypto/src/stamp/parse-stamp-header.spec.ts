/** Tests for X-Stamp decoding, including fast-check properties over hostile input. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StampError } from '../errors.js';
import { P256_VECTOR, encodeStampHeader } from '../test-vectors.js';
import { MAX_STAMP_HEADER_LENGTH, parseStampHeader } from './parse-stamp-header.js';

const SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';
const EXPECTED = { publicKey: P256_VECTOR.publicKey, scheme: SCHEME, signature: P256_VECTOR.signature };

function malformedMessage(headerValue: unknown): string {
  try {
    parseStampHeader(headerValue as string);
  } catch (error) {
    expect(error).toBeInstanceOf(StampError);
    expect((error as StampError).reason).toBe('STAMP_MALFORMED');
    return (error as StampError).message;
  }
  throw new Error('expected STAMP_MALFORMED');
}

describe('parseStampHeader', () => {
  it('decodes the protocol-notes header', () => {
    expect(parseStampHeader(P256_VECTOR.header)).toEqual(EXPECTED);
  });

  it('accepts padded base64url and standard base64, and surrounding whitespace', () => {
    const json = Buffer.from(JSON.stringify(EXPECTED));
    const standard = json.toString('base64');
    expect(standard).toMatch(/[+/=]/); // make sure the alphabets actually differ for this input
    expect(parseStampHeader(standard)).toEqual(EXPECTED);
    expect(parseStampHeader(standard.replace(/=+$/, ''))).toEqual(EXPECTED);
    const padded = json.toString('base64url').padEnd(Math.ceil(json.length / 3) * 4, '=');
    expect(parseStampHeader(padded)).toEqual(EXPECTED);
    expect(parseStampHeader(`  ${P256_VECTOR.header}\t`)).toEqual(EXPECTED);
  });

  it('lowercases hex and ignores key order and unknown fields', () => {
    const header = encodeStampHeader({
      signature: P256_VECTOR.signature.toUpperCase(),
      extra: 1,
      scheme: SCHEME,
      publicKey: P256_VECTOR.publicKey.toUpperCase(),
    });
    expect(parseStampHeader(header)).toEqual(EXPECTED);
  });

  it('rejects bad encodings with a clear reason', () => {
    expect(malformedMessage('')).toMatch(/empty/);
    expect(malformedMessage('not base64!')).toMatch(/base64/);
    expect(malformedMessage(`${P256_VECTOR.header}===`)).toMatch(/base64/);
    expect(malformedMessage('A')).toMatch(/base64/);
    expect(malformedMessage(Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'))).toMatch(/UTF-8/);
    expect(malformedMessage(Buffer.from('{"publicKey":').toString('base64url'))).toMatch(/JSON/);
    expect(malformedMessage('a'.repeat(MAX_STAMP_HEADER_LENGTH + 4))).toMatch(/longer/);
    expect(malformedMessage(42)).toMatch(/string/);
  });

  it('rejects missing, mistyped or non-hex fields, naming the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[1, 2], /object/],
      [null, /object/],
      ['text', /object/],
      [{ ...EXPECTED, publicKey: undefined }, /publicKey/],
      [{ ...EXPECTED, publicKey: 12 }, /publicKey/],
      [{ ...EXPECTED, publicKey: '' }, /publicKey/],
      [{ ...EXPECTED, publicKey: '0xab' }, /publicKey/],
      [{ ...EXPECTED, publicKey: 'abc' }, /publicKey/],
      [{ ...EXPECTED, scheme: undefined }, /scheme/],
      [{ ...EXPECTED, scheme: '' }, /scheme/],
      [{ ...EXPECTED, scheme: ['x'] }, /scheme/],
      [{ ...EXPECTED, signature: undefined }, /signature/],
      [{ ...EXPECTED, signature: 'zz' }, /signature/],
    ];
    for (const [json, pattern] of cases) {
      const header = Buffer.from(JSON.stringify(json)).toString('base64url');
      expect(malformedMessage(header)).toMatch(pattern);
    }
  });

  it('never throws anything but StampError on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (text) => {
        try {
          parseStampHeader(text);
        } catch (error) {
          return error instanceof StampError && error.reason === 'STAMP_MALFORMED';
        }
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws anything but StampError on base64url of arbitrary JSON or bytes', () => {
    const anyPayload = fc.oneof(
      fc.json().map((json) => Buffer.from(json)),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      fc
        .record({
          publicKey: fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-fA-F]{0,70}$/), fc.integer()),
          scheme: fc.oneof(fc.string(), fc.constant(SCHEME)),
          signature: fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-f]{0,150}$/)),
        }, { requiredKeys: [] })
        .map((record) => Buffer.from(JSON.stringify(record))),
    );
    fc.assert(
      fc.property(anyPayload, fc.constantFrom('base64url', 'base64') as fc.Arbitrary<BufferEncoding>, (payload, enc) => {
        try {
          const stamp = parseStampHeader(payload.toString(enc));
          // Whatever parses is normalised: lowercase hex strings and a scheme string.
          return (
            /^([0-9a-f]{2})+$/.test(stamp.publicKey) &&
            /^([0-9a-f]{2})+$/.test(stamp.signature) &&
            typeof stamp.scheme === 'string'
          );
        } catch (error) {
          return error instanceof StampError && error.reason === 'STAMP_MALFORMED';
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips every well-formed stamp', () => {
    const hex = fc.uint8Array({ minLength: 1, maxLength: 80 }).map((b) => Buffer.from(b).toString('hex'));
    fc.assert(
      fc.property(hex, fc.string({ minLength: 1 }), hex, (publicKey, scheme, signature) => {
        const stamp = { publicKey, scheme, signature };
        expect(parseStampHeader(encodeStampHeader(stamp))).toEqual(stamp);
      }),
    );
  });
});
