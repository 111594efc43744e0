import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { parsePagination, toTimestamp, ZIdentifierSchema, ZPaginationOptionsSchema, ZTimestampSchema } from './common.js';

describe('parsePagination', () => {
  it('defaults to limit 10 when options are absent or empty', () => {
    expect(parsePagination()).toEqual({ limit: 10 });
    expect(parsePagination(undefined)).toEqual({ limit: 10 });
    expect(parsePagination({})).toEqual({ limit: 10 });
  });

  it('accepts the bounds 1 and 100, as strings or JSON numbers', () => {
    expect(parsePagination({ limit: '1' })).toEqual({ limit: 1 });
    expect(parsePagination({ limit: '100' })).toEqual({ limit: 100 });
    expect(parsePagination({ limit: 1 })).toEqual({ limit: 1 });
    expect(parsePagination({ limit: 100 })).toEqual({ limit: 100 });
  });

  it.each(['0', '101', 'abc', '-1', '1.5', ' 5', '1e2', 0, 101, -1, 2.5])('rejects limit %j', (limit) => {
    expect(() => parsePagination({ limit })).toThrow(ZodError);
  });

  it('rejects a limit of the wrong type with a message naming the range', () => {
    const r = ZPaginationOptionsSchema.safeParse({ limit: true });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['limit']);
    expect(r.error?.issues[0]?.message).toMatch(/1 to 100/);
  });

  it('passes cursors through', () => {
    expect(parsePagination({ limit: '5', after: 'acc-1' })).toEqual({ limit: 5, after: 'acc-1' });
    expect(parsePagination({ before: 'acc-9' })).toEqual({ limit: 10, before: 'acc-9' });
  });

  it('treats empty strings as unset (proto3 defaults)', () => {
    expect(parsePagination({ limit: '', before: '', after: '' })).toEqual({ limit: 10 });
  });

  it('rejects before and after together with a clear message', () => {
    const r = ZPaginationOptionsSchema.safeParse({ before: 'a', after: 'b' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/before and after cannot both be set/);
    expect(() => parsePagination({ before: 'a', after: 'b' })).toThrow(ZodError);
  });

  it('round-trips any integer 1..100 written as a decimal string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (n) => {
        expect(parsePagination({ limit: String(n) })).toEqual({ limit: n });
      }),
    );
  });

  it('rejects any integer outside 1..100', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 })),
        (n) => !ZPaginationOptionsSchema.safeParse({ limit: String(n) }).success,
      ),
    );
  });

  it('never accepts a string that is not all digits', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => s !== '' && !/^[0-9]+$/.test(s)),
        (s) => !ZPaginationOptionsSchema.safeParse({ limit: s }).success,
      ),
    );
  });
});

describe('toTimestamp', () => {
  it('splits milliseconds into seconds and nanos strings', () => {
    expect(toTimestamp(new Date(1_700_000_000_123))).toEqual({ seconds: '1700000000', nanos: '123000000' });
    expect(toTimestamp(new Date(0))).toEqual({ seconds: '0', nanos: '0' });
    expect(toTimestamp(new Date(999))).toEqual({ seconds: '0', nanos: '999000000' });
  });

  it('keeps nanos non-negative before 1970', () => {
    expect(toTimestamp(new Date(-1))).toEqual({ seconds: '-1', nanos: '999000000' });
  });

  it('rejects an invalid Date', () => {
    expect(() => toTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('produces a valid wire timestamp that converts back to the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        const ts = toTimestamp(new Date(ms));
        expect(ZTimestampSchema.parse(ts)).toEqual(ts);
        expect(Number(ts.seconds) * 1000 + Number(ts.nanos) / 1e6).toBe(ms);
      }),
    );
  });
});

describe('ZIdentifierSchema', () => {
  it('accepts 1..256 characters only', () => {
    expect(ZIdentifierSchema.safeParse('a').success).toBe(true);
    expect(ZIdentifierSchema.safeParse('a'.repeat(256)).success).toBe(true);
    expect(ZIdentifierSchema.safeParse('').success).toBe(false);
    expect(ZIdentifierSchema.safeParse('a'.repeat(257)).success).toBe(false);
    expect(ZIdentifierSchema.safeParse(42).success).toBe(false);
  });
});
